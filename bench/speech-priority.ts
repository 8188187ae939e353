// How much speech synthesis delays the request thread, with the speech workers at a given nice value (issue 15: audio
// must not delay a reply's first text piece). Keeps both workers of a SpeechPool busy rendering long MP3s and meanwhile
// measures, on this thread, how late a 0 ms timer fires (every 20 ms): the wait a ready request (the first content
// write) has before the thread runs again. Rounds alternate so a change of the machine's load hits each setting alike.
//   npx tsx bench/speech-priority.ts [--seconds 8] [--rounds 2] [--nice 0,10,19]
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { SpeechPool } from '../src/server/speech/pool.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, rounds: { type: 'string' }, nice: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 8);
const ROUNDS = Number(values.rounds ?? 2);
const NICES = (values.nice ?? 'none,0,10,19').split(',');
const LONG = 'The quick brown fox jumps over the lazy dog. '.repeat(20);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function lateness(seconds: number): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 0));
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out.sort((a, b) => a - b);
}

async function round(nice: string): Promise<string> {
  if (nice === 'none') {
    const l = await lateness(SECONDS);
    return `no synthesis: timer lateness p50 ${pct(l, 50).toFixed(1)} ms, p95 ${pct(l, 95).toFixed(1)} ms, p99 ${pct(l, 99).toFixed(1)} ms`;
  }
  const pool = new SpeechPool({ size: 2, nice: Number(nice) });
  await Promise.all([pool.warm(), pool.warm()]);
  let stop = false;
  let clips = 0;
  const busy = async () => {
    while (!stop) {
      await pool.run({ text: LONG, espeakVoice: 'en-us', format: 'mp3' });
      clips += 1;
    }
  };
  const runners = [busy(), busy()];
  const l = await lateness(SECONDS);
  stop = true;
  await Promise.all(runners);
  await pool.close();
  return `workers at nice ${nice}: timer lateness p50 ${pct(l, 50).toFixed(1)} ms, p95 ${pct(l, 95).toFixed(1)} ms, p99 ${pct(l, 99).toFixed(1)} ms; ${clips} clips rendered`;
}

for (let r = 1; r <= ROUNDS; r += 1) for (const n of NICES) console.log(`round ${r}, ${await round(n)}`);
