// Plays audio chunks through one <audio> element: a blob URL per clip; resolves when the clip ends, rejects when the
// browser cannot play it (the queue logs that and goes on). stop() ends the clip playing now.
import type { AudioChunk } from './audio-queue';
import { base64ToBytes, mimeTypeOf } from './clips';

export class ElementPlayer {
  private stopCurrent: (() => void) | null = null;

  constructor(
    private readonly element: () => HTMLAudioElement | null,
    private readonly rate: () => number = () => 1,
  ) {}

  play = (chunk: AudioChunk): Promise<void> => {
    const el = this.element();
    if (!el) return Promise.reject(new Error('No audio element'));
    this.stop();
    const bytes = base64ToBytes(chunk.audioData);
    const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mimeTypeOf(chunk.format) }));
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const done = (err?: unknown) => {
        if (settled) return;
        settled = true;
        el.removeEventListener('ended', onEnded);
        el.removeEventListener('error', onError);
        this.stopCurrent = null;
        el.removeAttribute('data-chunk-index');
        URL.revokeObjectURL(url);
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else resolve();
      };
      const onEnded = () => done();
      const onError = () => done(new Error(el.error?.message || `Audio (${chunk.format}) could not be played`));
      this.stopCurrent = () => {
        el.pause();
        done();
      };
      el.addEventListener('ended', onEnded);
      el.addEventListener('error', onError);
      el.setAttribute('data-chunk-index', String(chunk.chunkIndex));
      el.src = url;
      // Loading a source resets playbackRate to defaultPlaybackRate: set both.
      const rate = Math.min(Math.max(this.rate() || 1, 0.5), 2);
      el.defaultPlaybackRate = rate;
      el.playbackRate = rate;
      // Older browsers return nothing from play() instead of a promise.
      const started = el.play() as Promise<void> | undefined;
      if (started && typeof started.catch === 'function') started.catch((err: unknown) => done(err));
    });
  };

  stop = (): void => {
    this.stopCurrent?.();
  };
}

/** Saves bytes as a file through a temporary link. */
export function downloadBytes(bytes: Uint8Array, mime: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mime }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
