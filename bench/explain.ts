// EXPLAIN (ANALYZE, BUFFERS) of every statement each benchmarked read endpoint runs (captured from the app
// itself, so it is the real SQL with real parameters), on the scale database: where a target is missed,
// this shows why.
//   npx tsx bench/explain.ts [--requests 1000000] [--only hr_queue,it_queue] [--query status=Rejected]
import pg from 'pg';
import { startCapturer } from './capture.js';
import { benchDatabaseName, benchServerUrl, flags, intFlag, withDatabase } from './common.js';
import { readEndpoints } from './endpoints.js';

const f = flags();
const url = withDatabase(benchServerUrl(), f.get('database') ?? benchDatabaseName(intFlag(f, 'requests', 1_000_000)));
const only = f.get('only')?.split(',');
const pool = new pg.Pool({ connectionString: url, max: 2 });
const cap = await startCapturer(url);
try {
  for (const ep of await readEndpoints(pool)) {
    if (only && !only.includes(ep.key)) continue;
    const extra = f.get('query');
    const statements = await cap.capture(ep.token, extra ? `${ep.paths[0]}${ep.paths[0].includes('?') ? '&' : '?'}${extra}` : ep.paths[0]);
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
  await pool.end();
}
await pool
  .query(
    "DELETE FROM sessions WHERE created_at > now() - interval '1 hour' AND user_id IN (SELECT id FROM users WHERE email LIKE '%@bench.test')",
  )
  .catch(() => undefined);
