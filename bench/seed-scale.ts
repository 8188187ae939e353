// Scale seed for the benchmarks: a fresh database on the local PostgreSQL (adminease_bench, or
// adminease_bench_10k for --requests 10000; BENCH_DATABASE_URL names another server) with the app's
// migrations, the demo organisation, 10,000 more people in departments (directors, line managers, HR
// officers, finance, IT, facilities) and N requests (default 1,000,000) over every form type, state and three
// years, with their approval rows and events. Set-based SQL (generate_series, INSERT ... SELECT) with the
// secondary indexes built after the load: minutes, not hours.
//
//   npm run seed:scale                      # 1,000,000 requests into adminease_bench
//   npm run seed:scale -- --requests 10000  # 10,000 requests into adminease_bench_10k
//   flags: --requests N  --employees N  --years N  --database NAME  --subject-requests N (scale employee 1's own, default 100)
import { hashPassword } from '../src/server/auth/service.js';
import { type FieldDef, FORM_TYPES } from '../src/domain/forms.js';
import { migrate } from '../src/server/db/migrate.js';
import { type Db, createDb } from '../src/server/db/pool.js';
import { FormTypeInputSchema } from '../src/domain/form-types.js';
import { createFormType } from '../src/server/form-types/service.js';
import { submitForm } from '../src/server/forms/service.js';
import { loadUser } from '../src/server/people/service.js';
import { databaseLimits } from '../src/server/config.js';
import { seedDemo } from '../src/server/db/seed.js';
import {
  BENCH_PASSWORD,
  SCALE_ORG,
  adminClient,
  benchDatabaseName,
  benchServerUrl,
  elapsed,
  flags,
  intFlag,
  log,
  scaleEmail,
  withDatabase,
} from './common.js';

/** Share of each form type among the requests (percent). */
const TYPE_WEIGHTS: Record<string, number> = {
  'leave-request': 25,
  'travel-request': 5,
  'info-update': 3,
  'expense-reimbursement': 7,
  'it-access': 4,
  'employee-onboarding': 2,
  'exit-clearance': 1,
  'petty-cash': 5,
  'purchase-requisition': 5,
  'medical-claim': 4,
  'mileage-claim': 3,
  'it-incident': 8,
  'password-reset': 5,
  'meeting-room': 6,
  'facility-access': 3,
  'transport-request': 3,
  'maintenance-request': 3,
  'safety-incident': 1,
  'nda-request': 1,
  'contract-approval': 1,
  'equipment-request': 2,
  'training-request': 2,
  'event-participation': 1,
};

const FIRST = [
  'Aarav',
  'Beatriz',
  'Chen',
  'Dmitri',
  'Elena',
  'Farah',
  'Gabriel',
  'Hana',
  'Ivan',
  'Jia',
  'Kofi',
  'Lucia',
  'Mateo',
  'Nadia',
  'Oscar',
  'Priyanka',
  'Quentin',
  'Rosa',
  'Stefan',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zara',
];
const LAST = [
  'Anand',
  'Brooks',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fernandes',
  'Gupta',
  'Hoffmann',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Olsen',
  'Petrov',
  'Quinn',
  'Reyes',
  'Schmidt',
  'Tanaka',
  'Usman',
  'Vargas',
  'Weber',
  'Xu',
  'Yilmaz',
  'Zhou',
];

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** SQL for one field's value in row `g` (columns id, created_at); date and time fields ascend in field order. */
function fieldValueSql(fd: FieldDef, dateIndex: number, timeIndex: number): string {
  switch (fd.type) {
    case 'text':
      return `${q(`${fd.label} `)} || (g.id % 997)`;
    case 'longtext':
      return `${q(`${fd.label}: details of request `)} || g.id`;
    case 'date':
      return `to_char(g.created_at::date + 7 + (g.id % 30)::int + ${dateIndex} * (g.id % 4)::int, 'YYYY-MM-DD')`;
    case 'time':
      return `lpad((8 + g.id % 8 + ${timeIndex})::text, 2, '0') || ':00'`;
    case 'integer':
      return `(${Math.max(fd.min ?? 1, 1)} + g.id % 9)::int`;
    case 'money':
      return `round((10 + (g.id % 100000) / 37.0)::numeric, 2)`;
    case 'number':
      return `(1 + g.id % 400)::int`;
    case 'enum':
      return `(ARRAY[${fd.options!.map(q).join(', ')}])[1 + (g.id % ${fd.options!.length})::int]`;
  }
}

/** CASE expression building each form type's `data` jsonb from its field definitions. */
function dataSql(): string {
  const whens = FORM_TYPES.map((t) => {
    let d = 0,
      tm = 0;
    const pairs = t.fields.map((fd) => {
      const v = fieldValueSql(fd, fd.type === 'date' ? d++ : 0, fd.type === 'time' ? tm++ : 0);
      return `${q(fd.name)}, ${v}`;
    });
    let obj = `jsonb_build_object(${pairs.join(', ')})`;
    if (t.formType === 'purchase-requisition') {
      const qty = fieldValueSql(
        t.fields.find((f) => f.name === 'quantity')!,
        0,
        0,
      );
      const unit = fieldValueSql(
        t.fields.find((f) => f.name === 'unit_cost')!,
        0,
        0,
      );
      obj += ` || jsonb_build_object('estimated_total', round((${qty}) * (${unit}), 2))`;
    }
    if (t.formType === 'leave-request') obj += ` || jsonb_build_object('total_days', 1 + (g.id % 4)::int)`;
    if (t.formType === 'it-incident') {
      obj += ` || jsonb_build_object('employee_confirmation_status', CASE WHEN g.state = 'approved' THEN 'Confirmed' ELSE 'Pending' END)
               || CASE WHEN g.state = 'approved' OR g.id % 3 <> 0 THEN jsonb_build_object('it_helpdesk_ticket_number', 'TICKET-' || g.id, 'it_helpdesk_assigned_to', 'IT Officer ' || (g.id % 10)) ELSE '{}'::jsonb END
               || CASE WHEN g.id % 2 = 0 THEN jsonb_build_object('line_manager_acknowledgement', true) ELSE '{}'::jsonb END`;
    }
    if (t.formType === 'password-reset') {
      obj += ` || CASE WHEN g.state <> 'pending' THEN jsonb_build_object('it_support_status', 'Completed', 'line_manager_acknowledgement', true)
                       WHEN g.id % 2 = 0 THEN jsonb_build_object('it_support_status', 'Pending IT Action', 'line_manager_acknowledgement', true)
                       ELSE jsonb_build_object('it_support_status', 'Pending Manager') END`;
    }
    return `WHEN ${q(t.formType)} THEN ${obj}`;
  });
  return `(CASE g.form_type ${whens.join('\n ')} END) || jsonb_build_object('employee_name', g.name, 'department', g.dept)`;
}

interface Person {
  email: string;
  first: string;
  last: string;
  role: string;
  userType: string;
  dept: string;
  code: string;
  hrId: string | null;
  manager: string | null;
  hrContact: string | null;
}

/** The scale organisation: directors, line managers (each with a department), approver staff, employees. */
function scalePeople(total: number): Person[] {
  const o = SCALE_ORG;
  const staff = o.directors + o.lineManagers + o.hr + o.finance + o.it + o.facilitiesDesk + o.facilitiesManagers;
  if (total < staff + o.lineManagers) throw new Error(`--employees must be at least ${staff + o.lineManagers}`);
  const people: Person[] = [];
  let seq = 0;
  const name = () => {
    seq += 1;
    return {
      first: FIRST[seq % FIRST.length],
      last: `${LAST[Math.floor(seq / FIRST.length) % LAST.length]}-${seq}`,
      code: `B-${String(seq).padStart(6, '0')}`,
    };
  };
  const dept = (i: number) => `BU${String((i % o.departments) + 1).padStart(2, '0')}`;
  const hrOf = (i: number) => scaleEmail('hr', (i % o.hr) + 1);
  for (let i = 1; i <= o.directors; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('director', i),
      role: 'Department Manager',
      userType: 'line_manager',
      dept: dept(i),
      hrId: null,
      manager: null,
      hrContact: hrOf(i),
    });
  for (let i = 1; i <= o.lineManagers; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('manager', i),
      role: i % 3 === 0 ? 'Team Lead' : 'Line Manager',
      userType: 'line_manager',
      dept: dept(i),
      hrId: null,
      manager: scaleEmail('director', (i % o.directors) + 1),
      hrContact: hrOf(i),
    });
  for (let i = 1; i <= o.hr; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('hr', i),
      role: 'HR Officer',
      userType: 'hr_staff',
      dept: 'HR',
      hrId: `HRB-${String(i).padStart(4, '0')}`,
      manager: scaleEmail('director', 1),
      hrContact: hrOf(i + 1),
    });
  for (let i = 1; i <= o.finance; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('finance', i),
      role: 'Finance Officer',
      userType: 'finance_staff',
      dept: 'FIN',
      hrId: null,
      manager: scaleEmail('director', 2),
      hrContact: hrOf(i),
    });
  for (let i = 1; i <= o.it; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('it', i),
      role: 'IT Support Officer',
      userType: 'it_staff',
      dept: 'IT',
      hrId: null,
      manager: scaleEmail('director', 3),
      hrContact: hrOf(i),
    });
  for (let i = 1; i <= o.facilitiesDesk; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('desk', i),
      role: 'Facilities Desk Coordinator',
      userType: 'facilities_staff',
      dept: 'OPS',
      hrId: null,
      manager: scaleEmail('facmgr', 1),
      hrContact: hrOf(i),
    });
  for (let i = 1; i <= o.facilitiesManagers; i += 1)
    people.push({
      ...name(),
      email: scaleEmail('facmgr', i),
      role: 'Facilities Manager',
      userType: 'facilities_manager',
      dept: 'OPS',
      hrId: null,
      manager: scaleEmail('director', 4),
      hrContact: hrOf(i),
    });
  for (let i = 1; people.length < total; i += 1) {
    const m = (i % o.lineManagers) + 1;
    people.push({
      ...name(),
      email: scaleEmail('employee', i),
      role: i % 5 === 0 ? 'Software Engineer' : 'Employee',
      userType: 'employee',
      dept: dept(m),
      hrId: null,
      manager: scaleEmail('manager', m),
      hrContact: hrOf(i),
    });
  }
  return people;
}

/**
 * One type an administrator defined (issue 20: a conditional finance stage) and requests of it submitted through the
 * real services, so the generic queue and the data-chain rules are part of the scale database too.
 */
async function seedAdminDefinedType(db: Db, count: number) {
  const t = Date.now();
  const adminId = (await db.query("SELECT id FROM users WHERE user_type = 'admin' ORDER BY id LIMIT 1")).rows[0]?.id;
  if (!adminId) return;
  await createFormType(
    db,
    adminId,
    FormTypeInputSchema.parse({
      form_type: 'team-offsite',
      title: 'Team Offsite',
      category: 'Finance',
      description: 'Budget for a team offsite.',
      fields: [
        { name: 'event_name', label: 'Event', type: 'text', required: true },
        { name: 'amount', label: 'Amount (USD)', type: 'money', required: true },
        { name: 'event_day', label: 'Day', type: 'date', required: true },
      ],
      chain: [{ approver: 'line_manager' }, { approver: 'group:finance', when: { field: 'amount', op: '>', value: 5000 } }],
    }),
  );
  const people = await db.query("SELECT id FROM users WHERE user_type = 'employee' AND manager_id IS NOT NULL ORDER BY id LIMIT $1", [
    count,
  ]);
  for (const [i, p] of people.rows.entries()) {
    const user = await loadUser(db, Number(p.id));
    if (user)
      await submitForm(db, user, 'team-offsite', { event_name: `Offsite ${i + 1}`, amount: i % 2 ? 7500 : 1200, event_day: '2027-06-15' });
  }
  log(`admin-defined type team-offsite (${people.rows.length} requests): ${elapsed(t)}`);
}

async function main() {
  const f = flags();
  const requests = intFlag(f, 'requests', 1_000_000);
  const employees = intFlag(f, 'employees', 10_000);
  const years = intFlag(f, 'years', 3);
  // The employee whose own list the bench reads (scale employee 1) has the same number of requests in every
  // variant, so the 1,000,000 / 10,000 comparison of their user-forms varies what everyone else has, not the
  // length of the answer (at random they would have ~100 in one and ~1 in the other).
  const subjectRequests = intFlag(f, 'subject-requests', 100);
  // The queues the bench reads are the subject's line manager's and HR officer's: a colleague with both the same gets
  // this many leave requests waiting at each of the two stages in every variant, so both queues' waiting part is full
  // (50, the default page) in the small database too and the scale ratio compares answers of the same length (at
  // random the manager has about 60 waiting at 1,000,000 requests and 4 at 10,000).
  const colleagueWaiting = intFlag(f, 'colleague-waiting', 60);
  const dbName = f.get('database') ?? benchDatabaseName(requests);
  if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error('--database must be a plain lower-case name');
  const t0 = Date.now();

  const admin = await adminClient();
  log(`recreating database ${dbName} on ${new URL(benchServerUrl()).host}`);
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();

  const url = withDatabase(benchServerUrl(), dbName);
  // Bulk loading: statements may run for minutes, so no statement time limit here.
  const db = createDb(url, 2, { ...databaseLimits(), statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 });
  log(`migrations: ${(await migrate(db)).join(', ')}`);
  await seedDemo(db);
  log('demo organisation loaded');

  const c = await db.pool.connect();
  try {
    const run = async (label: string, sql: string, params: unknown[] = []) => {
      const t = Date.now();
      const r = await c.query(sql, params);
      log(`${label}${r.rowCount !== null && r.command !== 'CREATE' ? ` (${r.rowCount} rows)` : ''}: ${elapsed(t)}`);
      return r;
    };
    await c.query("SET synchronous_commit = off; SET work_mem = '256MB'; SET maintenance_work_mem = '1GB'");

    // ---- people ----
    const people = scalePeople(employees);
    const hash = await hashPassword(BENCH_PASSWORD);
    await run(
      'departments',
      `INSERT INTO departments (code, name)
      SELECT 'BU' || lpad(i::text, 2, '0'), 'Business Unit ' || i FROM generate_series(1, ${SCALE_ORG.departments}) i`,
    );
    await run(
      'people',
      `INSERT INTO users (email, password_hash, first_name, last_name, role, user_type, department_code, employee_code, hr_id, join_date, annual_leave_total)
      SELECT p.email, $1, p.first, p.last, p.role, p.user_type, p.dept, p.code, p.hr_id, date '2012-01-01' + (p.ord * 37 % 4000)::int, 12 + (p.ord % 3) * 3
        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY
             AS p(email, first, last, role, user_type, dept, code, hr_id, ord)`,
      [
        hash,
        people.map((p) => p.email),
        people.map((p) => p.first),
        people.map((p) => p.last),
        people.map((p) => p.role),
        people.map((p) => p.userType),
        people.map((p) => p.dept),
        people.map((p) => p.code),
        people.map((p) => p.hrId),
      ],
    );
    await run(
      'reporting lines',
      `UPDATE users u SET manager_id = m.id, hr_contact_id = h.id
        FROM unnest($1::text[], $2::text[], $3::text[]) AS p(email, manager, hr)
        LEFT JOIN users m ON m.email = p.manager LEFT JOIN users h ON h.email = p.hr
       WHERE u.email = p.email`,
      [people.map((p) => p.email), people.map((p) => p.manager), people.map((p) => p.hrContact)],
    );

    // ---- requests, generated in a staging table ----
    let lo = 0;
    const total = Object.values(TYPE_WEIGHTS).reduce((a, b) => a + b, 0);
    const typeRows = FORM_TYPES.map((t) => {
      const w = TYPE_WEIGHTS[t.formType] ?? 1;
      const row = `(${lo / total}, ${(lo + w) / total}, ${q(t.formType)}, ${q(t.idPrefix)}, ARRAY[${t.chain.map(q).join(', ')}]::text[])`;
      lo += w;
      return row;
    });
    await c.query(`CREATE TEMP TABLE bench_types (lo float8, hi float8, form_type text, prefix text, chain text[]) ON COMMIT PRESERVE ROWS;
      INSERT INTO bench_types VALUES ${typeRows.join(', ')}; UPDATE bench_types SET hi = 1.0000001 WHERE hi >= 0.9999999`);
    // Submitters: every scale person with a line manager (directors have none).
    await run(
      'submitters',
      `CREATE TEMP TABLE bench_emp AS
      SELECT row_number() OVER (ORDER BY u.id) AS k, u.id, u.manager_id, u.hr_contact_id, u.first_name || ' ' || u.last_name AS name, coalesce(d.name, 'Unknown') AS dept
        FROM users u LEFT JOIN departments d ON d.code = u.department_code
       WHERE u.email LIKE '%@bench.test' AND u.manager_id IS NOT NULL`,
    );
    await c.query('CREATE UNIQUE INDEX ON bench_emp (k); ANALYZE bench_emp');
    const empCount = (await c.query('SELECT count(*)::int AS n FROM bench_emp')).rows[0].n;
    const subjectK = (
      await c.query('SELECT e.k FROM bench_emp e JOIN users u ON u.id = e.id WHERE u.email = $1', [scaleEmail('employee', 1)])
    ).rows[0].k as number;
    const colleagueK = ((
      await c.query(
        `SELECT o.k FROM bench_emp o JOIN bench_emp s ON s.k = $1
          WHERE o.k <> s.k AND o.manager_id = s.manager_id AND o.hr_contact_id = s.hr_contact_id ORDER BY o.k LIMIT 1`,
        [subjectK],
      )
    ).rows[0]?.k ?? null) as number | null;
    const waiting = colleagueK === null ? 0 : colleagueWaiting;
    // A draw that picks the leave request type (the middle of its share).
    const leaveR1 = Number((await c.query("SELECT (lo + hi) / 2 AS m FROM bench_types WHERE form_type = 'leave-request'")).rows[0].m);
    const staff = async (userType: string) =>
      (
        await c.query('SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE email LIKE $1 AND user_type = $2', [
          '%@bench.test',
          userType,
        ])
      ).rows[0].ids as number[];
    const fin = await staff('finance_staff'),
      it = await staff('it_staff'),
      desk = await staff('facilities_staff'),
      facm = await staff('facilities_manager');
    const base = (await c.query('SELECT coalesce(max(id), 0)::bigint AS m FROM requests')).rows[0].m as number;

    // state: recent requests (under 60 days) are often still open, older ones mostly decided.
    // k: the stage (1-based) where a pending request waits or a rejected one was rejected.
    await run(
      'staging',
      `CREATE UNLOGGED TABLE bench_gen AS
      SELECT ${base} + row_number() OVER (ORDER BY s.created_at, s.g) AS id, t.form_type, t.prefix, t.chain,
             e.id AS employee_id, e.manager_id, e.hr_contact_id, e.name, e.dept, s.created_at,
             CASE WHEN s.fw > 0 THEN 'pending'
                  WHEN s.age_days < 60 THEN (CASE WHEN s.r3 < 0.40 THEN 'pending' WHEN s.r3 < 0.90 THEN 'approved' ELSE 'rejected' END)
                  ELSE (CASE WHEN s.r3 < 0.03 THEN 'pending' WHEN s.r3 < 0.91 THEN 'approved' ELSE 'rejected' END) END AS state,
             CASE WHEN s.fw > 0 THEN s.fw ELSE 1 + floor(s.r4 * cardinality(t.chain))::int END AS k
        FROM (SELECT g, random() AS r1, random() * ${years * 365} AS age_days, random() AS r3, random() AS r4,
                     1 + floor(random() * ${empCount - 1})::int AS other
                FROM generate_series(1, ${requests}) g) s0
        CROSS JOIN LATERAL (SELECT s0.g - ${subjectRequests} AS cw) w
        -- fw: the colleague's leave requests waiting at the line manager (1) or HR (2), submitted in the last 30 days.
        CROSS JOIN LATERAL (SELECT CASE WHEN w.cw BETWEEN 1 AND ${waiting} THEN 1 WHEN w.cw BETWEEN ${waiting + 1} AND ${2 * waiting} THEN 2 ELSE 0 END AS fw) x
        CROSS JOIN LATERAL (SELECT s0.*, x.fw, now() - (CASE WHEN x.fw > 0 THEN s0.age_days * 30 / ${years * 365} ELSE s0.age_days END) * interval '1 day' AS created_at,
                                   CASE WHEN s0.g <= ${subjectRequests} THEN ${subjectK} WHEN x.fw > 0 THEN ${colleagueK ?? 0}
                                        WHEN s0.other >= ${subjectK} THEN s0.other + 1 ELSE s0.other END AS ek) s
        JOIN bench_types t ON (CASE WHEN s.fw > 0 THEN ${leaveR1} ELSE s.r1 END) >= t.lo AND (CASE WHEN s.fw > 0 THEN ${leaveR1} ELSE s.r1 END) < t.hi
        JOIN bench_emp e ON e.k = s.ek`,
    );
    await c.query('ALTER TABLE bench_gen ADD PRIMARY KEY (id); ANALYZE bench_gen');

    // Bulk load: no per-row FK checks or triggers (the data is consistent by construction); the secondary
    // indexes are dropped and rebuilt after, and the approval counters rebuilt from the tables.
    const idx = await c.query(`SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = 'public' AND tablename IN ('requests', 'approvals', 'request_events', 'notifications')
         AND indexname NOT IN (SELECT conname FROM pg_constraint)`);
    for (const r of idx.rows) await c.query(`DROP INDEX ${r.indexname}`);
    log(`dropped ${idx.rowCount} secondary indexes for the load`);
    await c.query('SET session_replication_role = replica');

    await run(
      'requests',
      `INSERT INTO requests (id, request_id, form_type, employee_id, line_manager_id, hr_contact_id, status, current_stage, data, created_at, updated_at)
      SELECT g.id, g.prefix || '-' || lpad(g.id::text, greatest(6, length(g.id::text)), '0'), g.form_type, g.employee_id, g.manager_id, g.hr_contact_id,
             CASE WHEN g.form_type = 'it-incident' THEN
                    CASE g.state WHEN 'approved' THEN 'Closed' WHEN 'rejected' THEN 'Rejected' ELSE (ARRAY['Open', 'Open', 'Resolved'])[1 + (g.id % 3)::int] END
                  WHEN g.form_type = 'password-reset' THEN
                    CASE g.state WHEN 'approved' THEN 'Completed' WHEN 'rejected' THEN 'Rejected' ELSE 'Pending' END
                  ELSE CASE g.state WHEN 'approved' THEN 'Approved' WHEN 'rejected' THEN 'Rejected' ELSE 'Pending' END END,
             CASE WHEN g.state = 'pending' THEN g.chain[g.k] END,
             ${dataSql()},
             g.created_at,
             CASE WHEN g.state = 'pending' AND g.k = 1 THEN g.created_at ELSE g.created_at + (g.k * 20 + g.id % 48) * interval '1 hour' END
        FROM bench_gen g ORDER BY g.id`,
    );
    await c.query(`SELECT setval(pg_get_serial_sequence('requests', 'id'), (SELECT max(id) FROM requests))`);

    const signer = (stage: string) => `CASE ${stage}
        WHEN 'line_manager' THEN g.manager_id WHEN 'hr' THEN g.hr_contact_id
        WHEN 'finance' THEN (ARRAY[${fin.join(',')}])[1 + (g.id % ${fin.length})::int]
        WHEN 'it_helpdesk' THEN (ARRAY[${it.join(',')}])[1 + (g.id % ${it.length})::int]
        WHEN 'facilities_desk' THEN (ARRAY[${desk.join(',')}])[1 + (g.id % ${desk.length})::int]
        WHEN 'facilities_manager' THEN (ARRAY[${facm.join(',')}])[1 + (g.id % ${facm.length})::int] END`;
    await run(
      'approvals',
      `INSERT INTO approvals (request_pk, stage, seq, decision, signer_id, signer_name, decided_at, rejection_reason, comments)
      SELECT a.id, a.stage, a.seq, a.decision,
             CASE WHEN a.decision <> 'Pending' THEN a.signer END,
             CASE WHEN a.decision <> 'Pending' THEN u.first_name || ' ' || u.last_name END,
             CASE WHEN a.decision <> 'Pending' THEN a.created_at + (a.seq * 20 + a.id % 48) * interval '1 hour' END,
             CASE WHEN a.decision = 'Rejected' THEN (ARRAY['Budget exhausted for this quarter', 'Please pick other dates', 'Missing supporting documents', 'Not required for the role'])[1 + (a.id % 4)::int] END,
             NULL
        FROM (SELECT g.id, g.created_at, s.seq, g.chain[s.seq] AS stage, ${signer('g.chain[s.seq]')} AS signer,
                     CASE WHEN g.state = 'approved' OR s.seq < g.k THEN (CASE WHEN g.chain[s.seq] = 'it_helpdesk' THEN 'Completed' ELSE 'Approved' END)
                          WHEN g.state = 'rejected' AND s.seq = g.k THEN 'Rejected'
                          ELSE 'Pending' END AS decision
                FROM bench_gen g CROSS JOIN LATERAL generate_subscripts(g.chain, 1) AS s(seq)) a
        LEFT JOIN users u ON u.id = a.signer`,
    );

    await run(
      'events',
      `INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details, created_at)
      SELECT g.id, g.employee_id, 'submitted', NULL, 'status', NULL, CASE WHEN g.form_type = 'it-incident' THEN 'Open' ELSE 'Pending' END, '{}'::jsonb, g.created_at
        FROM bench_gen g
      UNION ALL
      SELECT a.request_pk, a.signer_id, 'decision', a.stage, a.stage || '_approval', 'Pending', a.decision,
             CASE WHEN a.rejection_reason IS NOT NULL THEN jsonb_build_object('rejection_reason', a.rejection_reason) ELSE '{}'::jsonb END, a.decided_at
        FROM approvals a WHERE a.request_pk > ${base} AND a.decision <> 'Pending'
       ORDER BY 9`,
    );

    await c.query('SET session_replication_role = DEFAULT');
    for (const r of idx.rows) await run(`index ${r.indexname}`, r.indexdef);
    const hasCounts = (await c.query("SELECT 1 FROM pg_proc WHERE proname = 'approval_counts_rebuild'")).rowCount;
    if (hasCounts) await run('approval counters', 'SELECT approval_counts_rebuild()');
    await c.query('DROP TABLE bench_gen');
    await seedAdminDefinedType(db, 200);
    await run('vacuum analyze', 'VACUUM (ANALYZE)');

    const sizes = await c.query(`SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM requests)::int AS requests,
        (SELECT count(*) FROM approvals)::int AS approvals, (SELECT count(*) FROM request_events)::int AS events,
        pg_size_pretty(pg_database_size(current_database())) AS size`);
    const s = sizes.rows[0];
    log(
      `done in ${elapsed(t0)}: ${s.users} users, ${s.requests} requests, ${s.approvals} approval rows, ${s.events} events, ${s.size} in ${dbName}`,
    );
  } finally {
    c.release();
    await db.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
