// The chat panel's voice controls: sound on/off, microphone start/stop, the red
// 'Listening...' box with the interim transcript, the audio bar ('Generating audio...', play and download of the
// last clip), Replay on bot messages, and the hidden audio element the queue plays through (its data-* attributes
// expose the queue for tests and diagnostics).
import { Download, Mic, MicOff, Play, RotateCcw, Volume2, VolumeX } from 'lucide-react';
import { cn } from '../ui/cn';
import { Spinner } from '../ui/Spinner';
import type { ChatVoice } from './useChatVoice';

const iconButton =
  'inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-md ring-1 ring-inset transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed';

export function SoundToggle({ voice }: { voice: ChatVoice }) {
  const on = voice.soundEnabled;
  return (
    <span className="relative inline-flex">
      <button
        type="button"
        onClick={voice.toggleSound}
        aria-pressed={on}
        aria-label={on ? 'Turn sound off' : 'Turn sound on'}
        title={on ? 'Sound is on: replies are spoken. Click to turn sound off.' : 'Sound is off. Click to have replies spoken.'}
        data-testid="sound-toggle"
        className={cn(
          iconButton,
          on ? 'bg-indigo-50 text-indigo-700 ring-indigo-200 hover:bg-indigo-100' : 'bg-white text-gray-500 ring-gray-300 hover:bg-gray-50',
        )}
      >
        {on ? <Volume2 className="h-5 w-5" aria-hidden /> : <VolumeX className="h-5 w-5" aria-hidden />}
      </button>
      {voice.soundStopped && (
        <span
          role="status"
          className="absolute -top-7 left-1/2 -translate-x-1/2 rounded bg-gray-800 px-2 py-0.5 text-xs whitespace-nowrap text-white"
        >
          Sound off
        </span>
      )}
    </span>
  );
}

export function MicButton({ voice, disabled = false }: { voice: ChatVoice; disabled?: boolean }) {
  const v = voice.voiceInput;
  const unsupported = !v.supported;
  const label = v.listening ? 'Stop voice input' : 'Start voice input';
  return (
    <button
      type="button"
      onClick={v.toggle}
      disabled={unsupported || disabled}
      aria-pressed={v.listening}
      aria-label={label}
      aria-description={unsupported ? (v.unsupportedReason ?? undefined) : undefined}
      title={
        unsupported ? (v.unsupportedReason ?? undefined) : v.listening ? 'Stop listening and send what you said' : 'Speak your message'
      }
      data-testid="mic-button"
      data-supported={v.supported}
      className={cn(
        iconButton,
        v.listening
          ? 'bg-red-600 text-white ring-red-600 hover:bg-red-700'
          : 'bg-white text-gray-700 ring-gray-300 hover:bg-gray-50 disabled:bg-gray-100 disabled:text-gray-400',
      )}
    >
      {unsupported ? <MicOff className="h-5 w-5" aria-hidden /> : <Mic className="h-5 w-5" aria-hidden />}
    </button>
  );
}

/** The red 'Listening...' box with the interim transcript, and voice errors. */
export function ListeningBox({ voice }: { voice: ChatVoice }) {
  const v = voice.voiceInput;
  if (v.listening) {
    return (
      <div
        role="status"
        aria-live="polite"
        data-testid="listening-box"
        className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
      >
        <span className="mt-1.5 h-2 w-2 shrink-0 animate-pulse rounded-full bg-red-600" aria-hidden />
        <div className="min-w-0">
          <p className="font-medium">Listening...</p>
          {v.interim && (
            <p className="break-words text-red-700" data-testid="interim-transcript">
              {v.interim}
            </p>
          )}
        </div>
      </div>
    );
  }
  if (v.error)
    return (
      <p role="alert" className="text-xs text-red-700">
        {v.error}
      </p>
    );
  return null;
}

/** 'Generating audio...' while speech is on its way; play and download of the last clip. */
export function AudioBar({ voice }: { voice: ChatVoice }) {
  const q = voice.queueState;
  if (!voice.generating && !voice.lastClip && !q.playing) return null;
  return (
    <div className="flex items-center gap-2 border-t border-gray-200 bg-gray-50 px-3 py-1.5 text-sm text-gray-700" data-testid="audio-bar">
      {voice.generating ? (
        <span className="inline-flex items-center gap-2" role="status">
          <Spinner size="sm" /> Generating audio...
        </span>
      ) : q.playing || q.waiting > 0 ? (
        <span className="inline-flex items-center gap-2" role="status">
          <Volume2 className="h-4 w-4 text-indigo-600" aria-hidden /> Playing audio
        </span>
      ) : (
        <span className="text-gray-500">Last audio clip</span>
      )}
      <span className="ml-auto inline-flex items-center gap-1">
        <button
          type="button"
          onClick={voice.playLastClip}
          disabled={!voice.lastClip}
          aria-label="Play the last audio clip"
          title="Play the last audio clip"
          className="inline-flex h-8 w-8 items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 disabled:text-gray-300"
        >
          <Play className="h-4 w-4" aria-hidden />
        </button>
        <button
          type="button"
          onClick={voice.downloadLastClip}
          disabled={!voice.lastClip}
          aria-label="Download the last audio clip"
          title="Download the last audio clip"
          className="inline-flex h-8 w-8 items-center justify-center rounded-md text-gray-700 hover:bg-gray-200 disabled:text-gray-300"
        >
          <Download className="h-4 w-4" aria-hidden />
        </button>
      </span>
    </div>
  );
}

/** Replay on a bot message: shown only while sound is on; needs non-blank text. */
export function ReplayButton({ voice, text, messageId }: { voice: ChatVoice; text: string; messageId?: string }) {
  if (!voice.soundEnabled || !text.trim()) return null;
  return (
    <button
      type="button"
      onClick={() => void voice.replay(text, messageId ?? null)}
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium text-indigo-700 hover:bg-indigo-50"
      aria-label="Replay this message"
      data-testid="replay-button"
    >
      <RotateCcw className="h-3.5 w-3.5" aria-hidden /> Replay
    </button>
  );
}

/** The audio element the queue plays through; data-* attributes mirror the queue. */
export function VoiceAudio({ voice }: { voice: ChatVoice }) {
  const q = voice.queueState;
  return (
    <audio
      ref={voice.audioRef}
      className="hidden"
      preload="auto"
      data-testid="chat-audio"
      data-playing={q.playing ? 'true' : 'false'}
      data-playing-kind={q.playing?.kind ?? ''}
      data-waiting={q.waiting}
      data-played={q.played}
      data-failed={q.failed}
      data-dropped={q.dropped}
      data-avatar={voice.avatarState}
    />
  );
}
