// `npm run check:shared` (scripts/check-shared.mjs): the one place the specification's shared folder is read. The
// suite itself uses only the project's copies, so its results do not depend on the folder; this checks the check,
// on a folder the test makes, so it too runs the same with or without ../shared.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COPIES, compareShared } from '../../scripts/check-shared.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A shared folder holding the originals as the project's copies are now. */
function sharedFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'adminease-shared-'));
  folders.push(dir);
  for (const { shared, copy } of COPIES) {
    mkdirSync(path.dirname(path.join(dir, shared)), { recursive: true });
    copyFileSync(path.join(ROOT, copy), path.join(dir, shared));
  }
  return dir;
}

function run(sharedDir: string): { code: number; output: string } {
  try {
    const out = execFileSync(process.execPath, ['scripts/check-shared.mjs'], {
      cwd: ROOT,
      env: { ...process.env, ADMINEASE_SHARED_DIR: sharedDir },
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { code: 0, output: out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, output: err.stdout + err.stderr };
  }
}

describe('npm run check:shared', () => {
  it('covers the demo organisation and the acceptance dialogues', () => {
    expect(COPIES.map((c) => c.copy).sort()).toEqual(['src/server/assistant/fixtures/dialogues.json', 'src/server/db/demo-org.json']);
  });

  it('passes when every copy equals its original (same JSON, whatever the formatting)', () => {
    const dir = sharedFolder();
    const seed = path.join(dir, 'seed/demo-org.json');
    writeFileSync(seed, JSON.stringify(JSON.parse(readFileSync(seed, 'utf8'))));
    expect(compareShared(dir)).toEqual([]);
    expect(run(dir)).toMatchObject({ code: 0, output: expect.stringContaining('2 copies equal') });
  });

  it('fails naming the copy that differs, or the original that is missing', () => {
    const dir = sharedFolder();
    const dialogues = path.join(dir, 'assistant/dialogues.json');
    const changed = JSON.parse(readFileSync(dialogues, 'utf8'));
    changed.dialogues.pop();
    writeFileSync(dialogues, JSON.stringify(changed));
    rmSync(path.join(dir, 'seed/demo-org.json'));
    const result = run(dir);
    expect(result.code).toBe(1);
    expect(result.output).toContain('src/server/assistant/fixtures/dialogues.json differs');
    expect(result.output).toContain('seed/demo-org.json is missing');
  });

  it('says so when there is no shared folder at all', () => {
    const result = run(path.join(os.tmpdir(), 'adminease-no-such-shared-folder'));
    expect(result.code).toBe(2);
    expect(result.output).toContain('no shared folder');
  });
});
