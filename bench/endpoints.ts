// The endpoints the benchmark loads and the sessions it uses: sessions are made directly in the database
// (sign-in is measured on its own), one user of each approver kind from the scale organisation.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { hashToken } from '../src/server/auth/service.js';
import { scaleEmail } from './common.js';

/** Sessions made directly in the database (sign-in itself is measured on its own). */
export async function sessionsFor(
  db: pg.Pool,
  emails: string[],
): Promise<Map<string, { token: string; id: number; code: string; hrId: string | null; name: string }>> {
  const out = new Map();
  const r = await db.query('SELECT id, email, employee_code, hr_id, first_name, last_name FROM users WHERE email = ANY($1)', [emails]);
  const tokens = r.rows.map(() => randomBytes(24).toString('base64url'));
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, created_at, last_activity_at)
    SELECT h, u, now(), now() FROM unnest($1::text[], $2::int[]) AS s(h, u)`,
    [tokens.map(hashToken), r.rows.map((x) => x.id)],
  );
  r.rows.forEach((x, i) =>
    out.set(x.email, { token: tokens[i], id: x.id, code: x.employee_code, hrId: x.hr_id, name: `${x.first_name} ${x.last_name}` }),
  );
  return out;
}

export async function sessionsForIds(db: pg.Pool, ids: number[]): Promise<Map<number, string>> {
  const tokens = ids.map(() => randomBytes(24).toString('base64url'));
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, created_at, last_activity_at)
    SELECT h, u, now(), now() FROM unnest($1::text[], $2::int[]) AS s(h, u)`,
    [tokens.map(hashToken), ids],
  );
  return new Map(ids.map((id, i) => [id, tokens[i]]));
}

export const DECIDABLE = ['leave-request', 'petty-cash', 'travel-request', 'purchase-requisition'];

/** Pending line-manager decisions, oldest first, with their line manager. */
export async function pendingPool(db: pg.Pool, limit: number) {
  const r = await db.query(
    `SELECT id, request_id, form_type, line_manager_id FROM requests
      WHERE current_stage = 'line_manager' AND form_type = ANY($1) AND line_manager_id IS NOT NULL
      ORDER BY id LIMIT $2`,
    [DECIDABLE, limit],
  );
  return r.rows as Array<{ id: number; request_id: string; form_type: string; line_manager_id: number }>;
}

export interface ReadEndpoint {
  key: string;
  label: string;
  paths: string[];
  token: string;
  isQueue: boolean;
  headers?: Record<string, string>;
}

export async function readEndpoints(db: pg.Pool): Promise<ReadEndpoint[]> {
  // The line manager and HR officer whose queues are read are the measured employee's own: that employee has
  // the same 100 requests in every scale variant (seed-scale.ts), so their queues are not near-empty at 10,000.
  const subject = scaleEmail('employee', 1);
  const boss = await db.query(
    `SELECT m.email AS manager, h.email AS hr FROM users e JOIN users m ON m.id = e.manager_id
                                 JOIN users h ON h.id = e.hr_contact_id WHERE e.email = $1`,
    [subject],
  );
  if (!boss.rows[0]) throw new Error(`${subject} is not in the bench database`);
  const who = {
    employee: subject,
    manager: boss.rows[0].manager as string,
    hr: boss.rows[0].hr as string,
    finance: scaleEmail('finance', 1),
    desk: scaleEmail('desk', 1),
    facmgr: scaleEmail('facmgr', 1),
    it: scaleEmail('it', 1),
  };
  const s = await sessionsFor(db, Object.values(who));
  const get = (e: string) => {
    const x = s.get(e);
    if (!x) throw new Error(`${e} is not in the bench database`);
    return x;
  };
  const emp = get(who.employee),
    mgr = get(who.manager),
    hr = get(who.hr);
  const details = await db.query(
    `SELECT request_id, form_type FROM requests WHERE line_manager_id = $1 AND form_type = ANY($2) ORDER BY id DESC LIMIT 500`,
    [mgr.id, DECIDABLE],
  );
  return [
    {
      key: 'user_forms',
      label: "employee's user-forms (as clients call it: the spec's cached answer)",
      paths: [`/api/forms/user-forms?employee_id=${emp.code}`],
      token: emp.token,
      isQueue: false,
    },
    {
      key: 'user_forms_fresh',
      label: "employee's user-forms, cache bypassed (Cache-Control: no-cache)",
      paths: [`/api/forms/user-forms?employee_id=${emp.code}`],
      token: emp.token,
      isQueue: false,
      headers: { 'cache-control': 'no-cache' },
    },
    {
      key: 'manager_queue',
      label: 'line manager queue',
      paths: [`/api/manager/queue?manager_id=${mgr.code}`],
      token: mgr.token,
      isQueue: true,
    },
    { key: 'hr_queue', label: 'HR queue', paths: [`/api/hr/queue?hr_id=${hr.hrId}`], token: hr.token, isQueue: true },
    { key: 'finance_queue', label: 'finance queue', paths: ['/api/finance/queue'], token: get(who.finance).token, isQueue: true },
    { key: 'desk_queue', label: 'facilities desk queue', paths: ['/api/facilities-desk/queue'], token: get(who.desk).token, isQueue: true },
    {
      key: 'facmgr_queue',
      label: 'facilities manager queue',
      paths: ['/api/facilities-manager/queue'],
      token: get(who.facmgr).token,
      isQueue: true,
    },
    { key: 'it_queue', label: 'IT queue', paths: ['/api/it-support/queue'], token: get(who.it).token, isQueue: true },
    {
      key: 'details',
      label: 'form details (manager)',
      isQueue: false,
      token: mgr.token,
      paths: details.rows.map((r) => `/api/manager/form-details?form_id=${r.request_id}&form_type=${r.form_type}`),
    },
  ];
}
