// Browser storage keys of a signed-in session, and the sweep that clears them at logout.

export const CHAT_SESSION_KEY = 'adminease_chat_session';

/** Prefixes of every key the app (and its assistant, audio and manager views) may leave in storage: logout clears them all. */
export const SESSION_KEY_PREFIXES = ['adminease_', 'chatbot_', 'manager_', 'session_', 'tts_', 'audio_'] as const;

export function clearSessionStorageKeys(stores: Storage[] = [localStorage, sessionStorage]): void {
  for (const store of stores) {
    try {
      const doomed: string[] = [];
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key && SESSION_KEY_PREFIXES.some((p) => key.startsWith(p))) doomed.push(key);
      }
      for (const key of doomed) store.removeItem(key);
    } catch {
      // Storage unavailable: nothing stored, nothing to clear.
    }
  }
}

export function getChatSessionId(): string | null {
  try {
    return localStorage.getItem(CHAT_SESSION_KEY);
  } catch {
    return null;
  }
}

export function setChatSessionId(id: string): void {
  try {
    localStorage.setItem(CHAT_SESSION_KEY, id);
  } catch {
    // Ignored: the assistant creates a new session when none is stored.
  }
}
