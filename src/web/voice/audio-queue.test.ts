// The audio queue with fake timers: order, one at a time, the 50-chunk cap, waiting for the shown text, going on after failures.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AudioChunk, AudioQueue } from './audio-queue';

const chunk = (i: number, extra: Partial<AudioChunk> = {}): AudioChunk => ({
  id: `c${i}`,
  audioData: 'AAAA',
  format: 'mp3',
  chunkIndex: i,
  text: `Sentence ${i}.`,
  ...extra,
});

/** A fake player: each play() stays pending until the test ends (or fails) it. */
function fakePlayer() {
  const started: number[] = [];
  const pending: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];
  return {
    started,
    play: (c: AudioChunk) =>
      new Promise<void>((resolve, reject) => {
        started.push(c.chunkIndex);
        pending.push({ resolve, reject });
      }),
    finish: async () => {
      pending.shift()!.resolve();
      await vi.advanceTimersByTimeAsync(0);
    },
    fail: async () => {
      pending.shift()!.reject(new Error('decode error'));
      await vi.advanceTimersByTimeAsync(0);
    },
    get playingCount() {
      return pending.length;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('AudioQueue', () => {
  it('plays chunks in order, one at a time', async () => {
    const p = fakePlayer();
    const q = new AudioQueue({ play: p.play, timers: { setTimeout, clearTimeout } });
    q.enqueue(chunk(0));
    q.enqueue(chunk(1));
    q.enqueue(chunk(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(p.started).toEqual([0]);
    expect(p.playingCount).toBe(1);
    expect(q.state).toMatchObject({ playing: { chunkIndex: 0 }, waiting: 2 });
    await p.finish();
    expect(p.started).toEqual([0, 1]);
    await p.finish();
    await p.finish();
    expect(p.started).toEqual([0, 1, 2]);
    expect(q.state).toMatchObject({ playing: null, waiting: 0, played: 3, failed: 0 });
  });

  it('keeps at most 50 chunks, dropping the oldest waiting ones', async () => {
    const p = fakePlayer();
    const q = new AudioQueue({ play: p.play });
    for (let i = 0; i < 60; i += 1) q.enqueue(chunk(i));
    // Chunk 0 is playing; 59 waited, of which the 9 oldest (1..9) were dropped.
    expect(q.state).toMatchObject({ waiting: 50, dropped: 9 });
    for (let i = 0; i < 51; i += 1) await p.finish();
    expect(p.started).toEqual([0, ...Array.from({ length: 50 }, (_, i) => i + 10)]);
  });

  it('holds a chunk until the displayed text reaches its start, checking every 50 ms', async () => {
    const p = fakePlayer();
    let shown = 0;
    const q = new AudioQueue({ play: p.play, displayedLength: () => shown });
    q.enqueue(chunk(0, { textStart: 0, textEnd: 12 }));
    q.enqueue(chunk(1, { textStart: 13, textEnd: 40 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(p.started).toEqual([0]);
    await p.finish();
    expect(p.started).toEqual([0]);
    expect(q.state.waitingForText).toBe(true);
    shown = 12;
    await vi.advanceTimersByTimeAsync(50);
    expect(p.started).toEqual([0]); // 12 < 13: still waiting
    shown = 13;
    await vi.advanceTimersByTimeAsync(49);
    expect(p.started).toEqual([0]); // the next check is at 50 ms
    await vi.advanceTimersByTimeAsync(1);
    expect(p.started).toEqual([0, 1]);
    expect(q.state.waitingForText).toBe(false);
  });

  it('logs a clip that fails and goes on with the next', async () => {
    const p = fakePlayer();
    const log = vi.fn();
    const onIdle = vi.fn();
    const q = new AudioQueue({ play: p.play, log, onIdle });
    q.enqueue(chunk(0));
    q.enqueue(chunk(1));
    await vi.advanceTimersByTimeAsync(0);
    await p.fail();
    expect(log).toHaveBeenCalledWith('Audio chunk 0 could not be played', expect.any(Error));
    expect(p.started).toEqual([0, 1]);
    await p.finish();
    expect(q.state).toMatchObject({ played: 1, failed: 1 });
    expect(onIdle).toHaveBeenCalledTimes(1);
    // A player that throws synchronously is a failure too.
    const q2 = new AudioQueue({
      play: () => {
        throw new Error('boom');
      },
      log,
    });
    q2.enqueue(chunk(5));
    await vi.advanceTimersByTimeAsync(0);
    expect(q2.state).toMatchObject({ failed: 1, playing: null });
  });

  it('clear() stops the clip playing and forgets the rest', async () => {
    const p = fakePlayer();
    const stopPlayback = vi.fn();
    const q = new AudioQueue({ play: p.play, stopPlayback });
    q.enqueue(chunk(0));
    q.enqueue(chunk(1));
    await vi.advanceTimersByTimeAsync(0);
    q.clear();
    expect(stopPlayback).toHaveBeenCalledTimes(1);
    expect(q.state).toMatchObject({ playing: null, waiting: 0 });
    await p.finish(); // the stopped clip's promise settles late: ignored
    expect(p.started).toEqual([0]);
    expect(q.state.played).toBe(0);
    q.enqueue(chunk(7));
    await vi.advanceTimersByTimeAsync(0);
    expect(p.started).toEqual([0, 7]);
  });

  it('notifies subscribers with a new snapshot on each change', async () => {
    const p = fakePlayer();
    const q = new AudioQueue({ play: p.play });
    const seen: Array<number | null> = [];
    q.subscribe(() => seen.push(q.getSnapshot().playing?.chunkIndex ?? null));
    q.enqueue(chunk(3));
    await vi.advanceTimersByTimeAsync(0);
    await p.finish();
    expect(seen).toContain(3);
    expect(seen[seen.length - 1]).toBeNull();
  });
});
