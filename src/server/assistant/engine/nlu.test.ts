// Training the assistant's NLU prints nothing: node-nlp is told by its own options not to log its epochs, and the
// global console is left alone (run in a child process, so anything written to stdout or stderr is seen). A listening
// server trains it in a worker thread: the model it hands back answers like one trained in the server's thread.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { managerFromModel, modelFromWorker, nluReady } from './nlu.js';

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

/**
 * Runs `work` and answers how long this thread went without running a 10 ms timer at most (including up to the end
 * of the work): a thread blocked the whole time shows the whole time, which a sampling histogram would not record.
 */
async function longestStall<T>(work: () => Promise<T>): Promise<{ value: T; stallMs: number; totalMs: number }> {
  const started = performance.now();
  let last = started;
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 10);
  try {
    const value = await work();
    const end = performance.now();
    return { value, stallMs: Math.max(stallMs, end - last), totalMs: end - started };
  } finally {
    clearInterval(timer);
  }
}

it('trains in a worker thread for a listening server: this thread keeps answering meanwhile, and the model answers the same', async () => {
  // Training in this thread, for comparison: it stalls the thread the whole time.
  const here = await longestStall(() => nluReady());
  expect(here.stallMs).toBeGreaterThan(here.totalMs / 2);
  // Off the thread: this thread runs its timers all along.
  const off = await longestStall(() => modelFromWorker());
  // However busy the machine (it slows both alike), the longest stall is a fraction of the training here.
  expect(off.stallMs).toBeLessThan(here.stallMs / 2);

  const loaded = managerFromModel(off.value);
  for (const text of [
    'I want to apply for leave',
    'book the board room tomorrow at 10',
    'what is waiting for my approval?',
    'my laptop screen is broken',
  ]) {
    const [a, b] = [await loaded.process('en', text), await here.value.process('en', text)];
    expect({ intent: a.intent, score: a.score }, text).toEqual({ intent: b.intent, score: b.score });
    expect(
      a.entities.map((e: any) => e.option),
      text,
    ).toEqual(b.entities.map((e: any) => e.option));
  }
}, 120_000);
