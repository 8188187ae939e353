// Voice-name mapping from cloud voices to the offline espeak-ng voices.
import { describe, expect, it } from 'vitest';
import { espeakLanguageFor, offlineVoiceFor, speakerOf } from './voices.js';

describe('offlineVoiceFor', () => {
  it('maps the default voice to the plain en-us (male) voice', () => {
    expect(offlineVoiceFor(undefined, undefined)).toEqual({ espeakVoice: 'en-us', gender: 'male' });
    expect(offlineVoiceFor('en-US-Chirp3-HD-Charon', 'en-US')).toEqual({ espeakVoice: 'en-us', gender: 'male' });
  });

  it('keeps the gender of Chirp3-HD / Gemini speakers and lettered voices', () => {
    expect(offlineVoiceFor('en-US-Chirp3-HD-Kore', 'en-US')).toMatchObject({ gender: 'female' });
    expect(offlineVoiceFor('en-US-Chirp3-HD-Kore', 'en-US').espeakVoice).toMatch(/^en-us\+f[1-5]$/);
    expect(offlineVoiceFor('Aoede', 'en-US').espeakVoice).toMatch(/^en-us\+f[1-5]$/);
    expect(offlineVoiceFor('en-US-Chirp3-HD-Puck', 'en-US').espeakVoice).toMatch(/^en-us(\+m[2-7])?$/);
    expect(offlineVoiceFor('en-US-Neural2-F', 'en-US').gender).toBe('female');
    expect(offlineVoiceFor('en-US-Wavenet-D', 'en-US').gender).toBe('male');
  });

  it('takes the language from the voice name, else the language code', () => {
    expect(offlineVoiceFor('en-GB-Chirp3-HD-Charon', 'en-US').espeakVoice).toBe('en-gb');
    expect(offlineVoiceFor('Charon', 'fr-FR').espeakVoice).toBe('fr-fr');
    expect(offlineVoiceFor('espeak:en-gb+f2', 'en-US')).toEqual({ espeakVoice: 'en-gb+f2', gender: 'female' });
  });

  it('is stable for a name', () => {
    expect(offlineVoiceFor('en-US-Chirp3-HD-Zephyr', 'en-US')).toEqual(offlineVoiceFor('en-US-Chirp3-HD-Zephyr', 'en-US'));
  });
});

describe('espeakLanguageFor', () => {
  it('falls back to the nearest bundled language', () => {
    expect(espeakLanguageFor('en-US')).toBe('en-us');
    expect(espeakLanguageFor('en-IN')).toBe('en-gb');
    expect(espeakLanguageFor('de-DE')).toBe('de');
    expect(espeakLanguageFor('pt-BR')).toBe('pt-br');
    expect(espeakLanguageFor('xx-YY')).toBe('en-us');
  });
  it('speakerOf takes the last part', () => {
    expect(speakerOf('en-US-Chirp3-HD-Charon')).toBe('Charon');
    expect(speakerOf('Kore')).toBe('Kore');
  });
});
