// Training the assistant's NLU prints nothing: node-nlp is told by its own options not to log its epochs, and the
// global console is left alone (run in a child process, so anything written to stdout or stderr is seen).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');

it('trains without writing anything and without touching the global console', async () => {
  const script = [
    'const before = [console.log, console.info, console.warn, console.error];',
    "const { nluReady, classify, isNluTrained } = await import('./src/server/assistant/engine/nlu.ts');",
    'const trained = nluReady();',
    // While training runs, console.log is still the real one.
    'const during = console.log === before[0];',
    'await trained;',
    'const after = [console.log, console.info, console.warn, console.error].every((f, i) => f === before[i]);',
    "const r = await classify('I want to apply for leave');",
    'process.send({ during, after, trained: isNluTrained(), intent: r.intent });',
  ].join('\n');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    out += d;
  });
  let result: any;
  child.on('message', (m) => {
    result = m;
    child.disconnect();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, out).toBe(0);
  expect(result).toMatchObject({ during: true, after: true, trained: true });
  expect(typeof result.intent).toBe('string');
  expect(out, 'training printed something').toBe('');
}, 120_000);
