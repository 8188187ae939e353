// @vitest-environment happy-dom
// Unit test of the logout sweep over localStorage and sessionStorage.
import { describe, expect, it } from 'vitest';
import { clearSessionStorageKeys } from './storage';

describe('clearSessionStorageKeys', () => {
  it('removes every key with a session prefix and keeps the rest', () => {
    for (const store of [localStorage, sessionStorage]) {
      store.clear();
      for (const key of [
        'adminease_token',
        'chatbot_history',
        'manager_cache',
        'session_id',
        'tts_voice',
        'audio_queue',
        'theme',
        'my_adminease',
      ]) {
        store.setItem(key, 'x');
      }
    }
    clearSessionStorageKeys();
    for (const store of [localStorage, sessionStorage]) {
      const keys = Array.from({ length: store.length }, (_, i) => store.key(i));
      expect(keys.sort()).toEqual(['my_adminease', 'theme']);
    }
  });
});
