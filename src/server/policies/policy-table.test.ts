// The policy as one table: role (and so relation to the request) x request and the state of the role's stage ->
// may view, may decide (for IT staff on an IT item: may work it), may acknowledge, may see the sensitive fields.
// Everything is made with the factories in the test's own database; the pure rules are asked directly on the stored
// rows, then a sample of the same table goes through HTTP to show the routes answer by the same rules (a refused
// read answers exactly like a request that does not exist).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../domain/forms.js';
import type { AuthUser } from '../people/service.js';
import { type RecordRow, loadRecordByRef } from '../requests/repo.js';
import { type Factories, type Person, factories } from '../test/factories.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { canAcknowledge, canWorkItTicket } from './it.js';
import { canViewPerson } from './people.js';
import { canDecideStage, canSeeSensitive, canViewRequest, liveAudience, stageDeciders } from './requests.js';

type Role =
  | 'owner'
  | 'other employee'
  | 'line manager'
  | 'other manager'
  | 'HR'
  | 'finance'
  | 'IT staff'
  | 'facilities desk'
  | 'facilities manager'
  | 'admin'
  // delegation (policies/cover.ts): another employee set as the delegate of the line manager / the HR contact while
  // they are away; they decide what waits on the person they cover, nothing else
  | "line manager's delegate"
  | "HR's delegate";

/** The requests of the table: one employee's, each named by its type and the state of its stages. */
const REQUESTS = {
  'leave, waiting on the line manager (HR not reached)': { formType: 'leave-request', state: 'pending' },
  'leave, waiting on HR (line manager decided)': { formType: 'leave-request', state: { pendingAt: 'hr' } },
  'leave, approved': { formType: 'leave-request', state: 'approved' },
  'leave, withdrawn': { formType: 'leave-request', state: 'pending', withdraw: true },
  'travel, waiting on finance': { formType: 'travel-request', state: { pendingAt: 'finance' } },
  'travel, waiting on the line manager (finance not reached)': { formType: 'travel-request', state: 'pending' },
  'meeting room, waiting on the desk (manager not reached)': { formType: 'meeting-room', state: 'pending' },
  'meeting room, waiting on the facilities manager': { formType: 'meeting-room', state: { pendingAt: 'facilities_manager' } },
  'info update, waiting on HR': { formType: 'info-update', state: 'pending' },
  'IT incident, open': { formType: 'it-incident', state: 'pending' },
  'IT incident, withdrawn': { formType: 'it-incident', state: 'pending', withdraw: true },
  'password reset, acknowledged, waiting on IT': { formType: 'password-reset', state: 'reset-pending-it' },
} as const satisfies Record<string, { formType: string; state: unknown; withdraw?: boolean }>;
type RequestName = keyof typeof REQUESTS;

/** The stage each role decides (the owner, other employee and admin are asked about the request's first stage). */
const ROLE_STAGE: Partial<Record<Role, Stage>> = {
  'line manager': 'line_manager',
  'other manager': 'line_manager',
  HR: 'hr',
  finance: 'finance',
  'facilities desk': 'facilities_desk',
  'facilities manager': 'facilities_manager',
  'IT staff': 'it_helpdesk',
  "line manager's delegate": 'line_manager',
  "HR's delegate": 'hr',
};
const FIRST_STAGE: Record<string, Stage> = {
  'leave-request': 'line_manager',
  'travel-request': 'line_manager',
  'meeting-room': 'facilities_desk',
  'info-update': 'hr',
  'it-incident': 'it_helpdesk',
  'password-reset': 'it_helpdesk',
};

/** Expected answers as four letters: V view, D decide (work, for IT), A acknowledge, S sensitive fields; '-' refused. */
const OWNER = 'V--S';
const NONE = '----';
const TABLE: Record<Role, Partial<Record<RequestName, string>>> = {
  // the owner sees everything of theirs with its sensitive fields, and never decides or acknowledges it
  owner: Object.fromEntries(Object.keys(REQUESTS).map((k) => [k, OWNER])),
  'other employee': {},
  'line manager': {
    'leave, waiting on the line manager (HR not reached)': 'VD-S',
    'leave, waiting on HR (line manager decided)': 'V--S',
    'leave, approved': 'V--S',
    'leave, withdrawn': 'V--S',
    'travel, waiting on finance': 'V--S',
    'travel, waiting on the line manager (finance not reached)': 'VD-S',
    // IT items are view-only for the manager: acknowledged, never decided, no sensitive fields
    'IT incident, open': 'V-A-',
    'IT incident, withdrawn': 'V---',
    'password reset, acknowledged, waiting on IT': 'V-A-',
  },
  'other manager': {},
  HR: {
    'leave, waiting on the line manager (HR not reached)': 'V--S',
    'leave, waiting on HR (line manager decided)': 'VD-S',
    'leave, approved': 'V--S',
    'leave, withdrawn': 'V--S',
    'info update, waiting on HR': 'VD-S',
  },
  finance: {
    'travel, waiting on finance': 'VD-S',
    'travel, waiting on the line manager (finance not reached)': 'V--S',
  },
  'IT staff': {
    'IT incident, open': 'VD-S',
    'IT incident, withdrawn': 'V--S',
    'password reset, acknowledged, waiting on IT': 'VD-S',
  },
  'facilities desk': {
    'meeting room, waiting on the desk (manager not reached)': 'VD-S',
    'meeting room, waiting on the facilities manager': 'V--S',
  },
  'facilities manager': {
    'meeting room, waiting on the desk (manager not reached)': 'V--S',
    'meeting room, waiting on the facilities manager': 'VD-S',
  },
  admin: {},
  // a delegate sees a request while the covered person's stage of it is undecided (its approval row Pending: waiting,
  // not yet reached, or left Pending by a withdrawal), with what that person would see, and decides it only while it
  // waits; once the covered person's stage is decided it is not theirs; never an acknowledgement (the manager's own)
  "line manager's delegate": {
    'leave, waiting on the line manager (HR not reached)': 'VD-S',
    'leave, withdrawn': 'V--S',
    'travel, waiting on the line manager (finance not reached)': 'VD-S',
  },
  "HR's delegate": {
    'leave, waiting on the line manager (HR not reached)': 'V--S',
    'leave, waiting on HR (line manager decided)': 'VD-S',
    'leave, withdrawn': 'V--S',
    'info update, waiting on HR': 'VD-S',
  },
};

/** View a person (profile, leave balance, request lists): the person, their line manager, their HR contact. */
const VIEWS_OWNER: Record<Role, boolean> = {
  owner: true,
  'other employee': false,
  'line manager': true,
  'other manager': false,
  HR: true,
  finance: false,
  'IT staff': false,
  'facilities desk': false,
  'facilities manager': false,
  admin: false,
  // covering a decision does not open the covered person's reports' personal data
  "line manager's delegate": false,
  "HR's delegate": false,
};

let t: TestApp;
let f: Factories;
const people = {} as Record<Role, Person>;
const users = {} as Record<Role, AuthUser>;
const ids = {} as Record<RequestName, string>;
const rows = {} as Record<RequestName, RecordRow>;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
  const team = await f.team();
  people.owner = team.employee;
  people['line manager'] = team.manager;
  people.HR = team.hr;
  people['other employee'] = await f.person({ manager: team.manager, hr_contact: team.hr });
  people['other manager'] = await f.person({ kind: 'line_manager' });
  people.finance = await f.approverFor(team.employee, 'finance');
  people['IT staff'] = await f.approverFor(team.employee, 'it_helpdesk');
  people['facilities desk'] = await f.approverFor(team.employee, 'facilities_desk');
  people['facilities manager'] = await f.approverFor(team.employee, 'facilities_manager');
  people.admin = await f.person({ kind: 'admin' });
  for (const role of Object.keys(people) as Role[]) users[role] = await f.authUser(people[role]);
  // the delegates: other employees covering the line manager / the HR contact today (the session's user carries them)
  const cover = (covered: Person) => [{ id: covered.id, user_type: covered.user_type, name: covered.name, path: [covered.id] }];
  people["line manager's delegate"] = await f.person({ kind: 'employee' });
  people["HR's delegate"] = await f.person({ kind: 'employee' });
  users["line manager's delegate"] = { ...(await f.authUser(people["line manager's delegate"])), covers: cover(team.manager) };
  users["HR's delegate"] = { ...(await f.authUser(people["HR's delegate"])), covers: cover(team.hr) };
  const owner = await f.login(team.employee);
  for (const [name, spec] of Object.entries(REQUESTS) as Array<[RequestName, (typeof REQUESTS)[RequestName]]>) {
    const rec = await f.request({ owner: team.employee, formType: spec.formType, state: spec.state });
    if ('withdraw' in spec) expect((await owner.post(`/api/forms/${spec.formType}/${rec.request_id}/withdraw`)).status).toBe(200);
    ids[name] = rec.request_id;
    rows[name] = (await loadRecordByRef(t.db, rec.request_id))!;
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

function expected(role: Role, name: RequestName): string {
  return TABLE[role][name] ?? NONE;
}

function answers(role: Role, name: RequestName): string {
  const user = users[role];
  const row = rows[name];
  const stage = ROLE_STAGE[role] ?? FIRST_STAGE[row.form_type];
  const decides = stage === 'it_helpdesk' ? canWorkItTicket(user, row) : canDecideStage(user, row, stage);
  return [
    canViewRequest(user, row) ? 'V' : '-',
    decides ? 'D' : '-',
    canAcknowledge(user, row) ? 'A' : '-',
    canSeeSensitive(user, row) ? 'S' : '-',
  ].join('');
}

describe('the policy table (pure rules on stored requests)', () => {
  for (const role of Object.keys(TABLE) as Role[]) {
    it(`${role}: view, decide, acknowledge, sensitive on every request`, () => {
      const got = Object.fromEntries((Object.keys(REQUESTS) as RequestName[]).map((name) => [name, answers(role, name)]));
      const want = Object.fromEntries((Object.keys(REQUESTS) as RequestName[]).map((name) => [name, expected(role, name)]));
      expect(got).toEqual(want);
    });
  }

  it('view a person: the owner, their line manager and their HR contact, nobody else (not a delegate either)', () => {
    const owner = people.owner;
    for (const role of Object.keys(VIEWS_OWNER) as Role[]) {
      expect(canViewPerson(users[role], owner), role).toBe(VIEWS_OWNER[role]);
    }
  });

  it("a delegate decides only through the person covered: never for the covered person's own request", () => {
    const own = { ...rows['leave, waiting on the line manager (HR not reached)'], employee_user_id: people['line manager'].id };
    expect(canViewRequest(users["line manager's delegate"], own)).toBe(false);
  });

  it('the live stream and the notifications reach exactly the people the table lets see or decide', () => {
    const leave = rows['leave, waiting on HR (line manager decided)'];
    expect(liveAudience(leave).users.sort()).toEqual([people.owner.id, people['line manager'].id, people.HR.id].sort());
    expect(stageDeciders(leave, 'hr')).toEqual({ ids: [people.HR.id] });
    // a meeting room is not the line manager's: they do not hear of it
    const room = rows['meeting room, waiting on the facilities manager'];
    expect(liveAudience(room)).toEqual({
      users: [people.owner.id, people['facilities desk'].id],
      userTypes: ['facilities_staff', 'facilities_manager'],
    });
    // the desk officer who decided the first step is never asked for the next (separation of duties), nor the owner
    expect(stageDeciders(room, 'facilities_manager')).toEqual({
      userType: 'facilities_manager',
      exclude: [people.owner.id, people['facilities desk'].id],
    });
    // the HR step passed on (the HR contact decided the line-manager step) goes to the other HR staff; no HR contact: nobody
    const both = people.HR.id;
    const passed = {
      employee_user_id: people.owner.id,
      line_manager_id: both,
      hr_contact_id: both,
      form_type: 'leave-request',
      approvals: [
        { stage: 'line_manager', decision: 'Approved', signer_id: both },
        { stage: 'hr', decision: 'Pending', signer_id: null },
      ],
    };
    expect(stageDeciders(passed, 'hr')).toEqual({ userType: 'hr_staff', exclude: [people.owner.id, both] });
    // a step a delegate decided on someone's behalf separates that person too, as the policy refuses them
    const forThem = {
      ...room,
      approvals: room.approvals.map((a) =>
        a.stage === 'facilities_desk' ? { ...a, signer_id: people['other employee'].id, on_behalf_of_id: people.admin.id } : a,
      ),
    };
    expect(stageDeciders(forThem, 'facilities_manager')).toEqual({
      userType: 'facilities_manager',
      exclude: [people.owner.id, people['other employee'].id, people.admin.id],
    });
    expect(liveAudience(passed).userTypes).toEqual(['hr_staff']);
    expect(stageDeciders({ ...passed, line_manager_id: people['line manager'].id, hr_contact_id: null, approvals: [] }, 'hr')).toEqual({
      ids: [],
    });
  });
});

describe('the same table through HTTP', () => {
  const clients = {} as Record<Role, ApiClient>;
  beforeAll(async () => {
    for (const role of Object.keys(people) as Role[]) clients[role] = await f.login(people[role]);
  });

  /** The answer to a request id that does not exist, for comparison with refusals. */
  async function missing(path: (id: string) => string, as: Role, body?: Record<string, unknown>) {
    const url = path('LR-999999');
    const res = body ? await clients[as].post(url, { ...body, form_id: 'LR-999999' }) : await clients[as].get(url);
    return { status: res.status, body: res.body };
  }

  it('GET /api/forms/details: allowed exactly where the table says view, refused like a missing request elsewhere', async () => {
    const sample: Array<[Role, RequestName]> = [
      ['owner', 'leave, withdrawn'],
      ['line manager', 'IT incident, open'],
      ['line manager', 'info update, waiting on HR'],
      ['HR', 'leave, waiting on the line manager (HR not reached)'],
      ['HR', 'travel, waiting on finance'],
      ['finance', 'travel, waiting on the line manager (finance not reached)'],
      ['finance', 'leave, approved'],
      ['IT staff', 'IT incident, withdrawn'],
      ['facilities manager', 'meeting room, waiting on the desk (manager not reached)'],
      ['other manager', 'leave, waiting on the line manager (HR not reached)'],
      ['other employee', 'leave, approved'],
      ['admin', 'meeting room, waiting on the facilities manager'],
    ];
    for (const [role, name] of sample) {
      const res = await clients[role].get(`/api/forms/details/${ids[name]}`);
      if (expected(role, name).startsWith('V')) {
        expect(res.status, `${role} x ${name}`).toBe(200);
        expect(res.body.request_id).toBe(ids[name]);
      } else {
        expect({ status: res.status, body: res.body }, `${role} x ${name}`).toEqual(
          await missing((id) => `/api/forms/details/${id}`, role),
        );
      }
    }
  });

  it("view a person through HTTP: the leave balance and profile answer as the table says (the spec's 403 otherwise)", async () => {
    for (const role of ['owner', 'line manager', 'HR', 'other manager', 'finance', 'admin'] as const) {
      const balance = await clients[role].get(`/api/forms/employee-leave-balance/${people.owner.id}`);
      const profile = await clients[role].get(`/api/forms/employee-profile/${people.owner.employee_code}`);
      expect([balance.status, profile.status], role).toEqual(VIEWS_OWNER[role] ? [200, 200] : [403, 403]);
    }
  });

  it('a finance officer opens a request through /api/forms/details exactly when through /api/finance/form-details', async () => {
    for (const name of [
      'travel, waiting on finance',
      'leave, waiting on HR (line manager decided)',
      'info update, waiting on HR',
    ] as const) {
      const a = await clients.finance.get(`/api/forms/details/${ids[name]}`);
      const b = await clients.finance.get(`/api/finance/form-details?form_id=${ids[name]}`);
      expect(a.status, name).toBe(b.status);
      expect(a.status, name).toBe(expected('finance', name).startsWith('V') ? 200 : 404);
    }
  });

  it('whoever has acted on a stage still views the request after leaving that group, on every read path', async () => {
    const owner = people.owner;
    const travel = await f.request({ owner, formType: 'travel-request', state: 'approved' }); // finance decided it
    const signer = people.finance;
    await t.db.query(`UPDATE users SET user_type = 'employee' WHERE id = $1`, [signer.id]);
    try {
      // the sessions' cache hears of the change from PostgreSQL: wait until the session reads the new type
      for (let i = 0; i < 50 && (await clients.finance.get('/api/auth/me')).body?.user?.user_type !== 'employee'; i += 1) {
        await new Promise((r) => setTimeout(r, 50));
      }
      const former = await f.authUser(signer);
      const row = (await loadRecordByRef(t.db, travel.request_id))!;
      expect(canViewRequest(former, row)).toBe(true);
      expect(canViewRequest(former, rows['travel, waiting on finance'])).toBe(false); // not one they decided
      expect((await clients.finance.get(`/api/forms/details/${travel.request_id}`)).status).toBe(200);
      expect((await clients.finance.get(`/api/requests/${travel.request_id}/history`)).status).toBe(200);
      expect((await clients.finance.get(`/api/forms/details/${ids['travel, waiting on finance']}`)).status).toBe(404);
    } finally {
      await t.db.query(`UPDATE users SET user_type = 'finance_staff' WHERE id = $1`, [signer.id]);
    }
  });

  it('decide and acknowledge: refusals answer as the table says and change nothing; the allowed ones succeed', async () => {
    const update = (id: string, status = 'Approved') => ({
      form_id: id,
      status,
      rejection_reason: status === 'Rejected' ? 'No' : undefined,
    });
    const leave = ids['leave, waiting on the line manager (HR not reached)'];
    // may not see it: exactly a missing request
    const stranger = await clients['other manager'].post('/api/manager/update-status', update(leave));
    expect({ status: stranger.status, body: stranger.body }).toEqual(
      await missing(() => '/api/manager/update-status', 'other manager', update('LR-999999')),
    );
    // sees it, but the stage is not theirs yet / no longer pending
    expect((await clients.HR.post('/api/hr/update-status', update(leave))).status).toBe(409);
    expect((await clients['line manager'].post('/api/manager/update-status', update(ids['leave, approved']))).status).toBe(409);
    expect((await clients['line manager'].post('/api/manager/update-status', update(ids['leave, withdrawn']))).status).toBe(409);
    // acknowledging someone else's report's incident: a missing incident
    const ack = await clients['other manager'].post('/api/manager/acknowledge-it-incident', { form_id: ids['IT incident, open'] });
    expect({ status: ack.status, body: ack.body }).toEqual(
      await missing(() => '/api/manager/acknowledge-it-incident', 'other manager', { form_id: 'LR-999999' }),
    );
    // nothing of it changed
    expect(await loadRecordByRef(t.db, leave)).toEqual(rows['leave, waiting on the line manager (HR not reached)']);
    // the allowed ones
    const decided = await clients['line manager'].post('/api/manager/update-status', update(leave));
    expect(decided.status).toBe(200);
    const stored = (await loadRecordByRef(t.db, leave))!;
    expect(stored.approvals.find((a) => a.stage === 'line_manager')).toMatchObject({
      decision: 'Approved',
      signer_id: people['line manager'].id,
    });
    expect(stored.current_stage).toBe('hr');
    const acked = await clients['line manager'].post('/api/manager/acknowledge-it-incident', { form_id: ids['IT incident, open'] });
    expect(acked.status).toBe(200);
    expect((await loadRecordByRef(t.db, ids['IT incident, open']))!.data.line_manager_acknowledgement).toBe(true);
  });
});
