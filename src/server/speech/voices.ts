// Maps the voice names clients send (Google Cloud voices such as en-US-Chirp3-HD-Charon, Gemini speakers such as Kore)
// to the nearest offline espeak-ng voice: the language from the voice or language code, male/female from the voice.

export const DEFAULT_VOICE_NAME = 'en-US-Chirp3-HD-Charon';
export const DEFAULT_MODEL_NAME = 'gemini-2.5-flash-tts';
export const DEFAULT_LANGUAGE_CODE = 'en-US';

/** Languages of the bundled espeak-ng data (mbrola voices are not compiled in). */
export const ESPEAK_LANGUAGES: ReadonlySet<string> = new Set([
  'af',
  'am',
  'an',
  'ar',
  'as',
  'az',
  'ba',
  'be',
  'bg',
  'bn',
  'bpy',
  'bs',
  'ca',
  'cmn',
  'cs',
  'cv',
  'cy',
  'da',
  'de',
  'el',
  'en-029',
  'en-gb',
  'en-gb-scotland',
  'en-gb-x-gbclan',
  'en-gb-x-gbcwmd',
  'en-gb-x-rp',
  'en-us',
  'en-us-nyc',
  'eo',
  'es',
  'es-419',
  'et',
  'eu',
  'fa',
  'fi',
  'fr-be',
  'fr-ch',
  'fr-fr',
  'ga',
  'gd',
  'gn',
  'grc',
  'gu',
  'hak',
  'haw',
  'he',
  'hi',
  'hr',
  'ht',
  'hu',
  'hy',
  'hyw',
  'ia',
  'id',
  'io',
  'is',
  'it',
  'ja',
  'jbo',
  'ka',
  'kk',
  'kl',
  'kn',
  'ko',
  'kok',
  'ku',
  'ky',
  'la',
  'lb',
  'lfn',
  'lt',
  'ltg',
  'lv',
  'mi',
  'mk',
  'ml',
  'mr',
  'ms',
  'mt',
  'my',
  'nb',
  'nci',
  'ne',
  'nl',
  'nog',
  'om',
  'or',
  'pa',
  'pap',
  'pl',
  'pt',
  'pt-br',
  'py',
  'qu',
  'quc',
  'ro',
  'ru',
  'sd',
  'shn',
  'si',
  'sk',
  'sl',
  'sq',
  'sr',
  'sv',
  'sw',
  'ta',
  'te',
  'th',
  'tk',
  'tn',
  'tr',
  'tt',
  'ug',
  'uk',
  'ur',
  'uz',
  'vi',
  'yue',
]);

/** Where a language code has no espeak voice of its own, the nearest one. */
const LANGUAGE_FALLBACK: Record<string, string> = {
  en: 'en-us',
  'en-au': 'en-gb',
  'en-in': 'en-gb',
  'en-ie': 'en-gb',
  'en-nz': 'en-gb',
  'en-za': 'en-gb',
  'en-ca': 'en-us',
  fr: 'fr-fr',
  'fr-ca': 'fr-fr',
  'es-us': 'es-419',
  'es-mx': 'es-419',
  'es-es': 'es',
  'pt-pt': 'pt',
  zh: 'cmn',
  'zh-cn': 'cmn',
  'cmn-cn': 'cmn',
  'cmn-tw': 'cmn',
  'yue-hk': 'yue',
  nn: 'nb',
  no: 'nb',
  fil: 'id',
};

// Gemini-TTS / Chirp 3 HD speakers, by the gender Google documents for them.
const FEMALE_SPEAKERS = new Set([
  'achernar',
  'aoede',
  'autonoe',
  'callirrhoe',
  'despina',
  'erinome',
  'gacrux',
  'kore',
  'laomedeia',
  'leda',
  'pulcherrima',
  'sulafat',
  'vindemiatrix',
  'zephyr',
]);
const MALE_SPEAKERS = new Set([
  'achird',
  'algenib',
  'algieba',
  'alnilam',
  'charon',
  'enceladus',
  'fenrir',
  'iapetus',
  'orus',
  'puck',
  'rasalgethi',
  'sadachbia',
  'sadaltager',
  'schedar',
  'umbriel',
  'zubenelgenubi',
]);
// en-US lettered voices (Standard, Wavenet, Neural2, Studio, News, Casual, Journey, Chirp-HD, Polyglot).
const EN_US_LETTER_GENDER: Record<string, 'male' | 'female'> = {
  A: 'male',
  B: 'male',
  C: 'female',
  D: 'male',
  E: 'female',
  F: 'female',
  G: 'female',
  H: 'female',
  I: 'male',
  J: 'male',
  K: 'female',
  L: 'female',
  M: 'male',
  N: 'male',
  O: 'female',
  Q: 'male',
  '1': 'male',
};

// espeak-ng variants: the base voice is male; '+f1'..'+f5' are female, '+m2'..'+m7' other male timbres.
const MALE_VARIANTS = ['', '+m2', '+m3', '+m4', '+m5', '+m6', '+m7'];
const FEMALE_VARIANTS = ['+f1', '+f2', '+f3', '+f4', '+f5'];
const ALL_VARIANTS = new Set([...MALE_VARIANTS, ...FEMALE_VARIANTS]);

export interface OfflineVoice {
  /** The espeak-ng voice argument, e.g. 'en-us+f3'. */
  espeakVoice: string;
  gender: 'male' | 'female';
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The espeak language for a BCP-47 code: exact, then a known fallback, then the primary subtag, else en-us. */
export function espeakLanguageFor(languageCode: string | undefined): string {
  const code = (languageCode || DEFAULT_LANGUAGE_CODE).trim().toLowerCase().replace(/_/g, '-');
  if (ESPEAK_LANGUAGES.has(code)) return code;
  if (LANGUAGE_FALLBACK[code]) return LANGUAGE_FALLBACK[code];
  const primary = code.split('-')[0];
  if (ESPEAK_LANGUAGES.has(primary)) return primary;
  if (LANGUAGE_FALLBACK[primary]) return LANGUAGE_FALLBACK[primary];
  return 'en-us';
}

/** The speaker part of a cloud voice name: 'en-US-Chirp3-HD-Charon' -> 'Charon', 'Kore' -> 'Kore'. */
export function speakerOf(voiceName: string): string {
  const parts = voiceName.split('-');
  return parts[parts.length - 1];
}

/** The language part of a cloud voice name ('en-US-Neural2-F' -> 'en-US'), or undefined for bare speakers. */
function languageOfVoice(voiceName: string): string | undefined {
  const m = /^([a-z]{2,3}-[A-Z]{2})-/.exec(voiceName);
  return m ? m[1] : undefined;
}

/**
 * The nearest offline voice for a requested voice name and language code. A direct espeak voice may be asked for as
 * 'espeak:en-gb+f2'. Unknown names keep the language and pick a stable male variant (the default voice is male).
 */
export function offlineVoiceFor(voiceName: string | undefined, languageCode: string | undefined): OfflineVoice {
  const name = (voiceName || DEFAULT_VOICE_NAME).trim();
  const direct = /^espeak(?:-ng)?:([a-z0-9-]+)(\+[mf]\d)?$/i.exec(name);
  if (direct) {
    const lang = espeakLanguageFor(direct[1]);
    const variant = (direct[2] ?? '').toLowerCase();
    const ok = ALL_VARIANTS.has(variant) ? variant : '';
    return { espeakVoice: `${lang}${ok}`, gender: ok.startsWith('+f') ? 'female' : 'male' };
  }
  const lang = espeakLanguageFor(languageOfVoice(name) ?? languageCode);
  const speaker = speakerOf(name);
  const key = speaker.toLowerCase();
  let gender: 'male' | 'female' = 'male';
  if (FEMALE_SPEAKERS.has(key)) gender = 'female';
  else if (MALE_SPEAKERS.has(key)) gender = 'male';
  else if (/^[A-Z0-9]$/.test(speaker) && EN_US_LETTER_GENDER[speaker]) gender = EN_US_LETTER_GENDER[speaker];
  else if (/female|woman|^f$/i.test(speaker)) gender = 'female';
  // The default voice keeps espeak's plain voice; others get a stable variant so different names sound different.
  const variants = gender === 'female' ? FEMALE_VARIANTS : MALE_VARIANTS;
  const variant = key === 'charon' ? '' : variants[hash(key) % variants.length];
  return { espeakVoice: `${lang}${variant}`, gender };
}
