// The project's own set of conversations written in new words (fixtures/dialogues-wild.json): a realistic mix of
// questions about existing requests, submissions, corrections, abandoning and approver work. Runs each through
// the HTTP API (testing/dialogue-runner.ts), prints the pass rate, requires at least 95 % overall and every
// dialogue of the safety categories (a question never creates a request, stored text is the typed text,
// a correction changes only its field, abandoning leaves nothing behind).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { type Dialogue, type DialogueResult, runDialogue } from './testing/dialogue-runner.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const set: { dialogues: Dialogue[] } = JSON.parse(readFileSync(path.join(here, 'fixtures/dialogues-wild.json'), 'utf8'));

/** WILD_ONLY=<regexp of ids> runs a part of the set while working on it (the rate tests then fail). */
const only = process.env.WILD_ONLY ? new RegExp(process.env.WILD_ONLY) : undefined;

function report(results: DialogueResult[]): string {
  const passed = results.filter((r) => r.ok).length;
  const lines = [`wild dialogues: ${passed}/${results.length} passed (${((passed / Math.max(1, results.length)) * 100).toFixed(1)}%)`];
  for (const r of results.filter((x) => !x.ok)) {
    lines.push(`  ✗ ${r.id}: ${r.problems.join('; ')}`);
    for (const turn of r.transcript) lines.push(`      user: ${turn.user}\n      bot:  ${turn.bot.replace(/\n/g, ' | ')}`);
  }
  return lines.join('\n');
}

describe('the wild dialogue set', () => {
  let t: TestApp;
  const results = new Map<string, DialogueResult>();
  beforeAll(async () => {
    t = await startTestApp();
    const clients = new Map<string, ApiClient>();
    for (const d of set.dialogues) if (!only || only.test(d.id)) results.set(d.id, await runDialogue(t, d, clients));
    console.log(report([...results.values()]));
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  const failed = (pick: (d: Dialogue) => boolean) =>
    set.dialogues.filter(pick).flatMap((d) => (results.get(d.id)?.ok ? [] : [`${d.id}: ${results.get(d.id)?.problems.join('; ')}`]));

  it('has at least 200 dialogues with distinct ids, for employees and every approver role', () => {
    expect(set.dialogues.length).toBeGreaterThanOrEqual(200);
    expect(new Set(set.dialogues.map((d) => d.id)).size).toBe(set.dialogues.length);
    const users = new Set(set.dialogues.map((d) => d.user.split('@')[0]));
    for (const who of ['alex.johnson', 'priya.sharma', 'meera.iyer', 'arjun.mehta', 'sofia.rossi', 'kenji.watanabe', 'lena.fischer'])
      expect(users).toContain(who);
  });

  it('passes at least 95 %', () => {
    const passed = [...results.values()].filter((r) => r.ok).length;
    expect(passed / set.dialogues.length, report([...results.values()])).toBeGreaterThanOrEqual(0.95);
  });

  it('never creates a request for a question about requests', () => {
    expect(failed((d) => d.id.startsWith('q-') || d.expect.creates_nothing === true)).toEqual([]);
  });

  it('stores text exactly as typed (fields and rejection reasons)', () => {
    expect(failed((d) => !!d.expect.creates?.exact || !!d.expect.creates?.contains || d.expect.decided?.reason !== undefined)).toEqual([]);
  });

  it('changes only the corrected field', () => {
    expect(failed((d) => /correct/.test(d.id))).toEqual([]);
  });

  it('abandons a form or a decision at every step', () => {
    expect(failed((d) => d.id.startsWith('a-') || /abandon/.test(d.id))).toEqual([]);
  });
});
