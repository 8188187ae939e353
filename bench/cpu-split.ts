// Where the CPU of one read goes: the server (HTTP, checks, JSON), PostgreSQL and the load generator, per call,
// while autocannon loads the server, and while the same statements are replayed through pg (the raw path of
// run.ts, which prints the same split for its read rows). Linux only.
//   npx tsx bench/cpu-split.ts details          # or user_forms_fresh, manager_queue, ... (readEndpoints keys)
//   npx tsx bench/cpu-split.ts details --pool 6 --seconds 8
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Statement, replay, startCapturer } from './capture.js';
import { benchDatabaseName, benchServerUrl, flags, intFlag, withDatabase } from './common.js';
import { type CpuPerCall, withCpu } from './cpu.js';
import { readEndpoints } from './endpoints.js';
import { httpLoad, loop } from './measure.js';
import { startServer } from './server.js';

const which = process.argv[2] ?? 'details';
const f = flags(process.argv.slice(3));
const seconds = intFlag(f, 'seconds', 8);
const poolMax = intFlag(f, 'pool', 20);
const url = withDatabase(benchServerUrl(), f.get('database') ?? benchDatabaseName(intFlag(f, 'requests', 1_000_000)));

const line = (label: string, fig: { rps: number; cpu?: CpuPerCall }) =>
  console.log(
    `${label.padEnd(5)} ${fig.rps.toFixed(0).padStart(6)} calls/s | µs of CPU per call: load ${fig.cpu?.load}, server ${fig.cpu?.server}, postgres ${fig.cpu?.postgres}, other ${fig.cpu?.other}`,
  );

const pool = new pg.Pool({ connectionString: url, max: 4 });
const server = await startServer({ databaseUrl: url, webDir: path.join(os.tmpdir(), 'adminease-bench-web'), logLevel: 'warn', poolMax });
try {
  const ep = (await readEndpoints(pool)).find((e) => e.key === which);
  if (!ep) throw new Error(`unknown endpoint ${which}`);
  let i = 0;
  const http = () =>
    httpLoad(ep.key, {
      url: server.url + ep.paths[0],
      headers: { authorization: `Bearer ${ep.token}`, ...ep.headers },
      connections: 50,
      seconds,
      next: ep.paths.length > 1 ? () => ({ path: ep.paths[i++ % ep.paths.length] }) : undefined,
    });
  await http(); // warm-up
  line('http', await withCpu([server.child.pid!], http));
  const cap = await startCapturer(url);
  const plans: Statement[][] = [];
  for (const p of ep.paths) plans.push(await cap.capture(ep.token, p, 'GET', undefined, { 'cache-control': 'no-cache' }));
  await cap.close();
  const raw = new pg.Pool({ connectionString: url, max: poolMax });
  const op = async (n: number) => {
    for (const st of plans[n % plans.length]) await replay(raw, st);
  };
  await loop('raw', 50, 2, op);
  line('raw', await withCpu([server.child.pid!], () => loop('raw', 50, seconds, op)));
  await raw.end();
} finally {
  await server.stop();
  await pool.end();
}
