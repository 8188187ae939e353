// Text that PostgreSQL cannot store or that is not Unicode at all, anywhere in the path, query or JSON body
// (keys and values, at any depth): a NUL character (U+0000), or a lone UTF-16 surrogate ('x\ud800y', which
// JSON allows as an escape but which is no character; jsonb refuses it and text would silently change).
// Refused for every route with 400 before any handler runs (otherwise the first query that sees it fails and
// the caller gets a 500).
import type { FastifyInstance } from 'fastify';
import { badRequest } from '../http/errors.js';

export const NUL_MESSAGE = 'Text must not contain NUL (\\u0000) characters';
export const SURROGATE_MESSAGE = 'Text must be valid Unicode (no unpaired surrogate characters such as \\ud800)';

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The problem with one string, or null. */
function textProblem(s: string): string | null {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(s)) return SURROGATE_MESSAGE;
  return null;
}

/** The first string or key of `v` (at any depth, walked without recursion) for which `check` gives a result. */
function firstIn(v: unknown, check: (s: string) => string | null): string | null {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x === 'string') {
      const p = check(x);
      if (p) return p;
    } else if (Array.isArray(x)) {
      for (const y of x) stack.push(y);
    } else if (x !== null && typeof x === 'object') {
      for (const [k, y] of Object.entries(x)) {
        const p = check(k);
        if (p) return p;
        stack.push(y);
      }
    }
  }
  return null;
}

/** The first problem with a string, key or nested value of `v`, or null. */
export const badTextIn = (v: unknown): string | null => firstIn(v, textProblem);

/** True when a string, key or nested value of `v` holds U+0000. */
export const containsNul = (v: unknown): boolean => firstIn(v, (s) => (s.includes('\u0000') ? NUL_MESSAGE : null)) !== null;

async function inputGuard(app: FastifyInstance) {
  // Before validation: the route's schema would otherwise answer first with a less precise message.
  app.addHook('preValidation', async (req) => {
    const problem = badTextIn(req.params) ?? badTextIn(req.query) ?? badTextIn(req.body);
    if (problem) throw badRequest(problem);
  });
}

// Not encapsulated: the hook guards the routes of every feature registered after it.
(inputGuard as any)[Symbol.for('skip-override')] = true;

export default inputGuard;
