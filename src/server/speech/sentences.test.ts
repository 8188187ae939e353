// The incremental sentence splitter and speakable-text clean-up used for streamed speech.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SentenceSplitter, speakableText, splitSentences } from './sentences.js';

describe('speakableText', () => {
  it('removes markdown markers, link syntax and emoji', () => {
    expect(speakableText('**Approved** by _Priya_ 👇 see [View Approvals]')).toBe('Approved by Priya see View Approvals');
    expect(speakableText('- first item\n2. second `code`')).toBe('first item second code');
    expect(speakableText('Open [the form](https://x.test/a) or https://y.test/b now ✅')).toBe('Open the form or link now');
    expect(speakableText('👋🏽 ✨')).toBe('');
  });
});

describe('SentenceSplitter', () => {
  it('splits on sentence ends and line breaks, with positions in the whole text', () => {
    const text = 'Hello Alex! Your leave request LR-000123 is approved. Anything else?\n- Book a room\n- Report an issue';
    const sentences = splitSentences(text);
    expect(sentences.map((s) => s.text)).toEqual([
      'Hello Alex!',
      'Your leave request LR-000123 is approved.',
      'Anything else?',
      '- Book a room',
      '- Report an issue',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(sentences[3].speakable).toBe('Book a room');
  });

  it('does not end a sentence at abbreviations, initials, decimals or list numbers', () => {
    const text = 'Bring e.g. your badge. Mr. J. Smith paid 12.50 USD today. 1. First step\n2. Second step';
    expect(splitSentences(text).map((s) => s.text)).toEqual([
      'Bring e.g. your badge.',
      'Mr. J. Smith paid 12.50 USD today.',
      '1. First step',
      '2. Second step',
    ]);
  });

  it('emits a sentence as soon as the character after its end arrives, never twice', () => {
    const s = new SentenceSplitter();
    expect(s.push('Hello there.')).toEqual([]); // the dot might still be part of "there.x"
    const first = s.push(' How');
    expect(first.map((x) => x.text)).toEqual(['Hello there.']);
    expect(s.push(' are you?')).toEqual([]);
    expect(s.finish().map((x) => x.text)).toEqual(['How are you?']);
    expect(s.finish()).toEqual([]);
  });

  it('skips pieces with nothing to say and cuts very long sentences at a clause', () => {
    expect(splitSentences('👇 \nGo to the panel.').map((s) => s.text)).toEqual(['Go to the panel.']);
    const long = `${'word '.repeat(20)}, ${'more '.repeat(80)}end.`;
    const parts = splitSentences(long, { maxLength: 120 });
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.text.length).toBeLessThanOrEqual(120);
  });

  it('gives the same sentences however the text is cut into streamed pieces', () => {
    const text = 'Hi Alex! Your request is pending. Mr. Lee will review it, e.g. tomorrow.\nThanks 👍 Bye.';
    const whole = splitSentences(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const s = new SentenceSplitter();
        const got = [];
        let prev = 0;
        for (const p of [...points, text.length]) {
          got.push(...s.push(text.slice(prev, p)));
          prev = p;
        }
        got.push(...s.finish());
        expect(got).toEqual(whole);
      }),
    );
  });
});
