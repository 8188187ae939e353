// Unit tests of the approver-side rules: decidable stages and their messages, stage states, reasons,
// quick reasons, derived IT status, the manager's IT boxes and the audit history (step boxes and rejection
// reasons: status.test.ts).
import { describe, expect, it } from 'vitest';
import {
  QUICK_REJECTION_REASONS,
  buildHistory,
  checkStageDecidable,
  derivedItSupportStatus,
  facilitiesManagerActionable,
  financeActionable,
  formatWait,
  isManagerQueueType,
  managerItSteps,
  normaliseFormType,
  quickRejectionReasons,
  reasonSetFor,
  rejectionReasonError,
  stageState,
} from './approvals';

describe('checkStageDecidable', () => {
  it('finance only after the line manager approved and while finance is pending', () => {
    expect(
      checkStageDecidable(
        { form_type: 'petty-cash', status: 'Pending', line_manager_approval: 'Pending', finance_approval: 'Pending' },
        'finance',
      ),
    ).toEqual({ ok: false, status: 409, message: 'Finance can only decide after the line manager has approved' });
    expect(
      checkStageDecidable(
        { form_type: 'petty-cash', status: 'Pending', line_manager_approval: 'Approved', finance_approval: 'Pending' },
        'finance',
      ).ok,
    ).toBe(true);
    expect(
      checkStageDecidable(
        { form_type: 'petty-cash', status: 'Pending', line_manager_approval: 'Approved', finance_approval: '' },
        'finance',
      ).ok,
    ).toBe(true);
    expect(
      checkStageDecidable(
        { form_type: 'petty-cash', status: 'Approved', line_manager_approval: 'Approved', finance_approval: 'Approved' },
        'finance',
      ).message,
    ).toBe('This request has already been decided');
    expect(
      checkStageDecidable(
        { form_type: 'petty-cash', status: 'Rejected', line_manager_approval: 'Rejected', finance_approval: 'Pending' },
        'finance',
      ).message,
    ).toBe('This request was already rejected by the line manager; no further action is needed');
  });
  it('the facilities manager only after the desk approved', () => {
    const base = { form_type: 'facility-access', status: 'Pending' };
    expect(facilitiesManagerActionable({ ...base, facilities_desk_approval: 'Pending', facilities_manager_approval: 'Pending' })).toBe(
      false,
    );
    expect(facilitiesManagerActionable({ ...base, facilities_desk_approval: 'Approved', facilities_manager_approval: 'Pending' })).toBe(
      true,
    );
    expect(facilitiesManagerActionable({ ...base, facilities_desk_approval: 'Approved', facilities_manager_approval: 'Approved' })).toBe(
      false,
    );
    expect(checkStageDecidable({ ...base, facilities_desk_approval: 'Pending' }, 'facilities_manager').message).toBe(
      'The facilities manager can only decide after the facilities desk has approved',
    );
  });
  it('refuses stages the type does not have and withdrawn requests', () => {
    expect(checkStageDecidable({ form_type: 'info-update', status: 'Pending' }, 'line_manager')).toMatchObject({ ok: false, status: 400 });
    expect(
      checkStageDecidable({ form_type: 'expense-reimbursement', status: 'Cancelled', line_manager_approval: 'Pending' }, 'line_manager')
        .message,
    ).toBe('This request has been withdrawn by the employee');
  });
  it('financeActionable mirrors the spec rule', () => {
    expect(financeActionable({ form_type: 'travel-request', status: 'Pending', line_manager_approval: 'Approved' })).toBe(true);
    expect(financeActionable({ form_type: 'travel-request', status: 'Pending', line_manager_approval: 'Pending' })).toBe(false);
  });
});

describe('stageState', () => {
  it('is the decision, Pending while open, Closed when the chain ended before the stage', () => {
    expect(stageState({ status: 'Pending', finance_approval: 'Pending' }, 'finance')).toBe('Pending');
    expect(stageState({ status: 'Pending' }, 'finance')).toBe('Pending');
    expect(stageState({ status: 'Rejected', finance_approval: 'Pending' }, 'finance')).toBe('Closed');
    expect(stageState({ status: 'Approved', finance_approval: 'Approved' }, 'finance')).toBe('Approved');
    expect(stageState({ status: 'Rejected', finance_approval: 'Rejected' }, 'finance')).toBe('Rejected');
    expect(stageState({ status: 'Cancelled', line_manager_approval: 'Pending' }, 'line_manager')).toBe('Closed');
    // an earlier stage rejected even where the status was not updated (re-exported from status.ts)
    expect(
      stageState({ form_type: 'leave-request', status: 'Pending', line_manager_approval: 'Rejected', hr_approval: 'Pending' }, 'hr'),
    ).toBe('Closed');
  });
});

describe('rejection reasons', () => {
  it('requires a trimmed reason of at most 300 characters; HR may send none', () => {
    expect(rejectionReasonError('Rejected', '', 'line_manager')).toBe('Please give a reason for the rejection');
    expect(rejectionReasonError('Rejected', '   ', 'finance')).toBe('Please give a reason for the rejection');
    expect(rejectionReasonError('Rejected', '', 'hr')).toBeNull();
    expect(rejectionReasonError('Rejected', 'a'.repeat(300), 'line_manager')).toBeNull();
    expect(rejectionReasonError('Rejected', 'a'.repeat(301), 'line_manager')).toBe('The rejection reason can have at most 300 characters');
    expect(rejectionReasonError('Approved', undefined, 'line_manager')).toBeNull();
  });
  it('offers five quick reasons each for leave, travel, expense, petty cash, IT access, facility access, password reset, meeting room, plus a default set', () => {
    for (const set of Object.values(QUICK_REJECTION_REASONS)) {
      expect(set).toHaveLength(5);
      for (const r of set) expect(r.length).toBeLessThanOrEqual(300);
    }
    expect(Object.keys(QUICK_REJECTION_REASONS).sort()).toEqual([
      'default',
      'expense',
      'facility-access',
      'it-access',
      'leave',
      'meeting-room',
      'password-reset',
      'petty-cash',
      'travel',
    ]);
    expect(reasonSetFor('leave-request')).toBe('leave');
    expect(reasonSetFor('travel-request')).toBe('travel');
    expect(reasonSetFor('purchase-requisition')).toBe('expense');
    expect(reasonSetFor('petty-cash')).toBe('petty-cash');
    expect(reasonSetFor('it-access')).toBe('it-access');
    // Each form type its own: facility access never offers IT-access reasons.
    expect(reasonSetFor('facility-access')).toBe('facility-access');
    expect(reasonSetFor('password-reset')).toBe('password-reset');
    for (const r of quickRejectionReasons('facility-access')) expect(QUICK_REJECTION_REASONS['it-access']).not.toContain(r);
    expect(reasonSetFor('meeting-room')).toBe('meeting-room');
    expect(reasonSetFor('nda-request')).toBe('default');
    expect(quickRejectionReasons('Leave Request')).toBe(QUICK_REJECTION_REASONS.leave);
  });
});

describe('normaliseFormType', () => {
  it('maps free text to form types', () => {
    expect(normaliseFormType('Leave')).toBe('leave-request');
    expect(normaliseFormType('Meeting Room Booking')).toBe('meeting-room');
    expect(normaliseFormType('booking')).toBe('meeting-room');
    expect(normaliseFormType('Travel')).toBe('travel-request');
    expect(normaliseFormType('Petty Cash')).toBe('petty-cash');
    expect(normaliseFormType('cash')).toBe('petty-cash');
    expect(normaliseFormType('Exit Clearance')).toBe('exit-clearance');
    expect(normaliseFormType('IT Ticket')).toBe('it-incident');
    expect(normaliseFormType('employee-info-update')).toBe('info-update');
    expect(normaliseFormType('purchase-requisition')).toBe('purchase-requisition');
  });
  it('manager queue types: every type with a line-manager stage plus the view-only IT types', () => {
    expect(isManagerQueueType('leave-request')).toBe(true);
    expect(isManagerQueueType('expense-reimbursement')).toBe(true);
    expect(isManagerQueueType('it-incident')).toBe(true);
    expect(isManagerQueueType('password-reset')).toBe(true);
    expect(isManagerQueueType('info-update')).toBe(false);
    expect(isManagerQueueType('meeting-room')).toBe(false);
  });
});

describe('derivedItSupportStatus', () => {
  it('derives In Progress / Closed / Completed / Rejected from the status, Details Filled, else Pending', () => {
    expect(derivedItSupportStatus({ status: 'In Progress' })).toBe('In Progress');
    expect(derivedItSupportStatus({ status: 'Closed' })).toBe('Closed');
    expect(derivedItSupportStatus({ status: 'Completed' })).toBe('Completed');
    expect(derivedItSupportStatus({ status: 'Rejected' })).toBe('Rejected');
    expect(derivedItSupportStatus({ status: 'Open', it_helpdesk_ticket_number: 'T-1', incident_description: 'x' })).toBe('Details Filled');
    expect(derivedItSupportStatus({ status: 'Pending', new_password: 'p', it_helpdesk_reset_by: 'Lena' })).toBe('Details Filled');
    expect(derivedItSupportStatus({ status: 'Pending', has_new_password: true, it_helpdesk_reset_by: 'Lena' })).toBe('Details Filled');
    expect(derivedItSupportStatus({ status: 'Open', it_helpdesk_ticket_number: 'T-1' })).toBe('Pending');
    expect(derivedItSupportStatus({ status: 'Open' })).toBe('Pending');
  });
});

describe('managerItSteps', () => {
  it('shows the acknowledgement and the derived IT support status', () => {
    const steps = managerItSteps({
      form_type: 'password-reset',
      status: 'Pending',
      line_manager_acknowledgement: true,
      line_manager_signature: 'Priya Sharma',
    });
    expect(steps.map((s) => [s.label, s.value, s.colour, s.signer])).toEqual([
      ['Manager Acknowledgement', 'Approved', 'green', 'Priya Sharma'],
      ['IT Support', 'Pending', 'yellow', null],
    ]);
    const filled = managerItSteps({
      form_type: 'it-incident',
      status: 'Open',
      it_helpdesk_ticket_number: 'T-1',
      incident_description: 'x',
    });
    expect(filled.map((s) => [s.value, s.colour])).toEqual([
      ['Pending', 'yellow'],
      ['Details Filled', 'yellow'],
    ]);
  });
});

describe('history', () => {
  it('summarises events and measures how long each stage waited', () => {
    const h = buildHistory([
      {
        event_type: 'submitted',
        stage: null,
        field: 'status',
        old_value: null,
        new_value: 'Pending',
        actor_name: 'Alex Johnson',
        details: {},
        created_at: '2030-01-01T09:00:00.000Z',
      },
      {
        event_type: 'decision',
        stage: 'line_manager',
        field: 'line_manager_approval',
        old_value: 'Pending',
        new_value: 'Approved',
        actor_name: 'Priya Sharma',
        details: {},
        created_at: '2030-01-01T11:30:00.000Z',
      },
      {
        event_type: 'decision',
        stage: 'finance',
        field: 'finance_approval',
        old_value: 'Pending',
        new_value: 'Rejected',
        actor_name: 'Arjun Mehta',
        details: { rejection_reason: 'Over budget' },
        created_at: '2030-01-03T11:30:00.000Z',
      },
    ]);
    expect(h.map((e) => e.summary)).toEqual([
      'Submitted by Alex Johnson',
      'Approved by Priya Sharma (Line Manager)',
      'Rejected by Arjun Mehta (Finance): Over budget',
    ]);
    expect(h.map((e) => e.waited_ms)).toEqual([null, 2.5 * 3_600_000, 48 * 3_600_000]);
    expect(formatWait(h[1].waited_ms)).toBe('2 h 30 min');
    expect(formatWait(h[2].waited_ms)).toBe('2 d');
    expect(formatWait(30_000)).toBe('under a minute');
    expect(formatWait(null)).toBe('');
  });
});

describe('withdrawn requests', () => {
  it('no stage of a withdrawn request is decidable, whatever its rows say', () => {
    for (const status of ['Cancelled', 'cancelled', 'Withdrawn']) {
      expect(
        checkStageDecidable({ form_type: 'petty-cash', status, line_manager_approval: 'Approved', finance_approval: 'Pending' }, 'finance'),
      ).toEqual({ ok: false, status: 409, message: 'This request has been withdrawn by the employee' });
      expect(
        stageState({ form_type: 'petty-cash', status, line_manager_approval: 'Approved', finance_approval: 'Pending' }, 'finance'),
      ).toBe('Closed');
    }
  });
});
