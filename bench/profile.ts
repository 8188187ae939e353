// A CPU profile of the production server under load on one endpoint (or decisions): the server runs with
// --cpu-prof while the lean HTTP load (lean-http.ts) runs against it, then the heaviest functions (self time) are
// printed; the .cpuprofile file opens in Chrome DevTools. Decisions are put back afterwards.
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
      await httpLoad('decisions', {
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
      const fig = await mixedHttp(plan, server.url, [server.url], load, intFlag(f, 'seconds', 20));
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
      await httpLoad('assistant', {
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
    );
    await server.stop();
  } else {
    const ep = (await readEndpoints(pool)).find((e) => e.key === which);
    if (!ep) throw new Error(`unknown endpoint ${which}`);
    let i = 0;
    console.log(
      await httpLoad(ep.key, {
        url: server.url + ep.paths[0],
        headers: { authorization: `Bearer ${ep.token}`, ...ep.headers },
        connections: 50,
        seconds: 8,
        next: ep.paths.length > 1 ? () => ({ path: ep.paths[i++ % ep.paths.length] }) : undefined,
      }),
    );
    await server.stop();
  }
} finally {
  await server.stop();
  await pool.end();
}

const file = readdirSync(dir).find((x) => x.endsWith('.cpuprofile'))!;
const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
const byId = new Map<number, any>(prof.nodes.map((n: any) => [n.id, n]));
const self = new Map<string, number>();
prof.samples.forEach((id: number, k: number) => {
  const n = byId.get(id);
  const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/.*node_modules\//, '').replace(/^file:\/\/.*?\/src\//, 'src/')}:${n.callFrame.lineNumber}`;
  self.set(key, (self.get(key) ?? 0) + (prof.timeDeltas[k] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [k, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
console.log(`\nprofile: ${path.join(dir, file)} (whole server life, start-up included)`);
