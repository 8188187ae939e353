// Form types and chains as data (issue 20), through the real API: an administrator defines a type with a
// conditional finance stage, employees submit it below and above the threshold and it follows the right chain
// ('Not required' below); an edited chain applies only to requests submitted afterwards; managers_manager,
// person: and admin-defined group stages are decided by the right people only, everyone else is refused and
// nothing changes; the admin API validates its input and is the administrator's alone; built-in types keep their
// behaviour and can gain optional fields; a disabled type leaves the catalogue and refuses new submissions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, type Person, factories, stateFingerprint } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
let admin: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  admin = await f.login(await f.person({ kind: 'admin' }));
});
afterAll(async () => {
  await t?.close();
});

let serial = 0;
const slug = (base: string) => {
  serial += 1;
  return `${base}-${String.fromCharCode(97 + (process.pid % 26))}${String.fromCharCode(97 + serial)}`;
};

const OFFSITE_FIELDS = [
  { name: 'event_name', label: 'Event', type: 'text', required: true },
  { name: 'amount', label: 'Amount (USD)', type: 'money', required: true, min: 1 },
  { name: 'event_day', label: 'Day', type: 'date', required: true },
  { name: 'catering', label: 'Catering', type: 'yes/no', required: false },
  { name: 'notes', label: 'Notes', type: 'long text', required: false, max: 500, help: 'Anything finance should know' },
];

function offsiteType(
  formType: string,
  chain: unknown[] = [{ approver: 'line_manager' }, { approver: 'group:finance', when: { field: 'amount', op: '>', value: 5000 } }],
) {
  return {
    form_type: formType,
    title: 'Team Offsite',
    category: 'Finance',
    description: 'Budget for a team offsite.',
    enabled: true,
    fields: OFFSITE_FIELDS,
    chain,
  };
}

const offsiteInput = (amount: number) => ({ event_name: 'Spring offsite', amount, event_day: '2027-04-14', catering: 'Yes' });

async function submit(who: ApiClient, formType: string, body: Record<string, unknown>) {
  const res = await who.post(`/api/forms/${formType}`, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return (res.body.form ?? res.body.record ?? res.body) as Record<string, any>;
}

async function details(who: ApiClient, id: string) {
  const res = await who.get(`/api/forms/details/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.form ?? res.body) as Record<string, any>;
}

/** Creates a type with one required text field and a one-stage chain. */
const oneFieldType = (formType: string, title: string, approver: string) =>
  admin.post('/api/admin/form-types', {
    form_type: formType,
    title,
    category: 'Other',
    enabled: true,
    fields: [{ name: 'what', label: 'What', type: 'text', required: true }],
    chain: [{ approver }],
  });

const decide = (who: ApiClient, formId: string, decision: string, extra: Record<string, unknown> = {}) =>
  who.post('/api/approvals/decide', { form_id: formId, decision, ...extra });

describe('an admin-defined type with a conditional finance stage', () => {
  let type: string;
  let team: { employee: Person; manager: Person; hr: Person };
  let employee: ApiClient;
  let manager: ApiClient;
  let finance: ApiClient;

  beforeAll(async () => {
    type = slug('team-offsite');
    const res = await admin.post('/api/admin/form-types', offsiteType(type));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.form_type).toMatchObject({ form_type: type, version: 1, builtin: false, enabled: true });
    expect(res.body.form_type.chain[1]).toEqual({ approver: 'group:finance', when: { field: 'amount', op: '>', value: 5000 } });
    team = await f.team();
    employee = await f.login(team.employee);
    manager = await f.login(team.manager);
    finance = await f.login(await f.person({ kind: 'finance' }));
  });

  it('is in the catalogue of types for everyone, with its fields and chain', async () => {
    const res = await employee.get('/api/form-types');
    expect(res.status).toBe(200);
    const mine = res.body.form_types.find((x: any) => x.form_type === type);
    expect(mine).toMatchObject({ title: 'Team Offsite', approval_chain: ['Line Manager', 'Finance'] });
    expect(mine.fields.map((x: any) => x.type)).toEqual(['text', 'money', 'date', 'yes/no', 'long text']);
    expect((await t.anonymous.get('/api/form-types')).status).toBe(401);
  });

  it('the assistant knows the new type by its title and asks for its fields', async () => {
    const first = await employee.post('/ai/simple-chat', { message: 'I would like to request a team offsite' });
    expect(first.status).toBe(200);
    expect(first.body.response).toMatch(/Team Offsite/i);
    const second = await employee.post('/ai/simple-chat', { message: 'Spring offsite' });
    expect(second.body.response).toMatch(/amount/i);
  });

  it('below the threshold: finance is Not required, the line manager decides alone', async () => {
    const rec = await submit(employee, type, offsiteInput(1200));
    expect(rec.status).toBe('Pending');
    expect(rec.form_type_version).toBe(1);
    expect(rec.approval_chain.map((s: any) => [s.label, s.decision])).toEqual([
      ['Line Manager', 'Pending'],
      ['Finance', 'Not required'],
    ]);
    expect(rec.finance_approval).toBe('Not required');
    expect((await finance.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).not.toContain(rec.request_id);
    const queue = (await manager.get('/api/approvals/queue')).body.items;
    const item = queue.find((i: any) => i.form_id === rec.request_id);
    expect(item).toMatchObject({ title: 'Team Offsite', stage: 'line_manager', stage_label: 'Line Manager' });
    expect(item.requester.name).toBe(team.employee.name);
    expect(item.summary).toContain('Amount (USD): 1200');

    const ok = await decide(manager, rec.request_id, 'Approved');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.form.status).toBe('Approved');
    expect(ok.body.form.next_stage).toBe('Completed');
  });

  it('above the threshold: the line manager, then finance; finance cannot go first', async () => {
    const rec = await submit(employee, type, offsiteInput(7200));
    expect(rec.approval_chain.map((s: any) => s.decision)).toEqual(['Pending', 'Pending']);
    const early = await decide(finance, rec.request_id, 'Approved', { stage: 'finance' });
    expect(early.status).toBe(409);
    expect(early.body.error).toContain('Finance can only decide after Line Manager has approved');
    // A stage name that is a property of every object is not a stage.
    for (const stage of ['constructor', '__proto__', 'toString']) {
      const odd = await decide(manager, rec.request_id, 'Approved', { stage });
      expect(odd.status, stage).toBe(400);
      expect(odd.body.error).toMatch(/^Unknown approval stage/);
    }

    const notified = async (userId: number) =>
      (await t.db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND form_id = $2', [userId, rec.request_id]))
        .rows[0].n;
    expect(await notified(finance.user.id)).toBe(0);
    expect((await decide(manager, rec.request_id, 'Approved')).status).toBe(200);
    // The stage now waits on finance: its members hear of it, and the requester of the decision.
    expect(await notified(finance.user.id)).toBeGreaterThan(0);
    expect(await notified(team.employee.id)).toBeGreaterThan(0);
    const after = await details(employee, rec.request_id);
    expect(after.next_stage).toBe('Finance Review');
    expect((await finance.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toContain(rec.request_id);
    expect((await manager.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).not.toContain(rec.request_id);

    const done = await decide(finance, rec.request_id, 'Approved');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.form).toMatchObject({ status: 'Approved', finance_approval: 'Approved', line_manager_approval: 'Approved' });
    const history = await employee.get(`/api/requests/${rec.request_id}/history`);
    expect(history.status).toBe(200);
    const summaries = (history.body.history ?? history.body.events ?? history.body).map((e: any) => e.summary);
    expect(summaries.join('\n')).toContain('(Finance)');
  });

  it('an edit before any decision applies the conditions to the new values', async () => {
    const rec = await submit(employee, type, offsiteInput(1200));
    expect(rec.finance_approval).toBe('Not required');
    const up = await employee.put(`/api/forms/${type}/${rec.request_id}`, offsiteInput(8000));
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const now = await details(employee, rec.request_id);
    expect(now.approval_chain.map((s: any) => s.decision)).toEqual(['Pending', 'Pending']);
    expect((await decide(manager, rec.request_id, 'Approved')).body.form.status).toBe('Pending');
    expect((await finance.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toContain(rec.request_id);
    // Decided once, it can no longer be edited.
    expect((await employee.put(`/api/forms/${type}/${rec.request_id}`, offsiteInput(100))).status).toBe(409);
    expect((await decide(finance, rec.request_id, 'Rejected', { reason: 'Over budget' })).body.form.status).toBe('Rejected');
  });

  it('a rejection needs a reason and ends the chain', async () => {
    const rec = await submit(employee, type, offsiteInput(9000));
    expect((await decide(manager, rec.request_id, 'Rejected')).status).toBe(400);
    const rej = await decide(manager, rec.request_id, 'Rejected', { reason: 'Not this quarter' });
    expect(rej.status).toBe(200);
    expect(rej.body.form.status).toBe('Rejected');
    expect((await decide(finance, rec.request_id, 'Approved')).status).toBe(409);
  });

  it('validates submissions with the type fields', async () => {
    const bad = await employee.post(`/api/forms/${type}`, { ...offsiteInput(100), amount: 'lots' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('Amount (USD)');
    const choice = await employee.post(`/api/forms/${type}`, { ...offsiteInput(100), catering: 'Maybe' });
    expect(choice.status).toBe(400);
  });

  it('an edited chain applies only to requests submitted afterwards; the history names the version', async () => {
    const old = await submit(employee, type, offsiteInput(6000));
    const reviewer = await f.person({ kind: 'employee' });
    const put = await admin.put(
      `/api/admin/form-types/${type}`,
      offsiteType(type, [
        { approver: 'line_manager' },
        { approver: `person:${reviewer.employee_code}` },
        { approver: 'group:finance', when: { field: 'amount', op: '>=', value: 6000 } },
      ]),
    );
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.form_type.version).toBe(2);
    const fresh = await submit(employee, type, offsiteInput(6000));
    expect(fresh.form_type_version).toBe(2);
    expect(fresh.approval_chain.map((s: any) => s.label)).toEqual(['Line Manager', reviewer.name, 'Finance']);
    const again = await details(employee, old.request_id);
    expect(again.form_type_version).toBe(1);
    expect(again.approval_chain.map((s: any) => s.label)).toEqual(['Line Manager', 'Finance']);

    const h = await employee.get(`/api/requests/${fresh.request_id}/history`);
    const text = JSON.stringify(h.body);
    expect(text).toContain('form version 2');

    // The old request follows its own chain: the line manager, then finance (no named reviewer).
    expect((await decide(manager, old.request_id, 'Approved')).status).toBe(200);
    expect((await decide(finance, old.request_id, 'Approved')).body.form.status).toBe('Approved');
    // The new one waits on the named reviewer after the manager.
    expect((await decide(manager, fresh.request_id, 'Approved')).status).toBe(200);
    expect((await decide(finance, fresh.request_id, 'Approved', { stage: 'finance' })).status).toBe(409);
    const rv = await f.login(reviewer);
    expect((await rv.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toEqual([fresh.request_id]);
    expect((await decide(rv, fresh.request_id, 'Approved')).status).toBe(200);
    expect((await decide(finance, fresh.request_id, 'Approved')).body.form.status).toBe('Approved');

    const versions = await admin.get(`/api/admin/form-types/${type}/versions`);
    expect(versions.body.versions.map((v: any) => v.version)).toEqual([2, 1]);
    const audit = await admin.get(`/api/admin/audit?target=form_type:${type}`);
    expect(audit.status).toBe(200);
    expect(audit.body.entries.map((e: any) => e.action).sort()).toEqual(['form_type.create', 'form_type.update']);
  });

  it('the list says which types are in use', async () => {
    const unused = await admin.post('/api/admin/form-types', { ...offsiteType(`${type}-unused`), title: 'Unused Offsite' });
    expect(unused.status).toBe(201);
    const listed = (await admin.get('/api/admin/form-types')).body.form_types;
    expect(listed.find((x: any) => x.form_type === type).in_use).toBe(true);
    expect(listed.find((x: any) => x.form_type === `${type}-unused`).in_use).toBe(false);
    expect(listed.find((x: any) => x.form_type === 'leave-request')).toBeDefined();
  });

  it('a type in use refuses a new required field, a removed field or a changed type (409), nothing changes', async () => {
    const before = await stateFingerprint(t, ['form_types']);
    const current = (await admin.get(`/api/admin/form-types/${type}`)).body.form_type;
    expect(current.in_use).toBe(true);
    const withRequired = {
      ...current,
      fields: [...current.fields, { name: 'cost_centre', label: 'Cost centre', type: 'text', required: true }],
    };
    const r1 = await admin.put(`/api/admin/form-types/${type}`, withRequired);
    expect(r1.status).toBe(409);
    expect(r1.body.error).toContain('required field');
    const r2 = await admin.put(`/api/admin/form-types/${type}`, { ...current, fields: current.fields.slice(1) });
    expect(r2.status).toBe(409);
    const r3 = await admin.put(`/api/admin/form-types/${type}`, {
      ...current,
      fields: current.fields.map((x: any) => (x.name === 'amount' ? { ...x, type: 'number' } : x)),
    });
    expect(r3.status).toBe(409);
    expect(await stateFingerprint(t, ['form_types'])).toEqual(before);
    // An optional field is fine.
    const ok = await admin.put(`/api/admin/form-types/${type}`, {
      ...current,
      fields: [...current.fields, { name: 'cost_centre', label: 'Cost centre', type: 'text', required: false }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('a disabled type leaves the catalogue and refuses new requests; its requests stay decidable', async () => {
    const pending = await submit(employee, type, offsiteInput(300));
    const current = (await admin.get(`/api/admin/form-types/${type}`)).body.form_type;
    expect((await admin.put(`/api/admin/form-types/${type}`, { ...current, enabled: false })).status).toBe(200);
    expect((await employee.get('/api/form-types')).body.form_types.map((x: any) => x.form_type)).not.toContain(type);
    const refused = await employee.post(`/api/forms/${type}`, offsiteInput(300));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('disabled');
    const decided = await decide(manager, pending.request_id, 'Approved');
    expect(decided.status).toBe(200);
    expect(decided.body.form.line_manager_approval).toBe('Approved');
    expect((await admin.put(`/api/admin/form-types/${type}`, { ...current, enabled: true })).status).toBe(200);
    expect((await employee.get('/api/form-types')).body.form_types.map((x: any) => x.form_type)).toContain(type);
  });
});

describe('managers_manager, person: and admin-defined group stages', () => {
  it('are decided by the right people only; everyone else is refused and nothing changes', async () => {
    const director = await f.person({ kind: 'line_manager' });
    const manager = await f.person({ kind: 'line_manager', manager: director });
    const employee = await f.person({ kind: 'employee', manager });
    const named = await f.person({ kind: 'employee' });
    const member = await f.person({ kind: 'employee' });
    const otherMember = await f.person({ kind: 'employee' });
    const outsider = await f.person({ kind: 'employee' });
    const group = `rev_${serial}${process.pid}`;
    const g = await admin.post('/api/admin/groups', {
      name: group,
      title: 'Legal reviewers',
      members: [member.employee_code, otherMember.employee_code, director.employee_code],
    });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    expect(g.body.group.members).toHaveLength(3);

    const type = slug('contract-review');
    const created = await admin.post('/api/admin/form-types', {
      form_type: type,
      title: 'Contract Review',
      category: 'Legal',
      description: 'Have a contract reviewed.',
      enabled: true,
      fields: [
        { name: 'counterparty', label: 'Counterparty', type: 'text', required: true },
        { name: 'contract_kind', label: 'Kind', type: 'choice', required: true, options: ['NDA', 'Supply', 'Lease'] },
      ],
      chain: [{ approver: 'managers_manager' }, { approver: `person:${named.employee_code}` }, { approver: `group:${group}` }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.form_type.chain.map((s: any) => s.approver)).toEqual([
      'managers_manager',
      `person:${named.employee_code}`,
      `group:${group}`,
    ]);

    const rec = await submit(await f.login(employee), type, { counterparty: 'Acme', contract_kind: 'NDA' });
    expect(rec.approval_chain.map((s: any) => s.label)).toEqual(["Manager's Manager", named.name, 'Legal reviewers']);

    const [mgr, dir, nm, mem, other, out] = await Promise.all(
      [manager, director, named, member, otherMember, outsider].map((p) => f.login(p)),
    );
    const before = await stateFingerprint(t);
    // The line manager is not in this chain (to them it does not exist); strangers do not see it; later stages wait.
    expect((await decide(mgr, rec.request_id, 'Approved')).status).toBe(404);
    expect((await decide(out, rec.request_id, 'Approved')).status).toBe(404);
    expect((await decide(nm, rec.request_id, 'Approved')).status).toBe(409);
    expect((await decide(mem, rec.request_id, 'Approved')).status).toBe(409);
    expect((await decide(dir, rec.request_id, 'Approved', { stage: 'stage_3' })).status).toBe(409);
    expect(await stateFingerprint(t)).toEqual(before);

    expect((await dir.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toContain(rec.request_id);
    expect((await decide(dir, rec.request_id, 'Approved')).status).toBe(200);
    expect((await nm.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toContain(rec.request_id);
    expect((await decide(mem, rec.request_id, 'Approved')).status).toBe(409);
    expect((await decide(nm, rec.request_id, 'Approved')).status).toBe(200);

    // The director is in the group too, but already decided a stage: separation of duties.
    const sod = await decide(dir, rec.request_id, 'Approved', { stage: 'stage_3' });
    expect(sod.status).toBe(403);
    expect(sod.body.error).toContain("already decided the Manager's Manager step");
    expect((await dir.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).not.toContain(rec.request_id);
    expect((await decide(out, rec.request_id, 'Approved')).status).toBe(404);
    expect((await other.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).toContain(rec.request_id);
    const done = await decide(mem, rec.request_id, 'Approved');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.form.status).toBe('Approved');
    expect((await decide(other, rec.request_id, 'Approved')).status).toBe(409);
  });

  it('a group member never decides their own request; a person stage naming the requester is refused at submission', async () => {
    const manager = await f.person({ kind: 'line_manager' });
    const member = await f.person({ kind: 'employee', manager });
    const colleague = await f.person({ kind: 'employee' });
    const group = `own_${serial}${process.pid}`;
    expect(
      (await admin.post('/api/admin/groups', { name: group, title: 'Own group', members: [member.employee_code, colleague.employee_code] }))
        .status,
    ).toBe(201);
    const type = slug('own-check');
    expect((await oneFieldType(type, 'Own Check', `group:${group}`)).status).toBe(201);
    const mine = await f.login(member);
    const rec = await submit(mine, type, { what: 'x' });
    expect((await mine.get('/api/approvals/queue')).body.items.map((i: any) => i.form_id)).not.toContain(rec.request_id);
    expect((await decide(mine, rec.request_id, 'Approved')).status).toBe(403);
    expect((await decide(await f.login(colleague), rec.request_id, 'Approved')).status).toBe(200);

    const selfType = slug('self-check');
    expect((await oneFieldType(selfType, 'Self Check', `person:${member.employee_code}`)).status).toBe(201);
    const before = await stateFingerprint(t);
    const refused = await mine.post(`/api/forms/${selfType}`, { what: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('your own request');
    expect(await stateFingerprint(t)).toEqual(before);
  });
});

describe('the admin API', () => {
  const base = () => ({
    form_type: slug('valid-type'),
    title: 'Valid Type',
    category: 'Other',
    description: '',
    enabled: true,
    fields: [{ name: 'amount', label: 'Amount', type: 'number', required: true }],
    chain: [{ approver: 'line_manager' }],
  });

  it('refuses bad input with the reason and changes nothing', async () => {
    const before = await stateFingerprint(t, ['form_types']);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ ...base(), form_type: 'Bad Slug!' }, 400, 'form_type'],
      [{ ...base(), chain: [{ approver: 'group:nosuchgroup' }] }, 400, 'Unknown group'],
      [{ ...base(), chain: [{ approver: 'person:NOBODY-XYZ' }] }, 400, 'Unknown person'],
      [{ ...base(), chain: [{ approver: 'the boss' }] }, 400, 'approver'],
      [{ ...base(), chain: [{ approver: 'line_manager', when: { field: 'missing', op: '>', value: 1 } }] }, 400, 'does not have: missing'],
      [{ ...base(), chain: [{ approver: 'line_manager', when: { field: 'amount', op: '~', value: 1 } }] }, 400, 'op'],
      [{ ...base(), chain: [{ approver: 'line_manager', when: { field: 'amount', op: '>', value: 'many' } }] }, 400, 'needs a number'],
      [{ ...base(), fields: [{ name: 'kind', label: 'Kind', type: 'choice', required: true, options: ['A'] }] }, 400, 'two options'],
      [{ ...base(), fields: [{ name: 'status', label: 'Status', type: 'text', required: true }] }, 400, 'reserved'],
      [{ ...base(), fields: [{ name: 'x', label: 'X', type: 'colour', required: true }] }, 400, 'field type'],
      [{ ...base(), chain: [] }, 400, 'at least one stage'],
      // Every stage conditional: a requester could fill in values that skip them all (approved by nobody).
      [
        { ...base(), chain: [{ approver: 'group:finance', when: { field: 'amount', op: '>', value: 5000 } }] },
        400,
        'must apply to every request',
      ],
      [{ ...base(), form_type: 'leave-request' }, 409, 'already exists'],
    ];
    for (const [body, status, text] of cases) {
      const res = await admin.post('/api/admin/form-types', body);
      expect(res.status, JSON.stringify({ body, answer: res.body })).toBe(status);
      expect(res.body.error).toContain(text);
    }
    const dup = base();
    expect((await admin.post('/api/admin/form-types', dup)).status).toBe(201);
    expect((await admin.post('/api/admin/form-types', dup)).status).toBe(409);
    expect((await admin.put(`/api/admin/form-types/${dup.form_type}`, { ...dup, form_type: 'other-name' })).status).toBe(400);
    expect((await admin.put('/api/admin/form-types/no-such-type', { ...base(), form_type: 'no-such-type' })).status).toBe(404);
    expect((await admin.get('/api/admin/form-types/no-such-type')).status).toBe(404);
    const after = await stateFingerprint(t, ['form_types']);
    expect(after.form_types).not.toEqual(before.form_types); // only the one valid type was added
    expect(Number(after.form_types.split(':')[0])).toBe(Number(before.form_types.split(':')[0]) + 1);
  });

  it("is the administrator's alone (403 for everyone else, nothing changes)", async () => {
    const kinds = ['employee', 'line_manager', 'hr', 'finance', 'it', 'facilities_desk', 'facilities_manager'] as const;
    const before = await stateFingerprint(t, ['form_types', 'approver_group_members']);
    for (const kind of kinds) {
      const who = await f.login(await f.person({ kind }));
      expect((await who.get('/api/admin/form-types')).status).toBe(403);
      expect((await who.get('/api/admin/form-types/leave-request')).status).toBe(403);
      expect((await who.post('/api/admin/form-types', base())).status).toBe(403);
      expect((await who.put('/api/admin/form-types/leave-request', base())).status).toBe(403);
      expect((await who.get('/api/admin/groups')).status).toBe(403);
      expect((await who.post('/api/admin/groups', { name: 'sneaky', title: 'x', members: [] })).status).toBe(403);
    }
    expect(await stateFingerprint(t, ['form_types', 'approver_group_members'])).toEqual(before);
  });

  it('groups: built-in ones are listed and fixed; admin-defined ones validate their members', async () => {
    const list = await admin.get('/api/admin/groups');
    expect(list.body.groups.filter((g: any) => g.builtin).map((g: any) => g.name)).toEqual([
      'hr',
      'finance',
      'it',
      'facilities_desk',
      'facilities_manager',
    ]);
    expect((await admin.put('/api/admin/groups/finance', { title: 'Money', members: [] })).status).toBe(400);
    expect((await admin.post('/api/admin/groups', { name: 'finance', title: 'x', members: [] })).status).toBe(409);
    expect((await admin.post('/api/admin/groups', { name: 'Bad Name', title: 'x', members: [] })).status).toBe(400);
    expect(
      (await admin.post('/api/admin/groups', { name: `g_${serial}x${process.pid}`, title: 'x', members: ['NOBODY-XYZ'] })).status,
    ).toBe(400);
    expect((await admin.put('/api/admin/groups/no_such_group', { title: 'x', members: [] })).status).toBe(404);
    const p = await f.person();
    const name = `g_${serial}y${process.pid}`;
    expect((await admin.post('/api/admin/groups', { name, title: 'Y', members: [] })).status).toBe(201);
    const upd = await admin.put(`/api/admin/groups/${name}`, { title: 'Y team', members: [p.employee_code] });
    expect(upd.status).toBe(200);
    expect(upd.body.group).toMatchObject({ title: 'Y team', members: [{ employee_code: p.employee_code }] });
  });
});

describe('built-in types as data', () => {
  it('are listed with their spec chain and keep their behaviour; they can gain an optional field but not change identity', async () => {
    const list = await admin.get('/api/admin/form-types');
    expect(list.body.form_types.filter((x: any) => x.builtin)).toHaveLength(23);
    const leave = (await admin.get('/api/admin/form-types/expense-reimbursement')).body.form_type;
    expect(leave).toMatchObject({ builtin: true, version: 1, chain: [{ approver: 'line_manager' }] });

    expect((await admin.put('/api/admin/form-types/expense-reimbursement', { ...leave, title: 'Expenses' })).status).toBe(400);
    const required = await admin.put('/api/admin/form-types/expense-reimbursement', {
      ...leave,
      fields: [...leave.fields, { name: 'project_code', label: 'Project code', type: 'text', required: true }],
    });
    expect(required.status).toBe(409);
    const ok = await admin.put('/api/admin/form-types/expense-reimbursement', {
      ...leave,
      fields: [...leave.fields, { name: 'project_code', label: 'Project code', type: 'text', required: false }],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.form_type.version).toBe(2);

    const { employee, manager } = await f.team();
    const rec = await submit(await f.login(employee), 'expense-reimbursement', {
      expense_period: 'March 2027',
      total_amount: 120,
      description: 'Taxi',
      project_code: 'P-42',
    });
    expect(rec.project_code).toBe('P-42');
    expect(rec.form_type_version).toBe(2);
    expect(rec.approval_chain).toBeUndefined(); // the built-in chain, spec fields as before
    expect(rec.line_manager_approval).toBe('Pending');
    const res = await (await f.login(manager)).post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.form.status).toBe('Approved');
  });
});

describe('every instance', () => {
  it('reloads a type another instance saved (the form_types signal), version and enabled flag included', async () => {
    const { formTypeDef } = await import('../../domain/forms.js');
    const type = slug('remote-type');
    const definition = (enabled: boolean) => ({
      form_type: type,
      title: 'Remote Type',
      category: 'Other',
      description: 'Saved by another instance.',
      enabled,
      icon: 'FileText',
      keywords: [],
      fields: [{ name: 'what', label: 'What', type: 'text', required: true }],
      chain: [{ approver: 'line_manager' }],
      id_prefix: 'RMT',
      stage_labels: ['Line Manager'],
    });
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i += 1) await new Promise((r) => setTimeout(r, 50));
      return ok();
    };
    // Written straight to the database, as another instance's save would be: only the signal tells this one.
    await t.db.query('INSERT INTO form_types (form_type, builtin, version, enabled, definition) VALUES ($1, false, 1, true, $2)', [
      type,
      JSON.stringify(definition(true)),
    ]);
    expect(await until(() => formTypeDef(type) !== undefined)).toBe(true);
    expect(formTypeDef(type)).toMatchObject({ title: 'Remote Type', version: 1, idPrefix: 'RMT' });
    await t.db.query('UPDATE form_types SET version = 2, enabled = false, definition = $2 WHERE form_type = $1', [
      type,
      JSON.stringify(definition(false)),
    ]);
    expect(await until(() => formTypeDef(type)?.enabled === false)).toBe(true);
    expect(formTypeDef(type)?.version).toBe(2);
  });
});

describe('a built-in type whose chain an administrator changed', () => {
  it('follows the new chain for new requests (conditional finance stage) and keeps the spec fields', async () => {
    const current = (await admin.get('/api/admin/form-types/petty-cash')).body.form_type;
    expect(current.chain).toEqual([{ approver: 'line_manager' }, { approver: 'group:finance' }]);
    const { employee, manager } = await f.team();
    const me = await f.login(employee);
    const input = (amount: number) => ({ amount_requested: amount, expected_settlement_date: '2027-05-03', purpose: 'Stationery' });
    const old = await submit(me, 'petty-cash', input(50));
    const put = await admin.put('/api/admin/form-types/petty-cash', {
      ...current,
      chain: [{ approver: 'line_manager' }, { approver: 'group:finance', when: { field: 'amount_requested', op: '>', value: 100 } }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const small = await submit(me, 'petty-cash', input(50));
    expect(small).toMatchObject({
      line_manager_approval: 'Pending',
      finance_approval: 'Not required',
      form_type_version: put.body.form_type.version,
    });
    const boss = await f.login(manager);
    const decided = await boss.post('/api/manager/update-status', { form_id: small.request_id, status: 'Approved' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.form.status).toBe('Approved');
    // The request submitted before the change still needs finance.
    const before = await boss.post('/api/manager/update-status', { form_id: old.request_id, status: 'Approved' });
    expect(before.body.form).toMatchObject({ status: 'Pending', finance_approval: 'Pending' });
    // Back to the spec's chain: new requests are built-in again.
    const back = await admin.put('/api/admin/form-types/petty-cash', { ...current });
    expect(back.status).toBe(200);
    const again = await submit(me, 'petty-cash', input(50));
    expect(again.approval_chain).toBeUndefined();
    expect(again.finance_approval).toBe('Pending');
  });
});

describe("a built-in chain's HR step is the requester's HR contact, through the editor and back", () => {
  it('round-trips unchanged, and an edited chain keeps its HR step with the HR contact (passed on when they decided another step)', async () => {
    const current = (await admin.get('/api/admin/form-types/leave-request')).body.form_type;
    expect(current.chain).toEqual([{ approver: 'line_manager' }, { approver: 'hr_contact' }]);
    // Saved back as the editor read it: still the code's chain.
    const same = await admin.put('/api/admin/form-types/leave-request', { ...current });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await admin.get('/api/admin/form-types/leave-request')).body.form_type.chain).toEqual(current.chain);
    const hr = await f.person({ kind: 'hr', first_name: 'Hana' });
    const otherHr = await f.person({ kind: 'hr', first_name: 'Omar' });
    const manager = await f.person({ kind: 'line_manager' });
    const employee = await f.person({ kind: 'employee', manager, hr_contact: hr });
    const plain = await f.request({ owner: employee, formType: 'leave-request' });
    expect(
      (await t.db.query('SELECT count(*)::int AS n FROM approvals WHERE request_pk = $1 AND approver IS NOT NULL', [plain.id])).rows[0].n,
    ).toBe(0);

    // Edited (a long leave also needs the manager's manager): the HR step stays the HR contact's, not every HR officer's.
    const dateField = current.fields.find((x: { type: string }) => x.type === 'date').name;
    const edited = await admin.put('/api/admin/form-types/leave-request', {
      ...current,
      chain: [...current.chain, { approver: 'managers_manager', when: { field: dateField, op: '>', value: '2999-01-01' } }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.form_type.chain.slice(0, 2)).toEqual(current.chain);
    try {
      const rec = await f.request({ owner: employee, formType: 'leave-request' });
      const stages = (await t.db.query('SELECT stage, approver, approver_ids FROM approvals WHERE request_pk = $1 ORDER BY seq', [rec.id]))
        .rows;
      expect(stages.slice(0, 2)).toEqual([
        { stage: 'line_manager', approver: 'line_manager', approver_ids: [manager.id] },
        { stage: 'hr', approver: 'hr_contact', approver_ids: [hr.id] },
      ]);
      expect(
        (await (await f.login(manager)).post('/api/manager/update-status', { form_id: rec.request_id, status: 'Approved' })).status,
      ).toBe(200);
      const refused = await (
        await f.login(otherHr)
      ).post('/api/approvals/decide', { form_id: rec.request_id, stage: 'hr', decision: 'Approved' });
      expect(refused.status).toBe(404); // not theirs to see, as any request they do not work on
      const ok = await (await f.login(hr)).post('/api/approvals/decide', { form_id: rec.request_id, stage: 'hr', decision: 'Approved' });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);

      // The HR contact is also the line manager and decided that step: the HR step passes on to the other HR staff.
      const report = await f.person({ kind: 'employee', manager: hr, hr_contact: hr });
      const both = await f.request({ owner: report, formType: 'leave-request' });
      expect((await (await f.login(hr)).post('/api/manager/update-status', { form_id: both.request_id, status: 'Approved' })).status).toBe(
        200,
      );
      const queue = (await (await f.login(otherHr)).get('/api/approvals/queue')).body.items.map((i: { form_id: string }) => i.form_id);
      expect(queue).toContain(both.request_id);
      const second = await (
        await f.login(hr)
      ).post('/api/approvals/decide', { form_id: both.request_id, stage: 'hr', decision: 'Approved' });
      expect(second.status).toBe(403);
      const passed = await (
        await f.login(otherHr)
      ).post('/api/approvals/decide', { form_id: both.request_id, stage: 'hr', decision: 'Approved' });
      expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    } finally {
      expect((await admin.put('/api/admin/form-types/leave-request', { ...current })).status).toBe(200);
    }
  });
});
