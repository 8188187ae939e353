// Voice input over a fake SpeechRecognition: settings of the spec, interim text, one final message, errors, no support.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RecognitionLike, VoiceInput, speechRecognitionConstructor } from './voice-input';

class FakeRecognition implements RecognitionLike {
  static last: FakeRecognition;
  continuous = false;
  interimResults = false;
  lang = '';
  onresult: RecognitionLike['onresult'] = null;
  onerror: RecognitionLike['onerror'] = null;
  onend: RecognitionLike['onend'] = null;
  onstart: RecognitionLike['onstart'] = null;
  started = false;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.started = false;
    this.onend?.();
  }
  abort() {
    this.started = false;
    this.onend?.();
  }
  say(parts: Array<[string, boolean]>, resultIndex = 0) {
    this.onresult?.({ resultIndex, results: parts.map(([t, isFinal]) => ({ isFinal, 0: { transcript: t } })) });
  }
}

function setup() {
  const calls = { listening: [] as boolean[], interim: [] as string[], final: [] as string[], errors: [] as string[] };
  const v = new VoiceInput(
    {
      onListening: (l) => calls.listening.push(l),
      onInterim: (t) => calls.interim.push(t),
      onFinal: (t) => calls.final.push(t),
      onError: (m) => calls.errors.push(m),
    },
    { Recognition: FakeRecognition, timers: { setTimeout, clearTimeout } },
  );
  return { v, calls };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('VoiceInput', () => {
  it('listens continuously with interim results in en-US and sends the final transcript once when stopped', () => {
    const { v, calls } = setup();
    v.start();
    const rec = FakeRecognition.last;
    expect(rec).toMatchObject({ continuous: true, interimResults: true, lang: 'en-US', started: true });
    expect(v.listening).toBe(true);
    rec.say([['I need', false]]);
    expect(calls.interim.at(-1)).toBe('I need');
    rec.say([
      ['I need a day off', true],
      ['next', false],
    ]);
    expect(calls.interim.at(-1)).toBe('I need a day off next');
    rec.say(
      [
        ['I need a day off', true],
        ['next Monday', true],
      ],
      1,
    );
    v.stop();
    expect(calls.final).toEqual(['I need a day off next Monday']);
    expect(calls.listening).toEqual([true, false]);
    expect(calls.interim.at(-1)).toBe('');
  });

  it('ends by itself 2 s after a final result with no further speech', () => {
    const { v, calls } = setup();
    v.start();
    FakeRecognition.last.say([['Book a meeting room', true]]);
    vi.advanceTimersByTime(1999);
    expect(calls.final).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls.final).toEqual(['Book a meeting room']);
    expect(v.listening).toBe(false);
  });

  it('sends nothing when nothing was said or when cancelled, and reports errors readably', () => {
    const { v, calls } = setup();
    v.start();
    FakeRecognition.last.onerror?.({ error: 'not-allowed' });
    FakeRecognition.last.stop();
    expect(calls.errors).toEqual(['Microphone access was denied. Allow the microphone for this site to use voice input.']);
    v.start();
    FakeRecognition.last.say([['hello', true]]);
    v.cancel();
    expect(calls.final).toEqual([]);
  });

  it('knows when the browser has no speech recognition', () => {
    expect(speechRecognitionConstructor({})).toBeNull();
    expect(speechRecognitionConstructor({ webkitSpeechRecognition: FakeRecognition })).toBe(FakeRecognition);
    const v = new VoiceInput({ onListening: vi.fn(), onInterim: vi.fn(), onFinal: vi.fn() }, { Recognition: null });
    expect(v.supported).toBe(false);
    v.start();
    expect(v.listening).toBe(false);
  });
});
