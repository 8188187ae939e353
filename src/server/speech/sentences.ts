// Turns streamed reply text into speakable sentences: an incremental splitter that reports each sentence with its
// position in the whole reply (what tts_chunk's text_start/text_end refer to), and the clean-up of markdown and emoji.

export interface Sentence {
  /** The sentence as it appears in the reply. */
  text: string;
  /** What is spoken: markdown, links and emoji removed. */
  speakable: string;
  /** Offsets in the whole reply (UTF-16 code units, as String.length counts): [start, end). */
  start: number;
  end: number;
}

/** Markdown markers, link syntax, URLs and emoji out; whitespace collapsed. */
export function speakableText(text: string): string {
  return (
    text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // [label](url) -> label
      .replace(/\[([^\]]+)\]/g, '$1') // [View Approvals] -> View Approvals
      .replace(/https?:\/\/\S+/g, 'link')
      .replace(/^\s{0,3}(?:#{1,6}|>|[-*+•]|\d+[.)])\s+/gm, '') // headings, quotes, bullets, numbered items
      .replace(/(\*\*|__|\*|`+|~~)/g, '')
      .replace(/_/g, ' ') // _emphasis_ and snake_case alike read better as words
      // The class lists emoji modifiers, joiners and control characters one by one on purpose: each is removed alone.
      // eslint-disable-next-line no-misleading-character-class
      .replace(/[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}\uFE0F\u200D\u20E3]/gu, '')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'no',
  'approx',
  'dept',
  'inc',
  'ltd',
  'co',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
  'a.m',
  'p.m',
  'fig',
]);
const TERMINATORS = '.!?…';
const CLOSERS = '"\'”’)]*_';

export interface SplitterOptions {
  /** A pending sentence longer than this is cut at a clause or word break (default 240). */
  maxLength?: number;
}

/**
 * Incremental sentence splitter. push() the streamed pieces; it returns the sentences completed so far, each once,
 * in order. finish() returns the rest. A sentence ends at . ! ? … (plus closing quotes/brackets) followed by
 * whitespace, or at a line break; abbreviations, initials and list numbers do not end one.
 */
export class SentenceSplitter {
  private text = '';
  private cursor = 0; // start of the text not yet emitted
  private scanned = 0; // characters already examined for boundaries
  private readonly maxLength: number;

  constructor(opts: SplitterOptions = {}) {
    this.maxLength = opts.maxLength ?? 240;
  }

  /** The whole text pushed so far. */
  get fullText(): string {
    return this.text;
  }

  push(piece: string): Sentence[] {
    this.text += piece;
    const out: Sentence[] = [];
    // The last character cannot be judged until we see what follows it.
    while (this.scanned < this.text.length - 1) {
      const i = this.scanned;
      this.scanned += 1;
      const end = this.boundaryEndingAt(i);
      if (end !== null) this.emit(end, out);
    }
    this.cutIfTooLong(out);
    return out;
  }

  finish(): Sentence[] {
    const out: Sentence[] = [];
    this.scanned = this.text.length;
    this.emit(this.text.length, out);
    return out;
  }

  /** If position i ends a sentence (i.e. i is the whitespace after it or a line break), the sentence's end offset. */
  private boundaryEndingAt(i: number): number | null {
    const ch = this.text[i];
    if (ch === '\n') return i;
    if (!/\s/.test(ch)) return null;
    let j = i - 1;
    while (j >= this.cursor && CLOSERS.includes(this.text[j])) j -= 1;
    if (j < this.cursor || !TERMINATORS.includes(this.text[j])) return null;
    if (this.text[j] === '.' && this.isNonFinalDot(j)) return null;
    return i;
  }

  /** A dot after an abbreviation, a single initial, or a list number at the start of a line is not a sentence end. */
  private isNonFinalDot(dot: number): boolean {
    let k = dot - 1;
    while (k >= this.cursor && /[\p{L}\p{N}.]/u.test(this.text[k])) k -= 1;
    const word = this.text.slice(k + 1, dot);
    if (word === '') return false;
    if (ABBREVIATIONS.has(word.toLowerCase())) return true;
    if (/^\p{Lu}$/u.test(word)) return true; // initials: "J. Smith"
    if (/^\d+$/.test(word)) {
      const before = this.text.slice(this.cursor, k + 1);
      if (before.trim() === '') return true; // "1. First item"
    }
    return false;
  }

  private cutIfTooLong(out: Sentence[]): void {
    while (this.text.length - this.cursor > this.maxLength) {
      const window = this.text.slice(this.cursor, this.cursor + this.maxLength);
      let cut = -1;
      const clause = /[,;:–—]\s/g;
      for (let m = clause.exec(window); m; m = clause.exec(window)) if (m.index > 40) cut = m.index + 1;
      if (cut < 0) cut = window.lastIndexOf(' ');
      if (cut <= 0) cut = window.length;
      this.emit(this.cursor + cut, out);
      this.scanned = Math.max(this.scanned, this.cursor);
    }
  }

  private emit(end: number, out: Sentence[]): void {
    const raw = this.text.slice(this.cursor, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    const start = this.cursor + lead;
    this.cursor = end;
    if (trimmed === '') return;
    const speakable = speakableText(trimmed);
    if (speakable === '' || !/[\p{L}\p{N}]/u.test(speakable)) return; // nothing to say (emoji, punctuation)
    out.push({ text: trimmed, speakable, start, end: start + trimmed.length });
  }
}

/** All sentences of a complete text, as the streaming splitter would give them. */
export function splitSentences(text: string, opts?: SplitterOptions): Sentence[] {
  const s = new SentenceSplitter(opts);
  return [...s.push(text), ...s.finish()];
}
