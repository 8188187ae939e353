// The mixed load of issue 21: 1,000 signed-in people of every role on the 1,000,000-request database, each call
// what that person's role does, in a company's proportions (85 % reads of lists, queues and details, 10 %
// decisions, 5 % submissions and edits), against the production server (one instance, or two behind the
// round-robin proxy), and the same work through a pg pool of the server's size at the same concurrency with no
// HTTP: read statements captured from the app itself (capture.ts), decisions as the conditional-update
// transaction, submissions and edits through the app's own repository functions on a plain pg client.
// Everything the load wrote is put back after each phase, so every phase starts from the same state.
import http from 'node:http';
import pg from 'pg';
import { formTypeDef } from '../src/domain/forms.js';
import { insertRequest, loadRecordByRef } from '../src/server/requests/repo.js';
import { recordEvent } from '../src/server/events/service.js';
import { type Statement, replay, startCapturer } from './capture.js';
import { SCALE_ORG, log, quiesce, retrying } from './common.js';
import { percentile } from './measure.js';
import { sessionsForIds } from './endpoints.js';
import { LeanPool } from './lean-http.js';

/** The kinds of call reported separately. */
export const KINDS = ['list', 'details', 'queue', 'decision', 'submission', 'edit'] as const;
export type Kind = (typeof KINDS)[number];
export const READ_KINDS: readonly Kind[] = ['list', 'details', 'queue'];

/** Operations and their share of all calls (percent): 85 reads, 10 decisions, 5 submissions and edits. */
const MIX: Array<[Op, number]> = [
  ['own_list', 30],
  ['own_details', 15],
  ['manager_queue', 15],
  ['hr_queue', 4],
  ['finance_queue', 2],
  ['desk_queue', 1],
  ['facmgr_queue', 1],
  ['it_queue', 2],
  ['manager_details', 9],
  ['hr_details', 4],
  ['finance_details', 2],
  ['manager_decision', 6],
  ['hr_decision', 3],
  ['finance_decision', 1],
  ['submission', 3],
  ['edit', 2],
];
export type Op =
  | 'own_list'
  | 'own_details'
  | 'manager_queue'
  | 'hr_queue'
  | 'finance_queue'
  | 'desk_queue'
  | 'facmgr_queue'
  | 'it_queue'
  | 'manager_details'
  | 'hr_details'
  | 'finance_details'
  | 'manager_decision'
  | 'hr_decision'
  | 'finance_decision'
  | 'submission'
  | 'edit';
const KIND_OF: Record<Op, Kind> = {
  own_list: 'list',
  own_details: 'details',
  manager_queue: 'queue',
  hr_queue: 'queue',
  finance_queue: 'queue',
  desk_queue: 'queue',
  facmgr_queue: 'queue',
  it_queue: 'queue',
  manager_details: 'details',
  hr_details: 'details',
  finance_details: 'details',
  manager_decision: 'decision',
  hr_decision: 'decision',
  finance_decision: 'decision',
  submission: 'submission',
  edit: 'edit',
};

/** The same sequence of operations for every phase (a fixed pseudo-random order with the mix's shares). */
function opSequence(n: number): Op[] {
  const out: Op[] = [];
  let x = 0x2545f491;
  const total = MIX.reduce((s, [, w]) => s + w, 0);
  for (let i = 0; i < n; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    let r = (x >>> 0) % total;
    for (const [op, w] of MIX) {
      if (r < w) {
        out.push(op);
        break;
      }
      r -= w;
    }
  }
  return out;
}

interface Person {
  id: number;
  code: string;
  hrId: string | null;
  token: string;
}
interface Pending {
  id: number;
  request_id: string;
  form_type: string;
  approver: number;
  stage: string;
}
interface Own {
  id: number;
  request_id: string;
  form_type: string;
  owner: number;
}

export interface MixedPlan {
  people: number;
  roles: Record<string, number>;
  employees: Person[];
  byRole: Record<'manager' | 'hr' | 'finance' | 'desk' | 'facmgr' | 'it', Person[]>;
  ownDetails: Own[];
  approverDetails: Record<'manager' | 'hr' | 'finance', Array<Own & { viewer: number }>>;
  decisions: Record<'manager' | 'hr' | 'finance', Pending[]>;
  edits: Own[];
  tokens: Map<number, string>;
  ops: Op[];
}

/** Decidable at the line manager through update-status with no extra fields (the decisions bench's types). */
const MANAGER_TYPES = ['leave-request', 'travel-request', 'purchase-requisition'];
const EDIT_TYPE = 'petty-cash';

/** The 1,000 people and the requests they act on; sessions made in the sessions table as sign-in would. */
export async function planMixed(db: pg.Pool, people = 1000): Promise<MixedPlan> {
  const ids = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows.map((r) => Number(r.id));
  const managers = await ids(`SELECT id FROM users WHERE email LIKE 'manager%@bench.test' ORDER BY id`);
  const hr = await ids(`SELECT id FROM users WHERE email LIKE 'hr%@bench.test' ORDER BY id`);
  const finance = await ids(`SELECT id FROM users WHERE email LIKE 'finance%@bench.test' ORDER BY id`);
  const desk = await ids(`SELECT id FROM users WHERE email LIKE 'desk%@bench.test' ORDER BY id`);
  const facmgr = await ids(`SELECT id FROM users WHERE email LIKE 'facmgr%@bench.test' ORDER BY id`);
  const it = await ids(`SELECT id FROM users WHERE email LIKE 'it%@bench.test' ORDER BY id`);
  const approvers = managers.length + hr.length + finance.length + desk.length + facmgr.length + it.length;
  if (managers.length < SCALE_ORG.lineManagers) throw new Error('the bench database lacks the scale organisation: reseed');
  const employees = await ids(`SELECT id FROM users WHERE email LIKE 'employee%@bench.test' ORDER BY id LIMIT $1`, [people - approvers]);
  const all = [...employees, ...managers, ...hr, ...finance, ...desk, ...facmgr, ...it];
  const tokens = await sessionsForIds(db, all);
  const info = await db.query('SELECT id, employee_code, hr_id FROM users WHERE id = ANY($1)', [all]);
  const byId = new Map<number, Person>(
    info.rows.map((r) => [r.id, { id: r.id, code: r.employee_code, hrId: r.hr_id, token: tokens.get(r.id)! }]),
  );
  const persons = (xs: number[]) => xs.map((x) => byId.get(x)!);

  const pending = async (stage: string, types: string[], approverCol: string | null, approverIds: number[]) =>
    (
      await db.query(
        `SELECT r.id, r.request_id, r.form_type, ${approverCol ? `r.${approverCol}` : '0'} AS approver, r.current_stage AS stage
           FROM requests r
          WHERE r.current_stage = $1 AND r.form_type = ANY($2) ${approverCol ? `AND r.${approverCol} = ANY($3)` : ''}
            -- one person decides at most one step of a request (separation of duties)
            AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.request_pk = r.id AND a.signer_id = ANY($3))
          ORDER BY r.id`,
        [stage, types, approverIds],
      )
    ).rows.map((r) => ({ ...r, id: Number(r.id), approver: Number(r.approver) })) as Pending[];
  const decisions = {
    manager: await pending('line_manager', MANAGER_TYPES, 'line_manager_id', managers),
    hr: await pending('hr', ['leave-request'], 'hr_contact_id', hr),
    finance: (await pending('finance', ['travel-request', 'purchase-requisition', 'petty-cash'], null, finance)).map((p, k) => ({
      ...p,
      approver: finance[k % finance.length],
    })),
  };
  // The owners' untouched pending requests of one type, edited again and again (never decided during the load).
  const edits = (
    await db.query(
      `SELECT r.id, r.request_id, r.form_type, r.employee_id AS owner FROM requests r
        WHERE r.employee_id = ANY($1) AND r.form_type = $2 AND r.current_stage = 'line_manager'
          AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.request_pk = r.id AND a.decision <> 'Pending') ORDER BY r.id`,
      [employees, EDIT_TYPE],
    )
  ).rows.map((r) => ({ ...r, id: Number(r.id), owner: Number(r.owner) })) as Own[];
  const ownDetails = (
    await db.query(
      `SELECT DISTINCT ON (r.employee_id) r.id, r.request_id, r.form_type, r.employee_id AS owner
         FROM requests r WHERE r.employee_id = ANY($1) ORDER BY r.employee_id, r.id DESC`,
      [employees],
    )
  ).rows.map((r) => ({ ...r, id: Number(r.id), owner: Number(r.owner) })) as Own[];
  const seen = (col: string, viewers: number[], types: string[]) =>
    db
      .query(
        `SELECT DISTINCT ON (v) r.id, r.request_id, r.form_type, r.employee_id AS owner, v AS viewer
           FROM unnest($1::int[]) v JOIN LATERAL (SELECT * FROM requests r WHERE ${col ? `r.${col} = v AND ` : ''}r.form_type = ANY($2)
                                                  ORDER BY r.id DESC LIMIT 1) r ON true ORDER BY v`,
        [viewers, types],
      )
      .then((r) => r.rows.map((x) => ({ ...x, id: Number(x.id), owner: Number(x.owner), viewer: Number(x.viewer) })));
  const approverDetails = {
    manager: await seen('line_manager_id', managers, MANAGER_TYPES),
    hr: await seen('hr_contact_id', hr, ['leave-request']),
    finance: await seen('', finance, ['travel-request', 'purchase-requisition']),
  };
  const plan: MixedPlan = {
    people: all.length,
    roles: {
      employees: employees.length,
      'line managers': managers.length,
      HR: hr.length,
      finance: finance.length,
      'facilities desk': desk.length,
      'facilities managers': facmgr.length,
      IT: it.length,
    },
    employees: persons(employees),
    byRole: {
      manager: persons(managers),
      hr: persons(hr),
      finance: persons(finance),
      desk: persons(desk),
      facmgr: persons(facmgr),
      it: persons(it),
    },
    ownDetails,
    approverDetails,
    decisions,
    edits,
    tokens,
    ops: opSequence(2_000_000),
  };
  log(
    `mixed: ${plan.people} people (${Object.entries(plan.roles)
      .map(([k, v]) => `${v} ${k}`)
      .join(
        ', ',
      )}); pending decisions: ${decisions.manager.length} line manager, ${decisions.hr.length} HR, ${decisions.finance.length} finance; ${edits.length} editable requests`,
  );
  return plan;
}

/** A valid petty-cash form (submissions and edits), different each time. */
function pettyCash(k: number) {
  const d = new Date(Date.now() + (14 + (k % 30)) * 86_400_000);
  return {
    amount_requested: 20 + (k % 400),
    expected_settlement_date: d.toISOString().slice(0, 10),
    purpose: `Bench petty cash ${k}: team supplies`,
  };
}

/** One call: what the HTTP client sends. */
interface Call {
  kind: Kind;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  token: string;
  body?: unknown;
}

/** A cursor over the plan: the k-th call of an operation, the same in every phase. */
export class Cursor {
  private n = new Map<string, number>();
  exhausted = new Set<string>();
  next(key: string): number {
    const v = this.n.get(key) ?? 0;
    this.n.set(key, v + 1);
    return v;
  }
}

export function callFor(plan: MixedPlan, op: Op, c: Cursor): Call | undefined {
  const pick = <T>(xs: T[], key: string) => xs[c.next(key) % xs.length];
  const once = <T>(xs: T[], key: string) => {
    const k = c.next(key);
    if (k >= xs.length) {
      c.exhausted.add(key);
      return undefined;
    }
    return xs[k];
  };
  const tok = (id: number) => plan.tokens.get(id)!;
  switch (op) {
    case 'own_list': {
      const e = pick(plan.employees, op);
      return { kind: 'list', method: 'GET', path: `/api/forms/user-forms?employee_id=${e.code}`, token: e.token };
    }
    case 'own_details': {
      const r = pick(plan.ownDetails, op);
      return { kind: 'details', method: 'GET', path: `/api/forms/details/${r.request_id}`, token: tok(r.owner) };
    }
    case 'manager_queue': {
      const m = pick(plan.byRole.manager, op);
      return { kind: 'queue', method: 'GET', path: `/api/manager/queue?manager_id=${m.code}`, token: m.token };
    }
    case 'hr_queue': {
      const h = pick(plan.byRole.hr, op);
      return { kind: 'queue', method: 'GET', path: `/api/hr/queue?hr_id=${h.hrId}`, token: h.token };
    }
    case 'finance_queue':
      return { kind: 'queue', method: 'GET', path: '/api/finance/queue', token: pick(plan.byRole.finance, op).token };
    case 'desk_queue':
      return { kind: 'queue', method: 'GET', path: '/api/facilities-desk/queue', token: pick(plan.byRole.desk, op).token };
    case 'facmgr_queue':
      return { kind: 'queue', method: 'GET', path: '/api/facilities-manager/queue', token: pick(plan.byRole.facmgr, op).token };
    case 'it_queue':
      return { kind: 'queue', method: 'GET', path: '/api/it-support/queue', token: pick(plan.byRole.it, op).token };
    case 'manager_details':
    case 'hr_details':
    case 'finance_details': {
      const role = op.split('_')[0] as 'manager' | 'hr' | 'finance';
      const r = pick(plan.approverDetails[role], op);
      return {
        kind: 'details',
        method: 'GET',
        path: `/api/${role}/form-details?form_id=${r.request_id}&form_type=${r.form_type}`,
        token: tok(r.viewer),
      };
    }
    case 'manager_decision':
    case 'hr_decision':
    case 'finance_decision': {
      const role = op.split('_')[0] as 'manager' | 'hr' | 'finance';
      const p = once(plan.decisions[role], op);
      if (!p) return undefined;
      const body =
        role === 'finance'
          ? { form_id: p.request_id, form_type: p.form_type, approval: 'Approved', comments: 'bench' }
          : { form_id: p.request_id, form_type: p.form_type, status: 'Approved', comments: 'bench' };
      return { kind: 'decision', method: 'POST', path: `/api/${role}/update-status`, token: tok(p.approver), body };
    }
    case 'submission': {
      const k = c.next(op);
      const e = plan.employees[k % plan.employees.length];
      return { kind: 'submission', method: 'POST', path: `/api/forms/${EDIT_TYPE}`, token: e.token, body: pettyCash(k) };
    }
    case 'edit': {
      const k = c.next(op);
      const r = plan.edits[k % plan.edits.length];
      return { kind: 'edit', method: 'PUT', path: `/api/forms/${EDIT_TYPE}/${r.request_id}`, token: tok(r.owner), body: pettyCash(k + 7) };
    }
  }
}

export interface KindFigure {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  rps: number;
}
export interface MixedFigure {
  rps: number;
  total: number;
  errors: number;
  seconds: number;
  kinds: Record<Kind, KindFigure>;
  exhausted: string[];
  lastError?: string;
  /** Queue and list answer cache over the phase (HTTP phases): hits / (hits + misses). */
  cache?: { hits: number; misses: number; rate: number; changes: number; fullChanges: number };
  /** How late the servers' event loop was over the phase (the largest instance's p99 and max, ms; /metrics takes
   * its sampling timer's own 20 ms off): time a ready call waited for the server's one thread (long synchronous
   * work, garbage collection, the cores taken by other processes). */
  loop?: { p99Ms: number; maxMs: number };
}

/**
 * How the calls come: `closed`, a fixed number in flight, each worker sending its next call as soon as the last one
 * answered (throughput at saturation; the latency is then the queue's: in flight / throughput); `paced`, the people
 * acting at a given total rate with random (Poisson) arrivals whatever the answers take (an open load: the latency
 * people see at that pace, measured from when each call was due, so a stalled server is not hidden).
 */
export type Load = { closed: number } | { paced: number };
export const loadText = (l: Load) => ('closed' in l ? `${l.closed} calls in flight` : `${l.paced} calls/s (Poisson arrivals)`);

/** The plan's calls under `load` for `seconds`; latencies per kind. */
async function drive(
  plan: MixedPlan,
  load: Load,
  seconds: number,
  exec: (op: Op, call: Call, i: number) => Promise<void>,
): Promise<MixedFigure> {
  const lat = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  const errs = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const cursor = new Cursor();
  let i = 0;
  let lastError: string | undefined;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  /** The n-th call of the plan, due at `due` (ms, performance.now()); false when its one-shot pool is used up. */
  const one = async (n: number, due: number): Promise<boolean> => {
    const op = plan.ops[n % plan.ops.length];
    const call = callFor(plan, op, cursor);
    if (!call) return false; // a one-shot pool used up (reported)
    try {
      await exec(op, call, n);
      lat[call.kind].push(performance.now() - due);
    } catch (err) {
      errs[call.kind] += 1;
      lastError = `${op}: ${(err as Error).message}`.slice(0, 300);
    }
    return true;
  };
  if ('closed' in load) {
    const worker = async () => {
      while (performance.now() < end) await one(i++, performance.now());
    };
    await Promise.all(Array.from({ length: load.closed }, worker));
  } else {
    const inFlight = new Set<Promise<boolean>>();
    let x = 0x9e3779b9;
    const random = () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return ((x >>> 0) + 0.5) / 4_294_967_296;
    };
    for (let due = t0 - (Math.log(random()) * 1000) / load.paced; due < end; due -= (Math.log(random()) * 1000) / load.paced) {
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const p = one(i++, due);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await Promise.all(inFlight);
  }
  const took = (performance.now() - t0) / 1000;
  const kinds = {} as Record<Kind, KindFigure>;
  let total = 0;
  let errors = 0;
  for (const k of KINDS) {
    const xs = lat[k].sort((a, b) => a - b);
    kinds[k] = { count: xs.length, errors: errs[k], p50: percentile(xs, 50), p99: percentile(xs, 99), rps: xs.length / took };
    total += xs.length;
    errors += errs[k];
  }
  return { rps: total / took, total, errors, seconds: took, kinds, exhausted: [...cursor.exhausted], lastError };
}

// ---- the HTTP path ----------------------------------------------------------------------------------------------

async function request(pool: LeanPool, call: Call): Promise<void> {
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  const a = await pool.request(
    {
      method: call.method,
      path: call.path,
      headers: { authorization: `Bearer ${call.token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload,
    },
    true,
  );
  if (a.status < 200 || a.status >= 300)
    throw new Error(`${call.method} ${call.path.split('?')[0]} -> ${a.status} ${String(a.body ?? '').slice(0, 160)}`);
}

/** Cache counters of an instance from GET /metrics. */
export async function cacheCounters(
  url: string,
): Promise<{ hits: number; misses: number; changes: number; fullChanges: number; loopP99Ms: number; loopMaxMs: number }> {
  const text = await new Promise<string>((resolve, reject) => {
    http
      .get(`${url}/metrics`, (res) => {
        let t = '';
        res.on('data', (d) => (t += d));
        res.on('end', () => resolve(t));
      })
      .on('error', reject);
  });
  const v = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    hits: v('adminease_answer_cache_hits_total'),
    misses: v('adminease_answer_cache_misses_total'),
    changes: v('adminease_answer_cache_changes_total'),
    fullChanges: v('adminease_answer_cache_full_changes_total'),
    // Since the previous scrape (each scrape resets them): read at a phase's end, the phase's own.
    loopP99Ms: v('nodejs_eventloop_delay_p99_seconds') * 1000,
    loopMaxMs: v('nodejs_eventloop_delay_max_seconds') * 1000,
  };
}

/** The mixed load over HTTP against `target` (a server or the proxy); cache counters read from `instances`. */
export async function mixedHttp(plan: MixedPlan, target: string, instances: string[], load: Load, seconds: number): Promise<MixedFigure> {
  const pool = new LeanPool(target);
  const before = await Promise.all(instances.map(cacheCounters));
  try {
    const fig = await drive(plan, load, seconds, (_op, call) => request(pool, call));
    const after = await Promise.all(instances.map(cacheCounters));
    const sum = (xs: typeof before, k: keyof (typeof before)[number]) => xs.reduce((s, x) => s + x[k], 0);
    const hits = sum(after, 'hits') - sum(before, 'hits');
    const misses = sum(after, 'misses') - sum(before, 'misses');
    fig.cache = {
      hits,
      misses,
      rate: hits / Math.max(1, hits + misses),
      changes: sum(after, 'changes') - sum(before, 'changes'),
      fullChanges: sum(after, 'fullChanges') - sum(before, 'fullChanges'),
    };
    fig.loop = { p99Ms: Math.max(...after.map((x) => x.loopP99Ms)), maxMs: Math.max(...after.map((x) => x.loopMaxMs)) };
    return fig;
  } finally {
    pool.close();
  }
}

// ---- the raw path -----------------------------------------------------------------------------------------------

/** The mix's reads. */
export const READ_OPS: readonly Op[] = [
  'own_list',
  'own_details',
  'manager_queue',
  'hr_queue',
  'finance_queue',
  'desk_queue',
  'facmgr_queue',
  'it_queue',
  'manager_details',
  'hr_details',
  'finance_details',
];

/** How many different calls an operation cycles through (the people or requests it picks from, in order). */
function cycleOf(plan: MixedPlan, op: Op): number {
  switch (op) {
    case 'own_list':
      return plan.employees.length;
    case 'own_details':
      return plan.ownDetails.length;
    case 'manager_queue':
    case 'hr_queue':
    case 'finance_queue':
    case 'desk_queue':
    case 'facmgr_queue':
    case 'it_queue':
      return plan.byRole[op.replace('_queue', '') as keyof MixedPlan['byRole']].length;
    case 'manager_details':
    case 'hr_details':
    case 'finance_details':
      return plan.approverDetails[op.replace('_details', '') as 'manager' | 'hr' | 'finance'].length;
    default:
      return 1;
  }
}

/**
 * Read plans captured from the app (cache bypassed: the statements an answer costs), one for every different call
 * of each read, in the order the load makes them: the replay's k-th call of an operation is the HTTP phase's k-th
 * (the same person, the same request), so both touch the same data. (A sample of 60 per operation, as before, let
 * the replay read a working set a tenth of the HTTP phase's, which stayed in PostgreSQL's buffers.)
 */
async function captureReads(url: string, plan: MixedPlan): Promise<Map<Op, Statement[][]>> {
  const cap = await startCapturer(url);
  const out = new Map<Op, Statement[][]>();
  try {
    const cursor = new Cursor();
    for (const op of READ_OPS) {
      const plans: Statement[][] = [];
      for (let k = 0; k < cycleOf(plan, op); k += 1) {
        const call = callFor(plan, op, cursor)!;
        plans.push(await cap.capture(call.token, call.path, 'GET', undefined, { 'cache-control': 'no-cache' }));
      }
      out.set(op, plans);
    }
  } finally {
    await cap.close();
  }
  return out;
}

const nextStage = (formType: string, stage: string): string | null => {
  const chain = formTypeDef(formType)?.chain ?? [];
  return chain[chain.indexOf(stage as never) + 1] ?? null;
};

/** The same operations straight through a pg pool of the server's size. */
export async function mixedRaw(url: string, plan: MixedPlan, poolSize: number, load: Load, seconds: number): Promise<MixedFigure> {
  const reads = await captureReads(url, plan);
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  const counters = new Map<Op, number>();
  const owners = new Map(plan.employees.map((e) => [e.id, e]));
  const mgrOf = new Map(
    (await pool.query('SELECT id, manager_id, hr_contact_id FROM users WHERE id = ANY($1)', [plan.employees.map((e) => e.id)])).rows.map(
      (r) => [Number(r.id), { manager: r.manager_id, hr: r.hr_contact_id }],
    ),
  );
  const tx = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const out = await fn(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  };
  try {
    return await drive(plan, load, seconds, async (op, call) => {
      const k = counters.get(op) ?? 0;
      counters.set(op, k + 1);
      const captured = reads.get(op);
      if (captured) {
        for (const st of captured[k % captured.length]) await replay(pool, st);
        return;
      }
      const body = call.body as Record<string, unknown>;
      switch (KIND_OF[op]) {
        case 'decision': {
          const p = plan.decisions[op.split('_')[0] as 'manager' | 'hr' | 'finance'].find((x) => x.request_id === body.form_id)!;
          const to = nextStage(p.form_type, p.stage);
          await tx(async (c) => {
            const u = await c.query(
              `UPDATE approvals SET decision = 'Approved', signer_id = $2, signer_name = 'bench', decided_at = now(), comments = 'bench'
                WHERE request_pk = $1 AND stage = $3 AND decision = 'Pending'`,
              [p.id, p.approver, p.stage],
            );
            if (u.rowCount !== 1) throw new Error('already decided');
            await c.query(
              `UPDATE requests SET current_stage = $2, status = CASE WHEN $2::text IS NULL THEN 'Approved' ELSE status END, updated_at = now() WHERE id = $1`,
              [p.id, to],
            );
            await c.query(
              `INSERT INTO request_events (request_pk, actor_id, event_type, stage, field, old_value, new_value, details)
               VALUES ($1, $2, 'decision', $3, $4, 'Pending', 'Approved', '{}')`,
              [p.id, p.approver, p.stage, `${p.stage}_approval`],
            );
          });
          return;
        }
        case 'submission': {
          const owner = owners.get(plan.employees[(counters.get(op)! - 1) % plan.employees.length].id)!;
          const boss = mgrOf.get(owner.id)!;
          await tx(async (c) => {
            const stored = await insertRequest(c, {
              formType: EDIT_TYPE,
              employeeId: owner.id,
              lineManagerId: boss.manager,
              hrContactId: boss.hr,
              data: { ...body, employee_name: 'bench', department: 'bench', employee_signature: 'bench' },
            });
            await recordEvent(c, {
              request: { pk: stored.pk, request_id: stored.request_id, form_type: EDIT_TYPE, employee_id: owner.id },
              actorId: owner.id,
              eventType: 'submitted',
              field: 'status',
              newValue: stored.status,
              at: new Date(),
            });
            await loadRecordByRef(c, stored.pk);
          });
          return;
        }
        case 'edit': {
          const r = plan.edits[k % plan.edits.length];
          await tx(async (c) => {
            const row = await c.query(
              `SELECT id AS pk, request_id, form_type, employee_id, status, data FROM requests WHERE request_id = upper($1) FOR UPDATE`,
              [r.request_id],
            );
            await loadRecordByRef(c, row.rows[0].pk);
            await c.query('SELECT decision FROM approvals WHERE request_pk = $1 ORDER BY seq FOR UPDATE', [r.id]);
            await c.query('UPDATE requests SET data = $2, updated_at = now() WHERE id = $1', [
              r.id,
              JSON.stringify({ ...row.rows[0].data, ...body }),
            ]);
            await recordEvent(c, {
              request: { pk: r.id, request_id: r.request_id, form_type: r.form_type, employee_id: r.owner },
              actorId: r.owner,
              eventType: 'edited',
              details: { changes: {} },
              at: new Date(),
            });
            await loadRecordByRef(c, r.id);
          });
          return;
        }
        default:
          throw new Error(`no raw path for ${op}`);
      }
    });
  } finally {
    await pool.end();
  }
}

// ---- putting the database back ------------------------------------------------------------------------------------

export interface Snapshot {
  eventId: number;
  requestId: number;
  notificationId: number;
  requests: Array<{ id: number; status: string; current_stage: string | null; data: unknown; updated_at: Date }>;
  approvals: Array<Record<string, unknown>>;
}

/** The state of every request the load may change, and the id marks after which rows are the load's own. */
export async function snapshot(db: pg.Pool, plan: MixedPlan): Promise<Snapshot> {
  const pks = [...new Set([...Object.values(plan.decisions).flatMap((xs) => xs.map((x) => x.id)), ...plan.edits.map((x) => x.id)])];
  const q = async (sql: string) => Number((await db.query(sql)).rows[0].m);
  return {
    eventId: await q('SELECT coalesce(max(id), 0) AS m FROM request_events'),
    requestId: await q('SELECT coalesce(max(id), 0) AS m FROM requests'),
    notificationId: await q('SELECT coalesce(max(id), 0) AS m FROM notifications'),
    requests: (await db.query('SELECT id, status, current_stage, data, updated_at FROM requests WHERE id = ANY($1)', [pks])).rows,
    approvals: (
      await db.query(
        `SELECT request_pk, stage, decision, signer_id, signer_name, decided_at, rejection_reason, comments FROM approvals WHERE request_pk = ANY($1)`,
        [pks],
      )
    ).rows,
  };
}

/**
 * Deletes events (`where` on request_events) whose notifications the caller already deleted, inside its transaction,
 * without the foreign key's cascade: notifications.event_id has no index (the product never deletes events, and an
 * index would cost every notification it writes), so the cascade's check scanned the whole notifications table once
 * per deleted event (a revert of 4,000 decisions took 2 min 15 s at 100 % of a core). As the database's owner the
 * bench may skip the triggers for that one statement (`session_replication_role`); what they would delete is gone.
 */
export async function deleteEventsWithoutCascade(c: pg.PoolClient, where: string, values: unknown[]): Promise<void> {
  await c.query(`SET LOCAL session_replication_role = replica`);
  await c.query(`DELETE FROM request_events WHERE ${where}`, values);
  await c.query(`SET LOCAL session_replication_role = origin`);
}

/** Puts the database back to `s`: the load's requests, events and notifications deleted, changed rows restored. */
export async function restore(db: pg.Pool, s: Snapshot): Promise<void> {
  await quiesce(db);
  await retrying(() => restoreOnce(db, s));
}

async function restoreOnce(db: pg.Pool, s: Snapshot): Promise<void> {
  const c = await db.connect();
  try {
    await c.query('BEGIN');
    await c.query('DELETE FROM notifications WHERE id > $1', [s.notificationId]);
    await deleteEventsWithoutCascade(c, 'id > $1', [s.eventId]);
    await c.query('DELETE FROM requests WHERE id > $1', [s.requestId]);
    // The request first, then its approvals (the approval counters' triggers read the other table).
    await c.query(
      `UPDATE requests r SET status = x.status, current_stage = x.current_stage, data = x.data, updated_at = x.updated_at
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::jsonb[], $5::timestamptz[]) AS x(id, status, current_stage, data, updated_at)
        WHERE r.id = x.id AND (r.status, r.current_stage, r.data, r.updated_at) IS DISTINCT FROM (x.status, x.current_stage, x.data, x.updated_at)`,
      [
        s.requests.map((r) => r.id),
        s.requests.map((r) => r.status),
        s.requests.map((r) => r.current_stage),
        s.requests.map((r) => JSON.stringify(r.data)),
        s.requests.map((r) => r.updated_at),
      ],
    );
    const a = s.approvals;
    await c.query(
      `UPDATE approvals p SET decision = x.decision, signer_id = x.signer_id, signer_name = x.signer_name, decided_at = x.decided_at,
              rejection_reason = x.rejection_reason, comments = x.comments
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::text[], $8::text[])
              AS x(request_pk, stage, decision, signer_id, signer_name, decided_at, rejection_reason, comments)
        WHERE p.request_pk = x.request_pk AND p.stage = x.stage
          AND (p.decision, p.signer_id, p.signer_name, p.decided_at, p.rejection_reason, p.comments)
              IS DISTINCT FROM (x.decision, x.signer_id, x.signer_name, x.decided_at, x.rejection_reason, x.comments)`,
      [
        a.map((x) => x.request_pk),
        a.map((x) => x.stage),
        a.map((x) => x.decision),
        a.map((x) => x.signer_id),
        a.map((x) => x.signer_name),
        a.map((x) => x.decided_at),
        a.map((x) => x.rejection_reason),
        a.map((x) => x.comments),
      ],
    );
    await c.query('COMMIT');
    await c.query('VACUUM (ANALYZE) requests, approvals, approval_counts, request_events, notifications');
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}
