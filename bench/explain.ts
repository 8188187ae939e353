// EXPLAIN (ANALYZE, BUFFERS) of every statement each benchmarked read endpoint runs (captured from the app
// itself, so it is the real SQL with real parameters), on the scale database: where a target is missed,
// this shows why.
//   npx tsx bench/explain.ts [--requests 1000000] [--only hr_queue,it_queue] [--query status=Rejected]
//   npx tsx bench/explain.ts --mixed [--sample 20] [--plans]   # the mixed load's reads: database time per call
import pg from 'pg';
import { startCapturer } from './capture.js';
import { benchDatabaseName, benchServerUrl, flags, intFlag, withDatabase } from './common.js';
import { readEndpoints } from './endpoints.js';
import { Cursor, READ_OPS, callFor, planMixed } from './mixed.js';

const f = flags();
const url = withDatabase(benchServerUrl(), f.get('database') ?? benchDatabaseName(intFlag(f, 'requests', 1_000_000)));
const only = f.get('only')?.split(',');
const pool = new pg.Pool({ connectionString: url, max: 2 });
const cap = await startCapturer(url);
try {
  if (f.has('mixed')) await explainMixed();
  else
    for (const ep of await readEndpoints(pool)) {
      if (only && !only.includes(ep.key)) continue;
      const extra = f.get('query');
      const statements = await cap.capture(
        ep.token,
        extra ? `${ep.paths[0]}${ep.paths[0].includes('?') ? '&' : '?'}${extra}` : ep.paths[0],
      );
      for (const [i, st] of statements.entries()) {
        await pool.query(st.text, st.values as any[]); // warm
        const plan = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${st.text}`, st.values as any[]);
        const lines = plan.rows.map((r) => r['QUERY PLAN']);
        console.log(
          `\n==== ${ep.key} #${i + 1}  ${lines[lines.length - 1]}\n${st.text.trim()}\n-- params ${JSON.stringify(st.values)}\n${lines.join('\n')}`,
        );
      }
    }
} finally {
  await cap.close();
  await pool.query("DELETE FROM sessions WHERE user_id IN (SELECT id FROM users WHERE email LIKE '%@bench.test')").catch(() => undefined);
  await pool.end();
}
await pool
  .query(
    "DELETE FROM sessions WHERE created_at > now() - interval '1 hour' AND user_id IN (SELECT id FROM users WHERE email LIKE '%@bench.test')",
  )
  .catch(() => undefined);

/**
 * For each read of the mixed load: a sample of calls (the people and requests the load picks), each call's
 * statements run under EXPLAIN ANALYZE; prints the statements per call, the database's execution and planning time
 * per call (median over the sample) and the buffers touched; --plans prints the plan of each op's slowest statement.
 */
async function explainMixed() {
  const plan = await planMixed(pool, intFlag(f, 'people', 1000));
  const sample = intFlag(f, 'sample', 20);
  const cursor = new Cursor();
  for (const op of READ_OPS) {
    if (only && !only.includes(op)) continue;
    const perCall: Array<{ exec: number; planning: number; hit: number; read: number; n: number }> = [];
    let slowest = { ms: -1, text: '', values: [] as unknown[] };
    for (let k = 0; k < sample; k += 1) {
      const call = callFor(plan, op, cursor)!;
      const statements = await cap.capture(call.token, call.path, 'GET', undefined, { 'cache-control': 'no-cache' });
      const sum = { exec: 0, planning: 0, hit: 0, read: 0, n: statements.length };
      for (const st of statements) {
        const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${st.text}`, st.values as any[]);
        const j = r.rows[0]['QUERY PLAN'][0];
        sum.exec += j['Execution Time'];
        sum.planning += j['Planning Time'];
        sum.hit += j.Plan['Shared Hit Blocks'] ?? 0;
        sum.read += j.Plan['Shared Read Blocks'] ?? 0;
        if (j['Execution Time'] > slowest.ms) slowest = { ms: j['Execution Time'], text: st.text.trim(), values: st.values };
      }
      perCall.push(sum);
    }
    const med = (k: keyof (typeof perCall)[number]) => perCall.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(perCall.length / 2)];
    console.log(
      `${op.padEnd(16)} ${String(med('n')).padStart(3)} statements  exec ${med('exec').toFixed(2).padStart(7)} ms  planning ${med('planning').toFixed(2).padStart(6)} ms  buffers hit ${med('hit')} read ${med('read')}  (median of ${sample})`,
    );
    if (f.has('plans')) {
      const p = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${slowest.text}`, slowest.values as any[]).catch(() => null);
      console.log(`   slowest (${slowest.ms.toFixed(2)} ms): ${slowest.text.replace(/\s+/g, ' ').slice(0, 600)}`);
      if (p) console.log(p.rows.map((r) => '     ' + r['QUERY PLAN']).join('\n'));
    }
  }
}
