// `npm run bench:import`: the CSV import of issue 18 at its target size. Makes a database of its own on the bench
// PostgreSQL (BENCH_DATABASE_URL, default the local server), builds the app, signs an administrator in and posts a
// file of 10,000 people (100 team leads and 10 HR officers among them, managers named by code in the same file)
// to POST /api/admin/people/import, first as a dry run, then applied; prints each figure beside the 30 s target and
// drops the database.
import { hashPassword } from '../src/server/auth/service.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { migrate } from '../src/server/db/migrate.js';
import { createDb } from '../src/server/db/pool.js';
import { adminClient, benchServerUrl, elapsed, flags, intFlag, log, withDatabase } from './common.js';

const f = flags();
const ROWS = intFlag(f, 'rows', 10_000);
const TARGET_S = 30;
const NAME = 'adminease_bench_import';
// Not the published demo password: this app runs outside demo mode, where that one never signs anyone in.
const PASSWORD = `Bench-${Date.now()}!x`;

function csvOf(rows: number): string {
  const lines = [
    'email,first_name,last_name,employee_code,department,role,user_type,manager,hr_contact,join_date,annual_leave_total,active',
  ];
  const leads = Math.max(1, Math.floor(rows / 100));
  const hrs = Math.max(1, Math.floor(rows / 1000));
  for (let i = 0; i < hrs; i += 1) lines.push(`hr${i}@bench.test,Hana,Hr${i},BHR-${i},HR,HR Officer,hr_staff,,,2020-01-06,12,true`);
  for (let i = 0; i < leads; i += 1)
    lines.push(`lead${i}@bench.test,Leo,Lead${i},BLD-${i},ENG,Team Lead,line_manager,,BHR-${i % hrs},2020-02-03,12,true`);
  for (let i = 0; lines.length <= rows; i += 1)
    lines.push(
      `emp${i}@bench.test,Emma,Employee${i},BEM-${i},ENG,Software Engineer,employee,BLD-${i % leads},hr${i % hrs}@bench.test,2023-03-0${1 + (i % 9)},${12 + (i % 3)},true`,
    );
  return `${lines.join('\n')}\n`;
}

async function main() {
  const admin = await adminClient();
  await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${NAME}`);
  const url = withDatabase(benchServerUrl(), NAME);
  const db = createDb(url, 5);
  try {
    await migrate(db);
    await db.query(
      `INSERT INTO departments (code, name) VALUES ('ENG', 'Engineering'), ('HR', 'Human Resources'), ('EXE', 'Executive Office')`,
    );
    await db.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, department_code, employee_code)
       VALUES ('admin@bench.test', $1, 'Ada', 'Admin', 'System Administrator', 'admin', 'EXE', 'BADM-1')`,
      [await hashPassword(PASSWORD)],
    );
    const config = { ...loadConfig({ ...process.env, DATABASE_URL: url, ADMINEASE_DEMO: '0' }), databaseUrl: url, logLevel: 'warn' };
    const app = await buildApp({ db, config, logger: false });
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@bench.test', password: PASSWORD } });
    const token = login.json().access_token as string;
    const csv = csvOf(ROWS);
    log(`file: ${ROWS} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB`);
    const post = async (dryRun: boolean) => {
      const t0 = Date.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/admin/people/import${dryRun ? '?dry_run=1' : ''}`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        payload: csv,
      });
      const s = (Date.now() - t0) / 1000;
      if (res.statusCode !== 200) throw new Error(`import answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
      return { s, summary: res.json().summary };
    };
    const dry = await post(true);
    const applied = await post(false);
    const again = await post(false);
    const stored = (await db.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE '%@bench.test' AND manager_id IS NOT NULL`))
      .rows[0].n;
    const verdict = (s: number) => (s < TARGET_S ? 'ok' : 'OVER TARGET');
    console.log(`\nCSV import of ${ROWS} people (target: under ${TARGET_S} s)`);
    console.log(`  dry run              ${dry.s.toFixed(2)} s  ${verdict(dry.s)}  ${JSON.stringify(dry.summary)}`);
    console.log(`  applied              ${applied.s.toFixed(2)} s  ${verdict(applied.s)}  ${JSON.stringify(applied.summary)}`);
    console.log(`  same file again      ${again.s.toFixed(2)} s  ${verdict(again.s)}  ${JSON.stringify(again.summary)}`);
    console.log(`  people stored with a manager: ${stored}`);
    await app.close();
    if (applied.s >= TARGET_S || dry.s >= TARGET_S) process.exitCode = 1;
  } finally {
    await db.close().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await admin.end();
  }
}

const t0 = Date.now();
main()
  .then(() => log(`done in ${elapsed(t0)}`))
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
