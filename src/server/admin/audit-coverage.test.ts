// Every administrator write is in the audit log (issue 18: "every admin action is written to an audit log: who,
// what, before and after, when"). The cases are generated from the routes the app registers: every non-GET route
// under /api/admin must have a case here (a new admin write route fails this test until it gets one), and each case
// makes one successful call and expects at least one new admin_audit row by that administrator, with the changed
// item's state (before for a change or removal, after for a creation or change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAuditAction } from '../../domain/audit-actions.js';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: Person;
let token: string;
const stamp = Date.now().toString(36).toUpperCase();

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.person({ kind: 'admin' });
  token = (await f.login(admin)).token;
});
afterAll(async () => {
  await t?.close();
});

async function send(method: string, url: string, body?: unknown, type = 'application/json') {
  const res = await t.app.inject({
    method: method as 'POST',
    url,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': type } : {}) },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  let parsed: any = null;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    /* empty or not JSON */
  }
  return { status: res.statusCode, body: parsed, text: res.body };
}

interface Case {
  /** Makes what the call needs (not audited by itself, or audited before the count starts). */
  setup?: () => Promise<Record<string, string>>;
  call: (p: Record<string, string>) => Promise<{ status: number; text: string }>;
  /** 'create': an after; 'change': a before and an after; 'remove': a before. */
  kind: 'create' | 'change' | 'remove';
}

const letters = stamp.toLowerCase().replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]);
const formType = `audit-type-${letters}`;
const group = `audit_group_${stamp.toLowerCase()}`;
let holidayId = 0;

const CASES: Record<string, Case> = {
  'POST /api/admin/people': {
    kind: 'create',
    call: () =>
      send('POST', '/api/admin/people', {
        email: `new.${stamp}@example.test`.toLowerCase(),
        first_name: 'New',
        last_name: 'Person',
        employee_code: `NEW-${stamp}`,
        role: 'Employee',
        user_type: 'employee',
      }),
  },
  'PATCH /api/admin/people/:employeeCode': {
    kind: 'change',
    setup: async () => ({ code: (await f.person({ kind: 'employee' })).employee_code }),
    call: (p) => send('PATCH', `/api/admin/people/${p.code}`, { first_name: 'Renamed' }),
  },
  'POST /api/admin/people/:employeeCode/deactivate': {
    kind: 'change',
    setup: async () => ({ code: (await f.person({ kind: 'employee' })).employee_code }),
    call: (p) => send('POST', `/api/admin/people/${p.code}/deactivate`, { reassign_to: null, pending_requests: 'keep' }),
  },
  'POST /api/admin/people/:employeeCode/invite': {
    kind: 'create',
    setup: async () => ({ code: (await f.person({ kind: 'employee' })).employee_code }),
    call: (p) => send('POST', `/api/admin/people/${p.code}/invite`),
  },
  'POST /api/admin/people/:employeeCode/require-password-change': {
    kind: 'change',
    setup: async () => ({ code: (await f.person({ kind: 'employee' })).employee_code }),
    call: (p) => send('POST', `/api/admin/people/${p.code}/require-password-change`),
  },
  'PUT /api/admin/people/:employeeCode/out-of-office': {
    kind: 'change',
    setup: async () => {
      const manager = await f.person({ kind: 'line_manager' });
      const delegate = await f.person({ kind: 'line_manager' });
      return { code: manager.employee_code, delegate: delegate.employee_code };
    },
    call: (p) => send('PUT', `/api/admin/people/${p.code}/out-of-office`, { delegate: p.delegate, from: dateIn(1), until: dateIn(5) }),
  },
  'DELETE /api/admin/people/:employeeCode/out-of-office': {
    kind: 'remove',
    setup: async () => {
      const manager = await f.person({ kind: 'line_manager' });
      const delegate = await f.person({ kind: 'line_manager' });
      const set = await send('PUT', `/api/admin/people/${manager.employee_code}/out-of-office`, {
        delegate: delegate.employee_code,
        from: dateIn(1),
        until: dateIn(5),
      });
      expect(set.status, set.text).toBe(200);
      return { code: manager.employee_code };
    },
    call: (p) => send('DELETE', `/api/admin/people/${p.code}/out-of-office`),
  },
  'POST /api/admin/people/import': {
    kind: 'create',
    call: () =>
      send(
        'POST',
        '/api/admin/people/import',
        `email,first_name,last_name,employee_code,role,user_type\nimp.${stamp.toLowerCase()}@example.test,Imp,Orted,IMP-${stamp},Employee,employee\n`,
        'text/csv',
      ),
  },
  'POST /api/admin/departments': {
    kind: 'create',
    call: () => send('POST', '/api/admin/departments', { code: `D${stamp}`.slice(0, 10), name: `Audit ${stamp}` }),
  },
  'PATCH /api/admin/departments/:code': {
    kind: 'change',
    setup: async () => {
      const code = `R${stamp}`.slice(0, 10);
      expect((await send('POST', '/api/admin/departments', { code, name: `Before ${stamp}` })).status).toBe(201);
      return { code };
    },
    call: (p) => send('PATCH', `/api/admin/departments/${p.code}`, { name: `After ${stamp}` }),
  },
  'PUT /api/admin/settings/sso': {
    kind: 'change',
    setup: async () => ({ to: String(!(await send('GET', '/api/admin/settings/sso')).body.auto_create) }),
    call: (p) => send('PUT', '/api/admin/settings/sso', { auto_create: p.to === 'true' }),
  },
  'PUT /api/admin/settings/holiday-regions': {
    kind: 'change',
    call: () => send('PUT', '/api/admin/settings/holiday-regions', { regions: ['IN', 'US'] }),
  },
  'POST /api/admin/settings/holidays': {
    kind: 'create',
    call: async () => {
      const res = await send('POST', '/api/admin/settings/holidays', { date: '2031-03-03', name: 'Audit Day', closed: true });
      holidayId = res.body?.id;
      return res;
    },
  },
  'PUT /api/admin/settings/holidays/:id': {
    kind: 'change',
    setup: async () => ({ id: String(await holiday('2031-04-04')) }),
    call: (p) => send('PUT', `/api/admin/settings/holidays/${p.id}`, { date: '2031-04-05', name: 'Audit Day moved', closed: true }),
  },
  'DELETE /api/admin/settings/holidays/:id': {
    kind: 'remove',
    setup: async () => ({ id: String(await holiday('2031-05-05')) }),
    call: (p) => send('DELETE', `/api/admin/settings/holidays/${p.id}`),
  },
  'PUT /api/admin/settings/leave-policy': {
    kind: 'change',
    call: () => send('PUT', '/api/admin/settings/leave-policy', { default_annual_leave: 14 }),
  },
  'PUT /api/admin/settings/leave-policy/overrides/:employee_code': {
    kind: 'change',
    setup: async () => ({ code: (await f.person({ kind: 'employee' })).employee_code }),
    call: (p) => send('PUT', `/api/admin/settings/leave-policy/overrides/${p.code}`, { annual_leave_total: 20 }),
  },
  'DELETE /api/admin/settings/leave-policy/overrides/:employee_code': {
    kind: 'change',
    setup: async () => {
      const code = (await f.person({ kind: 'employee' })).employee_code;
      const set = await send('PUT', `/api/admin/settings/leave-policy/overrides/${code}`, { annual_leave_total: 21 });
      expect(set.status, set.text).toBe(200);
      return { code };
    },
    call: (p) => send('DELETE', `/api/admin/settings/leave-policy/overrides/${p.code}`),
  },
  'POST /api/admin/form-types': {
    kind: 'create',
    call: () => send('POST', '/api/admin/form-types', typeBody('Audit Type')),
  },
  'PUT /api/admin/form-types/:formType': {
    kind: 'change',
    setup: async () => {
      const made = await send('POST', '/api/admin/form-types', typeBody('Audit Type', `${formType}-b`));
      expect(made.status, made.text).toBe(201);
      return { type: `${formType}-b` };
    },
    call: (p) => send('PUT', `/api/admin/form-types/${p.type}`, typeBody('Audit Type Renamed', p.type)),
  },
  'POST /api/admin/groups': {
    kind: 'create',
    call: () => send('POST', '/api/admin/groups', { name: group, title: 'Audit Group', members: [admin.employee_code] }),
  },
  'PUT /api/admin/groups/:name': {
    kind: 'change',
    setup: async () => {
      const made = await send('POST', '/api/admin/groups', { name: `${group}_b`, title: 'Audit Group B', members: [] });
      expect(made.status, made.text).toBe(201);
      return { name: `${group}_b` };
    },
    call: (p) => send('PUT', `/api/admin/groups/${p.name}`, { title: 'Audit Group B renamed', members: [admin.employee_code] }),
  },
  'PUT /api/admin/reminder-settings/:formType': {
    kind: 'change',
    call: () => send('PUT', '/api/admin/reminder-settings/leave-request', { remind_after_days: 3, escalate_after_days: 6 }),
  },
};

function dateIn(days: number): string {
  return new Date(t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

async function holiday(date: string): Promise<number> {
  const res = await send('POST', '/api/admin/settings/holidays', { date, name: `Audit ${date}`, closed: true });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

function typeBody(title: string, type = formType) {
  return {
    form_type: type,
    title,
    category: 'Other',
    enabled: true,
    fields: [{ name: 'what', label: 'What', type: 'text', required: true }],
    chain: [{ approver: 'line_manager' }],
  };
}

describe('the audit log covers every administrator write', () => {
  it('has a case for every non-GET /api/admin route the app registers', () => {
    const writes = [
      ...new Set(
        t.app.metrics.routes
          .filter((r) => (r.url === '/api/admin' || r.url.startsWith('/api/admin/')) && !['GET', 'HEAD', 'OPTIONS'].includes(r.method))
          .map((r) => `${r.method} ${r.url}`),
      ),
    ].sort();
    expect(writes.length).toBeGreaterThan(10);
    expect(writes.filter((w) => !(w in CASES))).toEqual([]);
    expect(Object.keys(CASES).filter((c) => !writes.includes(c))).toEqual([]);
  });

  it.each(Object.keys(CASES))('%s writes an audit row by the administrator, with before/after', async (route) => {
    const c = CASES[route];
    const params = (await c.setup?.()) ?? {};
    const last = (await t.db.query('SELECT coalesce(max(id), 0)::bigint AS id FROM admin_audit')).rows[0].id;
    const res = await c.call(params);
    expect(res.status, res.text).toBeLessThan(300);
    const rows = (
      await t.db.query('SELECT actor_id, action, target_type, target_id, before, after, at FROM admin_audit WHERE id > $1 ORDER BY id', [
        last,
      ])
    ).rows;
    expect(rows.length, `${route}: no audit row`).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.actor_id).toBe(admin.id);
      // one of the named actions the audit screen offers as a filter (src/domain/audit-actions.ts)
      expect(isAuditAction(row.action), `${route}: action ${row.action} is not in AUDIT_ACTIONS`).toBe(true);
      expect(row.target_type).toMatch(/\w/);
      expect(row.at).toBeInstanceOf(Date);
    }
    if (c.kind !== 'remove')
      expect(
        rows.some((r) => r.after !== null),
        `${route}: no after`,
      ).toBe(true);
    if (c.kind !== 'create')
      expect(
        rows.some((r) => r.before !== null),
        `${route}: no before`,
      ).toBe(true);
  });

  it('the holiday case made a holiday', () => {
    expect(holidayId).toBeGreaterThan(0);
  });
});
