// The assistant's acceptance dialogues: every dialogue of the project's copy of shared/assistant/dialogues.json
// (fixtures/dialogues.json; `npm run check:shared` compares it with the original) and the project's own
// held-out-style set (fixtures/dialogues-extra.json, different wording), each run through the HTTP API with the
// runner of the file's 'about'. Prints the pass rate. The results never depend on the shared folder being there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, startTestApp } from '../test/harness.js';
import { type Dialogue, type DialogueResult, runDialogue } from './testing/dialogue-runner.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, 'fixtures/dialogues.json');
const sharedSet: { dialogues: Dialogue[] } = JSON.parse(readFileSync(fixture, 'utf8'));

describe('the dialogue fixture', () => {
  it('holds the acceptance dialogues', () => {
    expect(sharedSet.dialogues.length).toBeGreaterThan(10);
    expect(new Set(sharedSet.dialogues.map((d) => d.id)).size).toBe(sharedSet.dialogues.length);
  });
});
const extraSet: { dialogues: Dialogue[] } = JSON.parse(readFileSync(path.join(here, 'fixtures/dialogues-extra.json'), 'utf8'));

function report(name: string, results: DialogueResult[]) {
  const passed = results.filter((r) => r.ok).length;
  const lines = [`${name}: ${passed}/${results.length} dialogues passed (${Math.round((passed / Math.max(1, results.length)) * 100)}%)`];
  for (const r of results.filter((x) => !x.ok)) {
    lines.push(`  ✗ ${r.id}: ${r.problems.join('; ')}`);
    for (const turn of r.transcript) lines.push(`      user: ${turn.user}\n      bot:  ${turn.bot.replace(/\n/g, ' | ')}`);
  }
  console.log(lines.join('\n'));
}

for (const [name, set] of [
  ['shared dialogues', sharedSet],
  ['own held-out dialogues', extraSet],
] as const) {
  describe(name, () => {
    let t: TestApp;
    const results: DialogueResult[] = [];
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => {
      report(name, results);
      await t?.close();
    });

    for (const d of set.dialogues) {
      it(d.id, async () => {
        const r = await runDialogue(t, d);
        results.push(r);
        expect(r.problems, r.transcript.map((x) => `${x.user} => ${x.bot}`).join('\n')).toEqual([]);
      });
    }
  });
}
