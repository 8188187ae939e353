// Unit tests of the IT support rules: buckets and tiles, button labels, the ticket-save plan, the
// employee's answer, password-reset states and the derived status texts of the spec.
import { describe, expect, it } from 'vitest';
import {
  awaitingItUpdate,
  awaitsEmployeeConfirmation,
  confirmationMessages,
  derivedItSupportStatus,
  employeeMayRespond,
  employeeResponseRefusal,
  incidentActionLabel,
  incidentSteps,
  itAlerts,
  itSupportStatusOf,
  itBucket,
  itDisplayStatus,
  itSummary,
  matchesItFilter,
  mayCloseTicket,
  maySetPassword,
  passwordResetStep,
  planTicketSave,
  setPasswordRefusal,
} from './it';
import { WITHDRAWN_MESSAGE, itIncidentNextStage, passwordResetNextStage } from './status';

const inc = (o: Record<string, unknown> = {}) => ({ form_type: 'it-incident', status: 'Open', ...o });
const pwd = (o: Record<string, unknown> = {}) => ({
  form_type: 'password-reset',
  status: 'Pending',
  it_support_status: 'Pending Manager',
  ...o,
});

describe('IT dashboard buckets, filter and tiles', () => {
  it('puts incidents under Open (Open, In Progress), Resolved, Closed (Closed, Rejected)', () => {
    expect(itBucket(inc())).toBe('Open');
    expect(itBucket(inc({ status: 'In Progress' }))).toBe('Open');
    expect(itBucket(inc({ status: 'Resolved' }))).toBe('Resolved');
    expect(itBucket(inc({ status: 'Resolved', employee_confirmation_status: 'Confirmed' }))).toBe('Resolved');
    expect(itBucket(inc({ status: 'Closed' }))).toBe('Closed');
    expect(itBucket(inc({ status: 'Rejected' }))).toBe('Closed');
  });

  it('puts password resets by IT support status: waiting = Open, Password Set = Resolved, Completed/Rejected = Closed', () => {
    expect(itBucket(pwd())).toBe('Open');
    expect(itBucket(pwd({ it_support_status: 'Pending IT Action' }))).toBe('Open');
    expect(itBucket(pwd({ it_support_status: undefined }))).toBe('Open');
    expect(itBucket(pwd({ it_support_status: 'Password Set' }))).toBe('Resolved');
    expect(itBucket(pwd({ it_support_status: 'Completed', status: 'Completed' }))).toBe('Closed');
    expect(itBucket(pwd({ status: 'Rejected', it_support_status: 'Pending IT Action' }))).toBe('Closed');
  });

  it('filters All / Open / Resolved / Closed and counts the tiles over the loaded tickets', () => {
    const list = [
      inc(),
      inc({ status: 'In Progress' }),
      inc({ status: 'Resolved' }),
      inc({ status: 'Closed' }),
      pwd(),
      pwd({ it_support_status: 'Password Set' }),
    ];
    expect(list.filter((t) => matchesItFilter(t, 'All'))).toHaveLength(6);
    expect(list.filter((t) => matchesItFilter(t, 'Open'))).toHaveLength(3);
    expect(list.filter((t) => matchesItFilter(t, 'Resolved'))).toHaveLength(2);
    expect(list.filter((t) => matchesItFilter(t, 'Closed'))).toHaveLength(1);
    expect(itSummary(list)).toEqual({ Open: 3, Resolved: 2, Closed: 1, Total: 6 });
    expect(itSummary([])).toEqual({ Open: 0, Resolved: 0, Closed: 0, Total: 0 });
  });

  it('shows the incident status, or the reset IT support status, in the Status column', () => {
    expect(itDisplayStatus(inc({ status: 'In Progress' }))).toBe('In Progress');
    expect(itDisplayStatus(pwd({ it_support_status: 'Pending IT Action' }))).toBe('Pending IT Action');
    expect(itDisplayStatus(pwd({ status: 'Rejected' }))).toBe('Rejected');
  });
});

describe('incident actions', () => {
  it("labels the open ticket's button Fill Details, Update Details or Update Resolution", () => {
    expect(incidentActionLabel(inc())).toBe('Fill Details');
    expect(incidentActionLabel(inc({ it_helpdesk_ticket_number: '  ' }))).toBe('Fill Details');
    expect(incidentActionLabel(inc({ status: 'In Progress', it_helpdesk_ticket_number: 'T-1' }))).toBe('Update Details');
    expect(incidentActionLabel(inc({ it_helpdesk_ticket_number: 'T-1', employee_confirmation_status: 'Rejected' }))).toBe(
      'Update Resolution',
    );
    expect(incidentActionLabel(inc({ status: 'Resolved', it_helpdesk_ticket_number: 'T-1' }))).toBeNull();
    expect(incidentActionLabel(inc({ status: 'Closed' }))).toBeNull();
    expect(incidentActionLabel(pwd())).toBeNull();
  });

  it('waits for the employee while Resolved and unanswered; closes only once confirmed', () => {
    const resolved = inc({
      status: 'Resolved',
      it_helpdesk_ticket_number: 'T-1',
      it_resolution_notes: 'fixed',
      employee_confirmation_status: 'Pending',
    });
    expect(awaitsEmployeeConfirmation(resolved)).toBe(true);
    expect(employeeMayRespond(resolved)).toBe(true);
    expect(employeeMayRespond({ ...resolved, it_resolution_notes: '' })).toBe(false);
    expect(employeeMayRespond({ ...resolved, employee_confirmation_status: 'Confirmed' })).toBe(false);
    expect(mayCloseTicket(resolved)).toBe(false);
    expect(mayCloseTicket({ ...resolved, employee_confirmation_status: 'Confirmed' })).toBe(true);
    expect(mayCloseTicket({ ...resolved, status: 'Closed', employee_confirmation_status: 'Confirmed' })).toBe(false);
    expect(awaitingItUpdate(inc({ employee_confirmation_status: 'Rejected' }))).toBe(true);
    expect(awaitingItUpdate(inc({ status: 'In Progress', employee_confirmation_status: 'Rejected' }))).toBe(false);
  });
});

describe('planTicketSave', () => {
  it('requires a (trimmed) ticket number', () => {
    expect(planTicketSave(inc(), { ticketNumber: '   ', resolutionNotes: 'x' })).toEqual({
      ok: false,
      code: 400,
      error: 'IT Ticket Number is required',
    });
  });

  it('keeps an open ticket Open without notes and makes it Resolved (confirmation Pending) with notes', () => {
    expect(planTicketSave(inc(), { ticketNumber: 'T-1', resolutionNotes: null })).toMatchObject({
      ok: true,
      status: 'Open',
      resolved: false,
      employeeConfirmationStatus: 'Pending',
    });
    expect(planTicketSave(inc(), { ticketNumber: 'T-1', resolutionNotes: '  ' })).toMatchObject({ ok: true, status: 'Open' });
    // a ticket stored 'In Progress' by an older version is saved back to Open
    expect(planTicketSave(inc({ status: 'In Progress' }), { ticketNumber: 'T-1', resolutionNotes: null })).toMatchObject({
      ok: true,
      status: 'Open',
    });
    expect(planTicketSave(inc({ status: 'In Progress' }), { ticketNumber: 'T-1', resolutionNotes: 'Replaced cable' })).toMatchObject({
      ok: true,
      status: 'Resolved',
      resolved: true,
      employeeConfirmationStatus: 'Pending',
    });
  });

  it('after a rejection keeps the Rejected mark until a new resolution is offered', () => {
    const rejected = inc({ it_helpdesk_ticket_number: 'T-1', employee_confirmation_status: 'Rejected' });
    expect(planTicketSave(rejected, { ticketNumber: 'T-1', resolutionNotes: null })).toMatchObject({
      status: 'Open',
      employeeConfirmationStatus: 'Rejected',
    });
    expect(planTicketSave(rejected, { ticketNumber: 'T-1', resolutionNotes: 'Second fix' })).toMatchObject({
      status: 'Resolved',
      employeeConfirmationStatus: 'Pending',
    });
  });

  it('refuses tickets that are not open with 409', () => {
    for (const r of [
      inc({ status: 'Resolved' }),
      inc({ status: 'Resolved', employee_confirmation_status: 'Confirmed' }),
      inc({ status: 'Closed' }),
      inc({ status: 'Rejected' }),
    ]) {
      const p = planTicketSave(r, { ticketNumber: 'T-1', resolutionNotes: 'x' });
      expect(p.ok).toBe(false);
      if (!p.ok) expect(p.code).toBe(409);
    }
  });
});

describe("the employee's answer", () => {
  it('is allowed only while Resolved and unanswered', () => {
    expect(employeeResponseRefusal(inc({ status: 'Resolved', employee_confirmation_status: 'Pending' }))).toBeNull();
    expect(employeeResponseRefusal(inc({ status: 'Resolved' }))).toBeNull();
    expect(employeeResponseRefusal(inc({ status: 'Open' }))).toMatch(/not resolved/);
    expect(employeeResponseRefusal(inc({ status: 'Closed' }))).toMatch(/not resolved/);
    expect(employeeResponseRefusal(inc({ status: 'Resolved', employee_confirmation_status: 'Confirmed' }))).toMatch(/already confirmed/);
    expect(employeeResponseRefusal(inc({ status: 'Resolved', employee_confirmation_status: 'Rejected' }))).toMatch(/already reported/);
    expect(employeeResponseRefusal(pwd())).toMatch(/Only IT incidents/);
  });

  it('has the spec texts for success and failure', () => {
    expect(confirmationMessages.confirmed('T-9')).toBe('✅ Problem confirmed as solved!\n\nTicket: T-9\n\nThe ticket is now closed.');
    expect(confirmationMessages.rejected('T-9')).toBe(
      '❌ Resolution rejected!\n\nTicket: T-9\n\nIT Support will continue working on this ticket.',
    );
    expect(confirmationMessages.failed('confirm', 'boom')).toBe('❌ Failed to confirm resolution:\nboom');
    expect(confirmationMessages.failed('reject', '')).toBe('❌ Failed to reject resolution:\nUnknown error');
    expect(confirmationMessages.network('reject')).toBe('❌ Failed to reject resolution. Please try again.');
    expect(itAlerts.ticketSaveFailed(undefined)).toBe('Failed to save details: Unknown error');
    expect(itAlerts.passwordSaveFailed('nope')).toBe('Failed to save password reset details: nope');
  });
});

describe('password resets', () => {
  it('offers Set New Password only while Pending IT Action', () => {
    expect(maySetPassword(pwd({ it_support_status: 'Pending IT Action' }))).toBe(true);
    expect(setPasswordRefusal(pwd({ it_support_status: 'Pending IT Action' }))).toBeNull();
    expect(maySetPassword(pwd())).toBe(false);
    expect(setPasswordRefusal(pwd())).toMatch(/line manager/);
    expect(setPasswordRefusal(pwd({ it_support_status: 'Password Set' }))).toMatch(/already been set/);
    expect(setPasswordRefusal(pwd({ it_support_status: 'Completed' }))).toMatch(/already completed/);
    expect(setPasswordRefusal(pwd({ status: 'Rejected', it_support_status: 'Pending IT Action' }))).toMatch(/rejected/);
    expect(setPasswordRefusal(inc())).toMatch(/Only password reset/);
  });

  it('reads Rejected for a rejected reset, whatever IT support status was stored', () => {
    expect(itSupportStatusOf(pwd({ status: 'Rejected', it_support_status: 'Completed' }))).toBe('Rejected');
    expect(itSupportStatusOf(pwd({ status: 'Rejected' }))).toBe('Rejected');
    expect(itSupportStatusOf(pwd({ it_support_status: 'Completed', status: 'Completed' }))).toBe('Completed');
    expect(itSupportStatusOf(pwd())).toBe('Pending Manager');
    expect(
      passwordResetStep(pwd({ status: 'Rejected', it_support_status: 'Completed', it_helpdesk_rejected_reason: 'Retired' })).value,
    ).toBe('Rejected');
    expect(itBucket(pwd({ status: 'Rejected', it_support_status: 'Completed' }))).toBe('Closed');
  });

  it('shows one IT Helpdesk box: Completed, Rejected when a reason exists, else Pending', () => {
    expect(passwordResetStep(pwd({ status: 'Completed', it_support_status: 'Completed' })).value).toBe('Completed');
    expect(passwordResetStep(pwd({ it_helpdesk_rejected_reason: 'Retired' })).value).toBe('Rejected');
    expect(passwordResetStep(pwd({ it_helpdesk_rejected_reason: '' })).value).toBe('Pending');
  });

  it('gives the next-stage texts of the spec (status.ts) for each step', () => {
    expect(passwordResetNextStage(pwd())).toBe('Awaiting IT Support');
    expect(passwordResetNextStage(pwd({ it_support_status: 'Password Set', has_new_password: true }))).toBe(
      'Password Set - Awaiting Employee',
    );
    expect(passwordResetNextStage(pwd({ status: 'Completed', it_support_status: 'Completed', has_new_password: true }))).toBe(
      'Password Reset Completed',
    );
    expect(passwordResetNextStage(pwd({ status: 'Rejected' }))).toBe('Rejected');
  });
});

describe('derived texts', () => {
  it('derives the IT support status of the line manager view: from the status, else Details Filled, else Pending', () => {
    expect(derivedItSupportStatus(inc({ status: 'In Progress' }))).toBe('In Progress');
    expect(derivedItSupportStatus(inc({ status: 'Closed' }))).toBe('Closed');
    expect(derivedItSupportStatus(pwd({ status: 'Completed' }))).toBe('Completed');
    expect(derivedItSupportStatus(pwd({ status: 'Rejected' }))).toBe('Rejected');
    expect(derivedItSupportStatus(inc({ status: 'Resolved', it_helpdesk_ticket_number: 'T', incident_description: 'VPN' }))).toBe(
      'Details Filled',
    );
    expect(derivedItSupportStatus(pwd({ it_support_status: 'Password Set', has_new_password: true, it_helpdesk_reset_by: 'Lena' }))).toBe(
      'Details Filled',
    );
    expect(derivedItSupportStatus(pwd({ it_support_status: 'Password Set', has_new_password: true }))).toBe('Pending');
    expect(derivedItSupportStatus(inc({ incident_description: 'VPN' }))).toBe('Pending');
  });

  it('gives the incident next stage and employee steps', () => {
    expect(itIncidentNextStage(inc())).toBe('Awaiting IT Support');
    expect(itIncidentNextStage(inc({ it_helpdesk_ticket_number: 'T' }))).toBe('IT Processing');
    expect(itIncidentNextStage(inc({ status: 'In Progress', it_helpdesk_ticket_number: 'T' }))).toBe('IT Working on Resolution');
    expect(itIncidentNextStage(inc({ status: 'Closed' }))).toBe('Completed');
    expect(incidentSteps(inc())).toEqual([
      { label: 'IT Support Assignment', value: 'Pending' },
      { label: 'IT Support Resolution', value: 'Pending' },
    ]);
    expect(incidentSteps(inc({ status: 'Resolved', it_helpdesk_assigned_to: 'Lena' }))).toEqual([
      { label: 'IT Support Assignment', value: 'Assigned' },
      { label: 'IT Support Resolution', value: 'Resolved' },
    ]);
  });
});

describe('withdrawn IT requests (status Cancelled)', () => {
  it('are Closed on the IT dashboard, shown as Withdrawn, and nobody may work on them', () => {
    const inc = { form_type: 'it-incident', status: 'Cancelled' };
    const pr = { form_type: 'password-reset', status: 'Cancelled', it_support_status: 'Pending IT Action' };
    expect([itBucket(inc), itBucket(pr)]).toEqual(['Closed', 'Closed']);
    expect([itDisplayStatus(inc), itDisplayStatus(pr)]).toEqual(['Withdrawn', 'Withdrawn']);
    expect(planTicketSave(inc, { ticketNumber: 'T-1', resolutionNotes: null })).toEqual({ ok: false, code: 409, error: WITHDRAWN_MESSAGE });
    expect(maySetPassword(pr)).toBe(false);
    expect(setPasswordRefusal(pr)).toBe(WITHDRAWN_MESSAGE);
    expect(itSummary([inc, pr])).toMatchObject({ Open: 0, Closed: 2, Total: 2 });
  });
});
