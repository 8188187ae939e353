// Avatar states and the spec's return timings, with fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AvatarController } from './avatar';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AvatarController', () => {
  it('listens on send, speaks on the first content, greets about 1 s after the reply', () => {
    const a = new AvatarController('greeting', { setTimeout, clearTimeout });
    a.listening();
    expect(a.state).toBe('listening');
    a.speaking();
    expect(a.state).toBe('speaking');
    a.finished('reply');
    vi.advanceTimersByTime(999);
    expect(a.state).toBe('speaking');
    vi.advanceTimersByTime(1);
    expect(a.state).toBe('greeting');
  });

  it('waits 5 s after the greeting audio and 3 s after replayed audio', () => {
    const a = new AvatarController('greeting', { setTimeout, clearTimeout });
    a.speaking();
    a.finished('greeting');
    vi.advanceTimersByTime(4999);
    expect(a.state).toBe('speaking');
    vi.advanceTimersByTime(1);
    expect(a.state).toBe('greeting');
    a.speaking();
    a.finished('replay');
    vi.advanceTimersByTime(2999);
    expect(a.state).toBe('speaking');
    vi.advanceTimersByTime(1);
    expect(a.state).toBe('greeting');
  });

  it('a new state cancels a pending return, and listeners hear each change', () => {
    const a = new AvatarController('greeting', { setTimeout, clearTimeout });
    const seen: string[] = [];
    a.subscribe(() => seen.push(a.getSnapshot()));
    a.speaking();
    a.finished('reply');
    a.listening(); // the user sent again before the return
    vi.advanceTimersByTime(5000);
    expect(a.state).toBe('listening');
    a.idle();
    expect(seen).toEqual(['speaking', 'listening', 'idle']);
  });
});
