// The assistant avatar's state through a chat reply: listening on send
// or voice start; speaking on the first content or audio; back to greeting about 1 s after a reply, 5 s after the
// greeting's audio, 3 s after replayed audio; idle when voice recognition ends or the user was already greeted.
// Pure, with injectable timers.
import type { QueueTimers } from './audio-queue';

export type AvatarState = 'greeting' | 'listening' | 'speaking' | 'idle';

/** How long the avatar stays before returning to greeting, by what just finished. */
export const AVATAR_RETURN_MS = { reply: 1000, greeting: 5000, replay: 3000 } as const;

export type FinishedKind = keyof typeof AVATAR_RETURN_MS;

const realTimers: QueueTimers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class AvatarController {
  private value: AvatarState;
  private timer: unknown = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    initial: AvatarState = 'greeting',
    private readonly timers: QueueTimers = realTimers,
  ) {
    this.value = initial;
  }

  get state(): AvatarState {
    return this.value;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  getSnapshot = (): AvatarState => this.value;

  /** A message was sent or voice input started. */
  listening(): void {
    this.set('listening');
  }

  /** The first content of a reply or the first audio arrived. */
  speaking(): void {
    this.set('speaking');
  }

  /** Voice recognition ended, or the user was already greeted. */
  idle(): void {
    this.set('idle');
  }

  /**
   * Something finished: a reply's text (with no audio still to play), or a clip. Returns to greeting after the
   * spec's delay unless something else happens first.
   */
  finished(kind: FinishedKind): void {
    this.cancel();
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.set('greeting');
    }, AVATAR_RETURN_MS[kind]);
  }

  dispose(): void {
    this.cancel();
    this.listeners.clear();
  }

  private cancel(): void {
    if (this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private set(state: AvatarState): void {
    this.cancel();
    if (state === this.value) return;
    this.value = state;
    for (const l of this.listeners) l();
  }
}
