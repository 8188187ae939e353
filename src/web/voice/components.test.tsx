// @vitest-environment happy-dom
// The voice controls with the useChatVoice hook: sound toggle and speech request fields, stream events into the queue
// and the audio bar, Replay only with sound on, the microphone disabled with an explanation when unsupported, and the
// 'Listening...' box with the interim transcript sending the final transcript.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioBar, ListeningBox, MicButton, ReplayButton, SoundToggle, VoiceAudio } from './components';
import { type ChatVoice, useChatVoice } from './useChatVoice';
import { VOICE_INPUT_UNSUPPORTED } from './voice-input';

let voice: ChatVoice;
const sent: string[] = [];

function Panel({ initialSound }: { initialSound?: boolean }) {
  voice = useChatVoice({ initialSoundEnabled: initialSound, onTranscript: (t) => sent.push(t), log: () => {} });
  return (
    <div>
      <VoiceAudio voice={voice} />
      <AudioBar voice={voice} />
      <SoundToggle voice={voice} />
      <MicButton voice={voice} />
      <ListeningBox voice={voice} />
      <ReplayButton voice={voice} text="Hello Alex." messageId="m1" />
    </div>
  );
}

// A tiny valid MP3 frame in base64 is not needed: happy-dom does not decode audio; play() is stubbed per test.
const CHUNK = (i: number, start: number, end: number) => ({
  type: 'tts_chunk',
  audio_data: btoa(`clip${i}`),
  audio_format: 'mp3',
  text: `S${i}.`,
  chunk_index: i,
  text_start: start,
  text_end: end,
});

beforeEach(() => {
  sent.length = 0;
  localStorage.clear();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  delete (window as any).webkitSpeechRecognition;
});

describe('voice controls', () => {
  it('asks for speech only while sound is on, says so explicitly when off, and remembers the choice', () => {
    render(<Panel />);
    expect(voice.soundEnabled).toBe(false);
    // A request that does not say would get the saved preference (on by default): off is said explicitly.
    expect(voice.speechRequestFields()).toEqual({ tts: false });
    expect(screen.queryByTestId('replay-button')).toBeNull();
    fireEvent.click(screen.getByTestId('sound-toggle'));
    expect(voice.speechRequestFields()).toEqual({ tts: true, audio_format: 'mp3' });
    expect(localStorage.getItem('tts_sound_enabled')).toBe('on');
    expect(screen.getByTestId('sound-toggle').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('replay-button')).toBeTruthy();
  });

  it('queues streamed chunks in order, shows Generating audio... until the first, then offers the last clip', async () => {
    render(<Panel initialSound />);
    act(() => {
      voice.notifySend();
      voice.notifyReplyStart('m1');
    });
    expect(screen.getByText('Generating audio...')).toBeTruthy();
    expect(voice.avatarState).toBe('listening');
    const audio = screen.getByTestId<HTMLAudioElement>('chat-audio');
    act(() => {
      voice.notifyDisplayed('m1', 3);
    });
    expect(voice.avatarState).toBe('speaking');
    act(() => {
      voice.handleStreamEvent('m1', CHUNK(0, 0, 3));
    });
    expect(screen.queryByText('Generating audio...')).toBeNull();
    expect(audio.getAttribute('data-playing')).toBe('true');
    expect(audio.getAttribute('data-chunk-index')).toBe('0');
    // Chunk 1 starts at 4: it waits until the message shows 4 characters.
    act(() => {
      voice.handleStreamEvent('m1', CHUNK(1, 4, 7));
    });
    await act(async () => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(audio.getAttribute('data-played')).toBe('1');
    expect(audio.getAttribute('data-playing')).toBe('false');
    expect(audio.getAttribute('data-waiting')).toBe('1');
    await act(async () => {
      voice.notifyDisplayed('m1', 7);
    });
    expect(audio.getAttribute('data-chunk-index')).toBe('1');
    await act(async () => {
      audio.dispatchEvent(new Event('ended'));
    });
    expect(audio.getAttribute('data-played')).toBe('2');
    // A final tts after chunks would repeat the reply: ignored.
    expect(voice.handleStreamEvent('m1', { type: 'tts', audio_data: btoa('all'), audio_format: 'mp3' } as any)).toBe(true);
    expect(audio.getAttribute('data-playing')).toBe('false');
    expect(voice.handleStreamEvent('m1', { type: 'content' })).toBe(false);
    act(() => {
      voice.notifyReplyDone('m1');
    });
    expect(voice.lastClip?.chunks.map((c) => new TextDecoder().decode(c))).toEqual(['clip0', 'clip1']);
    expect(screen.getByLabelText('Play the last audio clip')).toBeTruthy();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const created = vi.spyOn(URL, 'createObjectURL');
    fireEvent.click(screen.getByLabelText('Download the last audio clip'));
    expect(click).toHaveBeenCalled();
    const blob = created.mock.calls.at(-1)![0] as Blob;
    expect(blob.type).toBe('audio/mpeg');
    expect(await blob.text()).toBe('clip0clip1');
  });

  it('a new message interrupts the assistant: its audio stops and late clips of the old reply are dropped', async () => {
    render(<Panel initialSound />);
    act(() => {
      voice.notifySend();
      voice.notifyReplyStart('m1');
      voice.handleStreamEvent('m1', CHUNK(0, 0, 3));
    });
    expect(voice.queueState.playing?.messageId).toBe('m1');
    act(() => {
      voice.notifySend();
      voice.notifyReplyStart('m2');
    });
    expect(voice.queueState.playing).toBeNull();
    expect(voice.generating).toBe(true);
    // the old stream ends late and brings one more clip: ignored, and it does not hide m2's 'Generating audio...'
    act(() => {
      voice.handleStreamEvent('m1', CHUNK(1, 4, 7));
      voice.notifyReplyDone('m1');
    });
    expect(voice.queueState).toMatchObject({ playing: null, waiting: 0 });
    expect(voice.generating).toBe(true);
    act(() => {
      voice.handleStreamEvent('m2', CHUNK(0, 0, 3));
    });
    expect(voice.queueState.playing?.messageId).toBe('m2');
  });

  it('turning sound off stops the audio and flashes the indicator for 500 ms', async () => {
    vi.useFakeTimers();
    try {
      render(<Panel initialSound />);
      act(() => {
        voice.notifyReplyStart('m1');
        voice.handleStreamEvent('m1', CHUNK(0, 0, 3));
      });
      expect(voice.queueState.playing).not.toBeNull();
      fireEvent.click(screen.getByTestId('sound-toggle'));
      expect(voice.queueState.playing).toBeNull();
      expect(screen.getByText('Sound off')).toBeTruthy();
      act(() => {
        vi.advanceTimersByTime(500);
      });
      expect(screen.queryByText('Sound off')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the stored sound preference, reports toggles, and plays at the preferred speed', async () => {
    const changes: boolean[] = [];
    function Prefs({ sound }: { sound: boolean }) {
      voice = useChatVoice({ soundEnabled: sound, onSoundChange: (v) => changes.push(v), playbackRate: 1.5, log: () => {} });
      return (
        <div>
          <VoiceAudio voice={voice} />
          <SoundToggle voice={voice} />
        </div>
      );
    }
    const { rerender } = render(<Prefs sound />);
    expect(voice.soundEnabled).toBe(true);
    rerender(<Prefs sound={false} />);
    expect(voice.soundEnabled).toBe(false);
    expect(changes).toEqual([]);
    fireEvent.click(screen.getByTestId('sound-toggle'));
    expect(voice.soundEnabled).toBe(true);
    expect(changes).toEqual([true]);
    act(() => {
      voice.notifyReplyStart('m9');
      voice.handleStreamEvent('m9', CHUNK(0, 0, 3));
    });
    const audio = screen.getByTestId<HTMLAudioElement>('chat-audio');
    expect(audio.playbackRate).toBe(1.5);
  });

  it('a click wins over a stored value that arrives after it (a load started before the click)', () => {
    function Prefs({ sound }: { sound?: boolean }) {
      voice = useChatVoice({ initialSoundEnabled: true, soundEnabled: sound, log: () => {} });
      return <SoundToggle voice={voice} />;
    }
    const { rerender } = render(<Prefs />);
    expect(voice.soundEnabled).toBe(true);
    fireEvent.click(screen.getByTestId('sound-toggle')); // off
    rerender(<Prefs sound />); // the stale load says on: ignored
    expect(voice.soundEnabled).toBe(false);
    rerender(<Prefs sound={false} />); // the save arrives
    expect(voice.soundEnabled).toBe(false);
    rerender(<Prefs sound />); // changed later in the settings: applies
    expect(voice.soundEnabled).toBe(true);
  });

  it('the automatic greeting is never read aloud (its audio is dropped, nothing awaited); the avatar greets again 5 s after it', async () => {
    vi.useFakeTimers();
    try {
      render(<Panel initialSound />);
      act(() => {
        voice.notifyReplyStart('g1', { greeting: true });
      });
      expect(voice.generating).toBe(false);
      expect(screen.queryByText('Generating audio...')).toBeNull();
      act(() => {
        voice.notifyDisplayed('g1', 40);
        // A server that reads the saved preference may still send audio: it is not played.
        voice.handleStreamEvent('g1', CHUNK(0, 0, 3));
      });
      expect(screen.getByTestId('chat-audio').getAttribute('data-playing')).not.toBe('true');
      act(() => {
        voice.notifyReplyDone('g1');
      });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(4999);
      });
      expect(voice.avatarState).toBe('speaking');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1);
      });
      expect(voice.avatarState).toBe('greeting');
      // The user's own message is spoken.
      act(() => {
        voice.notifySend();
        voice.notifyReplyStart('m1');
        voice.notifyDisplayed('m1', 3);
        voice.handleStreamEvent('m1', CHUNK(0, 0, 3));
      });
      expect(screen.getByTestId('chat-audio').getAttribute('data-playing')).toBe('true');
      act(() => {
        voice.notifyAlreadyGreeted();
      });
      expect(voice.avatarState).toBe('idle');
    } finally {
      vi.useRealTimers();
    }
  });

  it('disables the microphone with an explanation where the browser has no speech recognition', () => {
    render(<Panel />);
    const mic = screen.getByTestId<HTMLButtonElement>('mic-button');
    expect(mic.disabled).toBe(true);
    expect(mic.getAttribute('title')).toBe(VOICE_INPUT_UNSUPPORTED);
    expect(mic.getAttribute('aria-description')).toBe(VOICE_INPUT_UNSUPPORTED);
  });

  it("shows the red 'Listening...' box with the interim transcript and sends the final transcript", () => {
    let rec: any;
    (window as any).webkitSpeechRecognition = class {
      continuous = false;
      interimResults = false;
      lang = '';
      onresult: any;
      onend: any;
      onerror: any;
      onstart: any;
      constructor() {
        // The test drives the recognition object the component created.
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        rec = this;
      }
      start() {}
      stop() {
        this.onend?.();
      }
      abort() {
        this.onend?.();
      }
    };
    render(<Panel />);
    const mic = screen.getByTestId<HTMLButtonElement>('mic-button');
    expect(mic.disabled).toBe(false);
    fireEvent.click(mic);
    expect(screen.getByText('Listening...')).toBeTruthy();
    expect(voice.avatarState).toBe('listening');
    act(() => {
      rec.onresult({ resultIndex: 0, results: [{ isFinal: false, 0: { transcript: 'report an' } }] });
    });
    expect(screen.getByTestId('interim-transcript').textContent).toBe('report an');
    act(() => {
      rec.onresult({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: 'report an IT issue' } }] });
    });
    fireEvent.click(mic); // stop
    expect(screen.queryByText('Listening...')).toBeNull();
    expect(sent).toEqual(['report an IT issue']);
    expect(voice.avatarState).toBe('idle');
  });
});
