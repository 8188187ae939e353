// Notifications as the spec's clients read them: approval_field is always one of the spec's seven values, over the
// full lifecycle of every form type and every IT flow; an approver's 'awaits your ...' item reads New -> Pending,
// and stops being returned by the form-state calls once anyone who decides that stage has acted on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPES, type Stage } from '../../domain/forms.js';
import { APPROVAL_FIELDS } from '../../domain/notifications.js';
import { EMAIL, decideVia, sampleInput } from '../approvals/test-helpers.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
const c: Record<string, ApiClient> = {};
const approverOf: Record<Exclude<Stage, 'it_helpdesk'>, string> = {
  line_manager: 'priya',
  hr: 'meera',
  finance: 'arjun',
  facilities_desk: 'sofia',
  facilities_manager: 'kenji',
};

beforeAll(async () => {
  t = await startTestApp();
  const emails: Record<string, string> = { ...EMAIL, omar: 'omar.haddad@adminease.test', nina: 'nina.patel@adminease.test' };
  for (const k of ['alex', 'priya', 'daniel', 'meera', 'arjun', 'hannah', 'sofia', 'kenji', 'lena', 'omar', 'nina'])
    c[k] = await t.login(emails[k]);
});
afterAll(async () => t?.close());

async function submit(who: ApiClient, formType: string, input: Record<string, unknown> = sampleInput(formType)): Promise<string> {
  const res = await who.post(`/api/forms/${formType}`, input);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.request_id as string;
}

const ok = async (p: Promise<{ status: number; body: any }>) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

async function incidentFlow(owner: ApiClient): Promise<string> {
  const id = await submit(owner, 'it-incident', {
    affected_system: 'VPN',
    incident_description: 'VPN drops every few minutes',
    employee_system_number: 'LT-1',
  });
  await ok(c.priya.post('/api/manager/acknowledge-it-incident', { form_id: id }));
  await ok(c.lena.post('/api/it-support/save-ticket-details', { form_id: id, it_helpdesk_ticket_number: 'TICKET-9001' }));
  await ok(
    c.lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-9001',
      it_resolution_notes: 'Reinstalled the client',
      it_helpdesk_assigned_to: 'Omar Haddad',
    }),
  );
  await ok(
    owner.post('/api/user-confirmation/reject-resolution', { form_id: id, rejection_reason: 'Employee reported: Problem not solved' }),
  );
  await ok(
    c.lena.post('/api/it-support/save-ticket-details', {
      form_id: id,
      it_helpdesk_ticket_number: 'TICKET-9001',
      it_resolution_notes: 'Replaced the profile',
    }),
  );
  // The employee's confirmation closes the ticket (nothing is left for IT to close).
  await ok(
    owner.post('/api/user-confirmation/confirm-problem-solved', {
      form_id: id,
      confirmation_notes: 'Employee confirmed: Problem is solved',
    }),
  );
  return id;
}

async function resetFlow(): Promise<string> {
  const id = await submit(c.nina, 'password-reset', { system_for_reset: 'ERP', reset_reason: 'Forgotten Password' });
  await ok(c.daniel.post('/api/manager/acknowledge-password-reset', { form_id: id }));
  await ok(
    c.lena.post('/api/it-support/save-password-reset-details', {
      form_id: id,
      new_password: 'Erp!Reset-4417abc',
      it_helpdesk_reset_by: 'Lena Fischer',
    }),
  );
  await ok(c.nina.post('/api/password-reset/reveal-password', { form_id: id }));
  await ok(c.nina.post('/api/password-reset/confirm-password-saved', { form_id: id }));
  return id;
}

const unreadIds = async (who: ApiClient, formId: string) =>
  (await ok(who.get(`/api/form-state/notifications/${who.user.id}`))).notifications.filter((n: any) => n.form_id === formId);

describe('approval_field', () => {
  it("is one of the spec values in every notification of every form type's lifecycle and every IT flow", async () => {
    const from = Number((await t.db.query('SELECT coalesce(max(id), 0) AS m FROM notifications')).rows[0].m);
    for (const def of FORM_TYPES.filter((d) => !d.chain.includes('it_helpdesk'))) {
      // approved through the whole chain
      const approved = await submit(c.alex, def.formType);
      for (const stage of def.chain as Array<Exclude<Stage, 'it_helpdesk'>>) {
        await ok(decideVia(c[approverOf[stage]], stage, approved, def.formType, 'Approved'));
      }
      // rejected at its last stage
      const rejected = await submit(c.alex, def.formType);
      for (const [i, stage] of (def.chain as Array<Exclude<Stage, 'it_helpdesk'>>).entries()) {
        await ok(
          decideVia(
            c[approverOf[stage]],
            stage,
            rejected,
            def.formType,
            i === def.chain.length - 1 ? 'Rejected' : 'Approved',
            'Not this time',
          ),
        );
      }
    }
    // edited by its owner while waiting, then withdrawn
    const edited = await submit(c.alex, 'petty-cash');
    await ok(c.alex.put(`/api/forms/petty-cash/${edited}`, sampleInput('petty-cash')));
    await ok(c.alex.post(`/api/forms/petty-cash/${edited}/withdraw`, {}));
    const incident = await incidentFlow(c.alex);
    const reset = await resetFlow();

    const rows = (
      await t.db.query(
        `SELECT form_id, approval_field, old_value, new_value, awaiting, title FROM notifications WHERE id > $1 ORDER BY id`,
        [from],
      )
    ).rows;
    expect(rows.length).toBeGreaterThan(100);
    const allowed = new Set<string>(APPROVAL_FIELDS);
    expect(rows.filter((r) => !allowed.has(r.approval_field))).toEqual([]);
    // the IT flows were told, as `status` (IT's changes) and the acknowledgement
    expect(new Set(rows.filter((r) => r.form_id === incident).map((r) => r.approval_field))).toEqual(
      new Set(['status', 'line_manager_acknowledgement']),
    );
    expect(new Set(rows.filter((r) => r.form_id === reset).map((r) => r.approval_field))).toEqual(
      new Set(['status', 'line_manager_acknowledgement']),
    );
    // every field of the spec's list is exercised by these flows
    expect(new Set(rows.map((r) => r.approval_field))).toEqual(allowed);
    // awaiting items never read None: New -> Pending (an owner's edit: Pending -> Pending)
    const awaiting = rows.filter((r) => r.awaiting);
    expect(awaiting.length).toBeGreaterThan(40);
    for (const r of awaiting) {
      expect(r.title).toMatch(/awaits|changed by its owner/);
      expect([r.old_value, r.new_value]).toEqual([/changed by its owner/.test(r.title) ? 'Pending' : 'New', 'Pending']);
    }
    // and the API answers the same fields
    const api = await ok(c.alex.get(`/api/form-state/notifications/${c.alex.user.id}`));
    expect(api.notifications.length).toBeGreaterThan(0);
    for (const n of api.notifications) expect(allowed.has(n.approval_field)).toBe(true);
  }, 300_000);
});

describe("'awaits your approval' items", () => {
  it('read New -> Pending and stop being returned once the approver decides; the next stage gets its own', async () => {
    await ok(c.priya.post('/api/form-state/save-snapshot', { user_id: c.priya.user.id }));
    const id = await submit(c.alex, 'leave-request');
    const [mine] = await unreadIds(c.priya, id);
    expect(mine).toMatchObject({ approval_field: 'line_manager_approval', old_value: 'New', new_value: 'Pending', change_type: 'pending' });
    expect(mine.title).toMatch(/awaits your approval/);
    const changes = await ok(c.priya.post('/api/form-state/check-changes', { user_id: c.priya.user.id }));
    expect(changes.notifications.map((n: any) => n.form_id)).toContain(id);
    const countBefore = (await ok(c.priya.get(`/api/form-state/notifications/${c.priya.user.id}`))).unread_count;

    await ok(decideVia(c.priya, 'line_manager', id, 'leave-request', 'Approved'));
    expect(await unreadIds(c.priya, id)).toEqual([]);
    expect(
      (await ok(c.priya.post('/api/form-state/check-changes', { user_id: c.priya.user.id }))).notifications.map((n: any) => n.form_id),
    ).not.toContain(id);
    expect((await ok(c.priya.get(`/api/form-state/notifications/${c.priya.user.id}`))).unread_count).toBe(countBefore - 1);
    // HR's item, under HR's own field
    expect(await unreadIds(c.meera, id)).toEqual([
      expect.objectContaining({ approval_field: 'hr_approval', old_value: 'New', new_value: 'Pending' }),
    ]);
    await ok(decideVia(c.meera, 'hr', id, 'leave-request', 'Rejected', 'Overlaps the audit'));
    expect(await unreadIds(c.meera, id)).toEqual([]);
  });

  it('of a group stage stop for everyone of the group once one of them decides', async () => {
    const id = await submit(c.alex, 'petty-cash');
    await ok(decideVia(c.priya, 'line_manager', id, 'petty-cash', 'Approved'));
    for (const who of [c.arjun, c.hannah]) {
      expect(await unreadIds(who, id)).toEqual([
        expect.objectContaining({ approval_field: 'finance_approval', old_value: 'New', new_value: 'Pending' }),
      ]);
    }
    await ok(decideVia(c.arjun, 'finance', id, 'petty-cash', 'Approved'));
    expect(await unreadIds(c.arjun, id)).toEqual([]);
    expect(await unreadIds(c.hannah, id)).toEqual([]);
  });

  it('of IT and of the acknowledgement stop once IT works the ticket, the manager acknowledges, or IT sets the password', async () => {
    const inc = await submit(c.alex, 'it-incident', {
      affected_system: 'VPN',
      incident_description: 'VPN drops',
      employee_system_number: 'LT-2',
    });
    for (const who of [c.lena, c.omar]) {
      expect(await unreadIds(who, inc)).toEqual([
        expect.objectContaining({ approval_field: 'status', old_value: 'New', new_value: 'Pending' }),
      ]);
    }
    await ok(c.lena.post('/api/it-support/save-ticket-details', { form_id: inc, it_helpdesk_ticket_number: 'TICKET-9002' }));
    expect(await unreadIds(c.lena, inc)).toEqual([]);
    expect(await unreadIds(c.omar, inc)).toEqual([]);

    const pwd = await submit(c.nina, 'password-reset', { system_for_reset: 'ERP', reset_reason: 'Forgotten Password' });
    expect(await unreadIds(c.daniel, pwd)).toEqual([
      expect.objectContaining({ approval_field: 'line_manager_acknowledgement', old_value: 'New', new_value: 'Pending' }),
    ]);
    await ok(c.daniel.post('/api/manager/acknowledge-password-reset', { form_id: pwd }));
    expect(await unreadIds(c.daniel, pwd)).toEqual([]);
    expect(await unreadIds(c.omar, pwd)).toEqual([
      expect.objectContaining({ approval_field: 'status', old_value: 'New', new_value: 'Pending' }),
    ]);
    await ok(c.lena.post('/api/it-support/save-password-reset-details', { form_id: pwd, new_password: 'Erp!Reset-5521def' }));
    expect(await unreadIds(c.omar, pwd)).toEqual([]);
  });

  it('stop when the owner withdraws the request', async () => {
    const id = await submit(c.alex, 'expense-reimbursement');
    expect(await unreadIds(c.priya, id)).toHaveLength(1);
    await ok(c.alex.post(`/api/forms/expense-reimbursement/${id}/withdraw`, {}));
    expect(await unreadIds(c.priya, id)).toEqual([]);
  });
});
