// A CPU profile of the production server under load on one endpoint (or decisions): the server runs with
// --cpu-prof while the lean HTTP load (lean-http.ts) runs against it, then the main thread's busy time during the
// load is printed by activity (the pg client's reading and writing, the HTTP write, GC, serialising, building records,
// ...) and by function (self time); the .cpuprofile file opens in Chrome DevTools. Decisions are put back afterwards.
//   npx tsx bench/profile.ts details        # user_forms, manager_queue, hr_queue, ..., details, decisions, assistant,
//                                           # mixed (the mixed load of mixed.ts, 20 s, put back afterwards)
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchDatabaseName, benchServerUrl, flags, intFlag, scaleEmail, withDatabase } from './common.js';
import { pendingPool, readEndpoints, sessionsFor, sessionsForIds } from './endpoints.js';
import { httpLoad } from './measure.js';
import { mixedHttp, planMixed, restore, snapshot } from './mixed.js';
import { catchUpReminders, startServer } from './server.js';

const which = process.argv[2] ?? 'details';
const f = flags(process.argv.slice(3));
const url = withDatabase(benchServerUrl(), f.get('database') ?? benchDatabaseName(intFlag(f, 'requests', 1_000_000)));
const dir = path.join(os.tmpdir(), 'adminease-bench-profile');
rmSync(dir, { recursive: true, force: true });
const pool = new pg.Pool({ connectionString: url, max: 4 });
// The load's window on the monotonic clock, which the profile's timestamps share (CLOCK_MONOTONIC on Linux), so the
// summary counts the samples of the load only, not the server's start-up or shutdown.
const monoUs = () => Number(process.hrtime.bigint() / 1000n);
const window = { from: 0, to: Number.POSITIVE_INFINITY };
async function during<T>(run: () => Promise<T>): Promise<T> {
  window.from = monoUs();
  try {
    return await run();
  } finally {
    window.to = monoUs();
  }
}
await catchUpReminders(url);
const server = await startServer({
  databaseUrl: url,
  webDir: path.join(os.tmpdir(), 'adminease-bench-web'),
  logLevel: 'warn',
  poolMax: 20,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
try {
  if (which === 'decisions') {
    const before = Number((await pool.query('SELECT coalesce(max(id), 0) AS m FROM request_events')).rows[0].m);
    const p = await pendingPool(pool, 20_000);
    const tokens = await sessionsForIds(pool, [...new Set(p.map((x) => x.line_manager_id))]);
    let i = 0;
    console.log(
      await during(() =>
        httpLoad('decisions', {
          url: `${server.url}/api/manager/update-status`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          connections: 50,
          seconds: 8,
          next: () => {
            const x = p[i++ % p.length];
            return {
              path: '/api/manager/update-status',
              headers: { authorization: `Bearer ${tokens.get(x.line_manager_id)}` },
              body: JSON.stringify({ form_id: x.request_id, form_type: x.form_type, status: 'Approved' }),
            };
          },
        }),
      ),
    );
    await server.stop();
    const d = await pool.query(`SELECT DISTINCT request_pk FROM request_events WHERE id > $1 AND event_type = 'decision'`, [before]);
    const pks = d.rows.map((r) => r.request_pk);
    await pool.query(
      `UPDATE approvals SET decision = 'Pending', signer_id = NULL, signer_name = NULL, decided_at = NULL, rejection_reason = NULL, comments = NULL WHERE request_pk = ANY($1) AND stage = 'line_manager'`,
      [pks],
    );
    await pool.query(`UPDATE requests SET status = 'Pending', current_stage = 'line_manager', updated_at = created_at WHERE id = ANY($1)`, [
      pks,
    ]);
    await pool.query('DELETE FROM notifications WHERE request_pk = ANY($1) AND event_id > $2', [pks, before]);
    await pool.query('DELETE FROM request_events WHERE id > $1 AND request_pk = ANY($2)', [before, pks]);
  } else if (which === 'mixed') {
    const plan = await planMixed(pool, intFlag(f, 'people', 1000));
    const snap = await snapshot(pool, plan);
    try {
      const load = f.has('pace') ? { paced: intFlag(f, 'pace', 100) } : { closed: intFlag(f, 'connections', 50) };
      const fig = await during(() => mixedHttp(plan, server.url, [server.url], load, intFlag(f, 'seconds', 20)));
      console.log(
        JSON.stringify({ rps: fig.rps, errors: fig.errors, lastError: fig.lastError, cache: fig.cache, kinds: fig.kinds }, null, 1),
      );
    } finally {
      await server.stop();
      await restore(pool, snap);
    }
  } else if (which === 'assistant') {
    // 20 employees chatting at once (the bench's messages), each in its own assistant session
    const s = [
      ...(
        await sessionsFor(
          pool,
          Array.from({ length: 20 }, (_, k) => scaleEmail('employee', k + 1)),
        )
      ).values(),
    ];
    const chats: Array<{ token: string; id: number; session: string }> = [];
    for (const e of s) {
      const r = await fetch(`${server.url}/ai/simple/session/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${e.token}` },
        body: JSON.stringify({ user_id: e.id, user_role: 'Employee' }),
      });
      chats.push({ token: e.token, id: e.id, session: (await r.json()).session_id });
    }
    const messages = [
      'How many leave days do I have left?',
      'Show my pending requests',
      'I need a laptop charger',
      'What is the status of my last request?',
      'hello',
    ];
    let i = 0;
    console.log(
      await during(() =>
        httpLoad('assistant', {
          url: `${server.url}/ai/streaming-chat`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          connections: 20,
          seconds: 8,
          next: () => {
            const c = chats[i % chats.length];
            const message = messages[i++ % messages.length];
            return {
              path: '/ai/streaming-chat',
              headers: { authorization: `Bearer ${c.token}`, 'x-session-id': c.session },
              body: JSON.stringify({ message, stream: true, sessionId: c.session, user_id: c.id, userInfo: {} }),
            };
          },
        }),
      ),
    );
    await server.stop();
  } else {
    const ep = (await readEndpoints(pool)).find((e) => e.key === which);
    if (!ep) throw new Error(`unknown endpoint ${which}`);
    let i = 0;
    console.log(
      await during(() =>
        httpLoad(ep.key, {
          url: server.url + ep.paths[0],
          headers: { authorization: `Bearer ${ep.token}`, ...ep.headers },
          connections: intFlag(f, 'connections', 50),
          seconds: 8,
          next: ep.paths.length > 1 ? () => ({ path: ep.paths[i++ % ep.paths.length] }) : undefined,
        }),
      ),
    );
    await server.stop();
  }
} finally {
  await server.stop();
  await pool.end();
}

// The main thread's profile (worker threads write their own files: .1.002, .2.003, ...).
const file = readdirSync(dir).find((x) => /\.0\.\d+\.cpuprofile$/.test(x)) ?? readdirSync(dir).find((x) => x.endsWith('.cpuprofile'))!;
const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const byId = new Map<number, any>(prof.nodes.map((n: any) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const frame = (n: any) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/dist\//, 'dist/')}:${n.callFrame.lineNumber}`;
/** The callers of a sample's function, innermost first. */
const stackOf = (id: number) => {
  const out: string[] = [];
  for (let p = parent.get(id); p !== undefined && out.length < 40; p = parent.get(p)) out.push(frame(byId.get(p)));
  return out;
};
/**
 * What a sample was doing, by its function and callers: the pg client's row parsing and its query writes (the raw
 * path does both too), the HTTP answer's write, garbage collection, serialising, building records, the rest.
 */
function activity(n: any, stack: string[]): string {
  const fn = n.callFrame.functionName;
  const url = n.callFrame.url as string;
  const up = stack.join(' < ');
  if (fn === '(garbage collector)') return 'garbage collection';
  if (fn === 'writev' || fn === 'writeUtf8String' || fn === 'writeBuffer' || fn === 'writeLatin1String')
    return /pg\/lib\/(query|client)/.test(up) ? 'pg client: writing queries' : 'writing HTTP answers';
  if (
    /pg\/lib\/|pg-protocol|pg-types|pg-pool/.test(url) ||
    (/^(utf8Slice|slice|toString)$/.test(fn) && /pg\/lib|pg-protocol/.test(stack.slice(0, 4).join(' ')))
  )
    return 'pg client: reading rows';
  // JSON.stringify does not show as a frame of its own: its time is its caller's (Fastify's serialize, sendCachedJson).
  if (fn === 'serialize' || fn === 'sendCachedJson' || /fast-json-stringify/.test(url)) return 'serialising answers';
  if (/dist\/(server\/requests\/repo|domain\/)/.test(url)) return 'building records (toRecord, domain rules)';
  if (/fastify|find-my-way|avvio|light-my-request|zod/.test(url)) return 'Fastify and validation';
  if (/^node:(_http|net|internal\/(streams|stream_base|http))/.test(url)) return "Node's HTTP and sockets";
  if (/dist\/server\//.test(url)) return "the app's other code";
  return 'other';
}
const self = new Map<string, number>();
const byActivity = new Map<string, number>();
let busy = 0;
let t = prof.startTime as number;
prof.samples.forEach((id: number, k: number) => {
  t += prof.timeDeltas[k] ?? 0;
  if (t < window.from || t > window.to) return;
  const n = byId.get(id);
  if (n.callFrame.functionName === '(idle)') return;
  const us = prof.timeDeltas[k] ?? 0;
  busy += us;
  self.set(frame(n), (self.get(frame(n)) ?? 0) + us);
  const a = activity(n, stackOf(id));
  byActivity.set(a, (byActivity.get(a) ?? 0) + us);
});
const pct = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)} %`;
console.log(
  `busy: ${(busy / 1000).toFixed(0)} ms of the load's ${((Math.min(window.to, t) - window.from) / 1e6).toFixed(1)} s (idle left out)`,
);
for (const [k, us] of [...byActivity.entries()].sort((a, b) => b[1] - a[1])) console.log(`${pct(us)}  ${k}`);
console.log('');
for (const [k, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${pct(us)}  ${k}`);
console.log(`\nprofile: ${path.join(dir, file)} (the whole server life; the figures above are the load's)`);
