// Requests named by description ('the one about the printer toner', 'the Zagreb trip'): the words of the
// description that can name a request, and the requests that share the most (rarer words weigh more).
import { FORM_TYPE_WORDS } from '../corpus/entities.js';

/** Words that name a kind of request ('trip', 'leave'): the kind is matched separately, not as a description. */
const TYPE_WORDS = new Set(
  Object.values(FORM_TYPE_WORDS)
    .flat()
    .flatMap((w) => w.toLowerCase().split(/\s+/)),
);

const DESCRIPTION_STOP = new Set(
  (
    'the a an one ones that this those these it its about for from with and or to of on in at by my his her their our your ' +
    'approve reject decline deny refuse sign off okay ok please pls request requests thing stuff item which wanted want ' +
    'one yes no not just only also please can you could would i me we us is was are be been'
  ).split(' '),
);

/** The words of a description that can name a request ('the one about the printer toner' -> printer, toner). */
export function descriptionWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]+/g) ?? [])
    .map((w) => w.replace(/'s$/, ''))
    .filter((w) => w.length >= 3 && !DESCRIPTION_STOP.has(w) && !TYPE_WORDS.has(w));
}

/** The records whose values share the most description words (none when no word matches). */
export function bestByDescription<T extends object>(rows: T[], words: string[]): T[] {
  if (words.length === 0) return [];
  const texts = rows.map((r) => JSON.stringify(Object.values(r)).toLowerCase());
  const hits = words.map((w) => {
    const re = new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
    return texts.map((t) => re.test(t));
  });
  // a word few requests have ('Zagreb') says more than one many have ('trip')
  const weight = hits.map((h) => {
    const n = h.filter(Boolean).length;
    return n === 0 ? 0 : 1 / n;
  });
  const scores = rows.map((_, i) => hits.reduce((sum, h, w) => sum + (h[i] ? weight[w] : 0), 0));
  const top = Math.max(0, ...scores);
  return top === 0 ? [] : rows.filter((_, i) => Math.abs(scores[i] - top) < 1e-9);
}
