// Unit tests of the status rules: every status bucket, badge and step colour, and every next-stage text, for the
// employee's and the approvers' views.
import { describe, expect, it } from 'vitest';
import {
  STATUS_FILTERS,
  acknowledgementText,
  CLOSED_STAGE_TEXT,
  approvalSteps,
  approvalText,
  chainOf,
  clearanceText,
  displayStatus,
  employeeNextStage,
  facilitiesNextStage,
  financeNextStage,
  genericNextStage,
  itIncidentNextStage,
  matchesStatusFilter,
  nextStageFor,
  passwordResetNextStage,
  rejectionReasonOf,
  statusBadgeColour,
  statusBucket,
  statusFilterCounts,
  stepColour,
  summaryKey,
} from './status';

describe('statusBucket (employee dashboard, case-insensitive)', () => {
  it.each([
    ['approved', 'Resolve'],
    ['Completed', 'Resolve'],
    ['CLOSED', 'Resolve'],
    ['Resolved', 'Resolve'],
    ['Updated', 'Update'],
    ['In Progress', 'In Progress'],
    ['assigned', 'In Progress'],
    ['Processing', 'In Progress'],
    ['Rejected', 'Close'],
    ['cancelled', 'Close'],
    ['Open', 'Open'],
    ['new', 'Open'],
    ['Pending', 'Pending'],
    ['Submitted', 'Pending'],
    ['something else', 'Pending'],
    ['', 'Pending'],
    [null, 'Pending'],
    [undefined, 'Pending'],
    ['  approved  ', 'Resolve'],
  ])('%s -> %s', (status, bucket) => {
    expect(statusBucket(status)).toBe(bucket);
  });
});

describe('status filter', () => {
  it('has the spec options in order', () => {
    expect(STATUS_FILTERS).toEqual(['All', 'Pending', 'Approved', 'Rejected', 'Open', 'Close', 'Resolve', 'Update', 'In Progress']);
  });

  it('Pending, Approved and Rejected match the raw status, not the bucket', () => {
    expect(matchesStatusFilter('Approved', 'Approved')).toBe(true);
    expect(matchesStatusFilter('Approved', 'approved')).toBe(true);
    expect(matchesStatusFilter('Approved', 'Completed')).toBe(false); // same bucket (Resolve), different raw status
    expect(matchesStatusFilter('Rejected', 'Cancelled')).toBe(false);
    expect(matchesStatusFilter('Rejected', 'Rejected')).toBe(true);
    expect(matchesStatusFilter('Pending', 'Submitted')).toBe(false);
    expect(matchesStatusFilter('Pending', 'Pending')).toBe(true);
    expect(matchesStatusFilter('Pending', null)).toBe(true); // missing status is Pending
  });

  it('the other options match the bucket', () => {
    expect(matchesStatusFilter('Resolve', 'Approved')).toBe(true);
    expect(matchesStatusFilter('Resolve', 'Closed')).toBe(true);
    expect(matchesStatusFilter('Close', 'Cancelled')).toBe(true);
    expect(matchesStatusFilter('Close', 'Rejected')).toBe(true);
    expect(matchesStatusFilter('Open', 'Open')).toBe(true);
    expect(matchesStatusFilter('Open', 'Pending')).toBe(false);
    expect(matchesStatusFilter('In Progress', 'Assigned')).toBe(true);
    expect(matchesStatusFilter('Update', 'Updated')).toBe(true);
    expect(matchesStatusFilter('All', 'anything')).toBe(true);
  });

  it('counts every option over a list', () => {
    const c = statusFilterCounts(['Pending', 'Approved', 'Rejected', 'Open', 'Cancelled', 'Resolved', 'In Progress', null]);
    expect(c).toEqual({ All: 8, Pending: 2, Approved: 1, Rejected: 1, Open: 1, Close: 2, Resolve: 2, Update: 0, 'In Progress': 1 });
  });
});

describe('display and summary', () => {
  it('missing status is Pending; others shown as they are', () => {
    expect(displayStatus(undefined)).toBe('Pending');
    expect(displayStatus('  ')).toBe('Pending');
    expect(displayStatus('In Progress')).toBe('In Progress');
  });
  it('summary counts approved and rejected, everything else as pending', () => {
    expect(summaryKey('Approved')).toBe('approved');
    expect(summaryKey('rejected')).toBe('rejected');
    for (const s of ['Pending', 'Open', 'Completed', 'Cancelled', null]) expect(summaryKey(s)).toBe('pending');
  });
});

describe('statusBadgeColour', () => {
  it.each([
    ['Approved', 'green'],
    ['Updated', 'green'],
    ['Closed', 'green'],
    ['Completed', 'green'],
    ['completed', 'green'],
    ['Rejected', 'red'],
    ['Pending', 'yellow'],
    ['Open', 'yellow'],
    ['Resolved', 'yellow'],
    ['Cancelled', 'yellow'],
    [null, 'yellow'],
  ])('%s -> %s', (s, c) => expect(statusBadgeColour(s)).toBe(c));
});

describe('stepColour', () => {
  const rows: Array<[unknown, string]> = [
    ...['approved', 'cleared', 'resolved', 'closed', 'completed', 'complete', 'true', 'yes', 'Approved', 'YES'].map(
      (v): [unknown, string] => [v, 'green'],
    ),
    [true, 'green'],
    ...['rejected', 'false', 'no', 'Rejected'].map((v): [unknown, string] => [v, 'red']),
    [false, 'red'],
    ...['Pending', '', 'Assigned', 'In Progress'].map((v): [unknown, string] => [v, 'yellow']),
    [null, 'yellow'],
    [undefined, 'yellow'],
  ];
  it.each(rows)('%s -> %s', (v, c) => expect(stepColour(v)).toBe(c));
});

describe('approval and acknowledgement texts', () => {
  it('acknowledgement: true Approved, false Rejected, else Pending', () => {
    expect(acknowledgementText(true)).toBe('Approved');
    expect(acknowledgementText('true')).toBe('Approved');
    expect(acknowledgementText(false)).toBe('Rejected');
    expect(acknowledgementText(null)).toBe('Pending');
    expect(acknowledgementText(undefined)).toBe('Pending');
  });
  it('approval: missing or empty is Pending', () => {
    expect(approvalText(undefined)).toBe('Pending');
    expect(approvalText('')).toBe('Pending');
    expect(approvalText('Approved')).toBe('Approved');
    expect(approvalText(true)).toBe('Approved');
    expect(approvalText(false)).toBe('Rejected');
  });
  it('exit clearance: false shows Pending, not Rejected', () => {
    expect(clearanceText(false)).toBe('Pending');
    expect(clearanceText(undefined)).toBe('Pending');
    expect(clearanceText(true)).toBe('Approved');
  });
});

describe('approval chains', () => {
  it('uses the chains of the form engine', () => {
    expect(chainOf('leave-request')).toEqual(['line_manager', 'hr']);
    expect(chainOf('facility-access')).toEqual(['facilities_desk', 'facilities_manager']);
    expect(chainOf('meeting-room')).toEqual(['facilities_desk', 'facilities_manager']);
    expect(chainOf('purchase-requisition')).toEqual(['line_manager', 'finance']);
    expect(chainOf('petty-cash')).toEqual(['line_manager', 'finance']);
    expect(chainOf('travel-request')).toEqual(['line_manager', 'finance']);
    expect(chainOf('info-update')).toEqual(['hr']);
    expect(chainOf('employee-info-update')).toEqual(['hr']);
    expect(chainOf('password-reset')).toEqual(['it_helpdesk']);
    expect(chainOf('expense-reimbursement')).toEqual(['line_manager']);
    expect(chainOf('something-unknown')).toEqual(['line_manager']);
  });
});

describe('approvalSteps', () => {
  it('facility access: desk then manager, with colours, signer and date', () => {
    const steps = approvalSteps({
      form_type: 'facility-access',
      facilities_desk_approval: 'Approved',
      facilities_desk_signature: 'Sofia Rossi',
      facilities_desk_date: '2027-01-02',
      facilities_manager_approval: 'Pending',
    });
    expect(steps.map((s) => [s.label, s.value, s.colour])).toEqual([
      ['Facilities Desk', 'Approved', 'green'],
      ['Facilities Manager', 'Pending', 'yellow'],
    ]);
    expect(steps[0].signer).toBe('Sofia Rossi');
    expect(steps[0].date).toBe('2027-01-02');
  });
  it('purchase requisition: line manager then finance; rejected is red', () => {
    const steps = approvalSteps({ form_type: 'purchase-requisition', line_manager_approval: 'Approved', finance_approval: 'Rejected' });
    expect(steps.map((s) => [s.label, s.colour])).toEqual([
      ['Line Manager', 'green'],
      ['Finance', 'red'],
    ]);
  });
  it('most types: the line manager decision only (missing shows Pending)', () => {
    expect(approvalSteps({ form_type: 'expense-reimbursement' }).map((s) => [s.label, s.value])).toEqual([['Line Manager', 'Pending']]);
  });
  it('leave: line manager then HR', () => {
    expect(
      approvalSteps({ form_type: 'leave-request', line_manager_approval: 'Approved', hr_approval: 'Pending' }).map((s) => s.label),
    ).toEqual(['Line Manager', 'HR']);
  });
  it('password reset: a single IT Helpdesk box (Completed, Rejected with a reason, else Pending)', () => {
    const box = (r: Record<string, unknown>) => approvalSteps({ form_type: 'password-reset', ...r });
    expect(box({ status: 'Completed' })).toEqual([expect.objectContaining({ label: 'IT Helpdesk', value: 'Completed', colour: 'green' })]);
    expect(box({ status: 'Pending', it_helpdesk_rejected_reason: 'Retired system' })).toEqual([
      expect.objectContaining({ value: 'Rejected', colour: 'red' }),
    ]);
    expect(box({ status: 'Pending', it_helpdesk_rejected_reason: '  ' })).toEqual([
      expect.objectContaining({ value: 'Pending', colour: 'yellow' }),
    ]);
  });
  it('IT incident: assignment and resolution, Open shown as Pending', () => {
    const steps = (r: Record<string, unknown>) => approvalSteps({ form_type: 'it-incident', ...r });
    expect(steps({ status: 'Open' }).map((s) => [s.label, s.value])).toEqual([
      ['IT Support Assignment', 'Pending'],
      ['IT Support Resolution', 'Pending'],
    ]);
    expect(steps({ status: 'Resolved', it_helpdesk_assigned_to: 'Omar Haddad' }).map((s) => [s.value, s.colour, s.signer])).toEqual([
      ['Assigned', 'yellow', 'Omar Haddad'],
      ['Resolved', 'green', null],
    ]);
    expect(steps({ status: 'Closed', it_helpdesk_assigned_to: 'Lena' })[1]).toMatchObject({ value: 'Closed', colour: 'green' });
  });
  it('exit clearance: clearance flags with false as Pending', () => {
    const steps = approvalSteps({
      form_type: 'exit-clearance',
      line_manager_approval: 'Approved',
      it_clearance: false,
      finance_clearance: true,
    });
    expect(steps.map((s) => [s.label, s.value, s.colour])).toEqual([
      ['Line Manager', 'Approved', 'green'],
      ['IT Clearance', 'Pending', 'yellow'],
      ['Finance Clearance', 'Approved', 'green'],
    ]);
  });
  it('a stage never reached (earlier rejection or withdrawn) is a grey No Further Action box, not a yellow Pending', () => {
    const rejected = {
      form_type: 'purchase-requisition',
      status: 'Rejected',
      line_manager_approval: 'Rejected',
      line_manager_signature: 'Priya Sharma',
      finance_approval: 'Pending',
    };
    expect(approvalSteps(rejected).map((s) => [s.label, s.value, s.colour])).toEqual([
      ['Line Manager', 'Rejected', 'red'],
      ['Finance', CLOSED_STAGE_TEXT, 'grey'],
    ]);
    // the earlier rejection alone closes the later stage, whatever the status says
    const leave = approvalSteps({ form_type: 'leave-request', line_manager_approval: 'Rejected', hr_approval: 'Pending' });
    expect(leave.map((s) => [s.value, s.colour])).toEqual([
      ['Rejected', 'red'],
      [CLOSED_STAGE_TEXT, 'grey'],
    ]);
    const withdrawn = approvalSteps({
      form_type: 'leave-request',
      status: 'Cancelled',
      line_manager_approval: 'Pending',
      hr_approval: 'Pending',
    });
    expect(withdrawn.map((s) => [s.value, s.colour])).toEqual([
      [CLOSED_STAGE_TEXT, 'grey'],
      [CLOSED_STAGE_TEXT, 'grey'],
    ]);
    expect(CLOSED_STAGE_TEXT).toBe('No Further Action');
  });
  it('approvers read the finance chain as Manager Decision then Finance, with stages on the boxes', () => {
    const steps = approvalSteps(
      {
        form_type: 'purchase-requisition',
        status: 'Rejected',
        line_manager_approval: 'Rejected',
        line_manager_signature: 'Priya Sharma',
        finance_approval: 'Pending',
      },
      { audience: 'approver' },
    );
    expect(steps.map((s) => [s.stage, s.label, s.value, s.colour, s.signer])).toEqual([
      ['line_manager', 'Manager Decision', 'Rejected', 'red', 'Priya Sharma'],
      ['finance', 'Finance', CLOSED_STAGE_TEXT, 'grey', null],
    ]);
    const fac = approvalSteps(
      { form_type: 'meeting-room', status: 'Pending', facilities_desk_approval: 'Approved', facilities_manager_approval: 'Pending' },
      { audience: 'approver' },
    );
    expect(fac.map((s) => [s.label, s.colour])).toEqual([
      ['Facilities Desk', 'green'],
      ['Facilities Manager', 'yellow'],
    ]);
    expect(approvalSteps({ form_type: 'leave-request' }, { audience: 'approver' }).map((s) => s.label)).toEqual(['Line Manager', 'HR']);
  });
});

describe('rejectionReasonOf', () => {
  it('reads the named fields first, then any *_rejected_reason; blank is none', () => {
    expect(rejectionReasonOf({ line_manager_rejected_reason: '', finance_rejected_reason: 'Budget' })).toBe('Budget');
    expect(rejectionReasonOf({ hr_rejected_reason: 'Blackout', line_manager_rejected_reason: 'Busy' })).toBe('Busy');
    expect(rejectionReasonOf({ legal_rejected_reason: 'Wrong party' })).toBe('Wrong party');
    expect(rejectionReasonOf({ line_manager_rejected_reason: '   ' })).toBeNull();
    expect(rejectionReasonOf({})).toBeNull();
    expect(rejectionReasonOf({ form_type: 'petty-cash', line_manager_rejected_reason: '', finance_rejected_reason: 'Over budget' })).toBe(
      'Over budget',
    );
    expect(rejectionReasonOf({ form_type: 'petty-cash', line_manager_rejected_reason: '  ' })).toBeNull();
    expect(rejectionReasonOf({ form_type: 'x', it_helpdesk_rejected_reason: 'No' })).toBe('No');
  });
});

describe('next stage', () => {
  it('facilities: Facilities Desk, Facilities Manager, Completed, Rejected - No Further Action', () => {
    expect(facilitiesNextStage({ facilities_desk_approval: 'Pending', facilities_manager_approval: 'Pending' })).toBe('Facilities Desk');
    expect(facilitiesNextStage({})).toBe('Facilities Desk');
    expect(facilitiesNextStage({ facilities_desk_approval: 'Approved', facilities_manager_approval: 'Pending' })).toBe(
      'Facilities Manager',
    );
    expect(facilitiesNextStage({ facilities_desk_approval: 'Approved', facilities_manager_approval: 'Approved' })).toBe('Completed');
    expect(facilitiesNextStage({ facilities_desk_approval: 'Rejected', facilities_manager_approval: 'Pending' })).toBe(
      'Rejected - No Further Action',
    );
    expect(facilitiesNextStage({ facilities_desk_approval: 'Approved', facilities_manager_approval: 'Rejected' })).toBe(
      'Rejected - No Further Action',
    );
  });

  it('generic with HR stage: Awaiting Manager Approval, HR Review, Completed, Processing', () => {
    const leave = (lm: string, hr: string) => genericNextStage({ form_type: 'leave-request', line_manager_approval: lm, hr_approval: hr });
    expect(leave('Pending', 'Pending')).toBe('Awaiting Manager Approval');
    expect(leave('', '')).toBe('Awaiting Manager Approval');
    expect(leave('Approved', 'Pending')).toBe('HR Review');
    expect(leave('Approved', 'Approved')).toBe('Completed');
    expect(leave('Approved', 'Rejected')).toBe('Processing');
    expect(leave('Rejected', 'Pending')).toBe('Processing');
  });

  it('generic without HR stage: manager approved is Completed', () => {
    expect(genericNextStage({ form_type: 'expense-reimbursement', line_manager_approval: 'Pending' })).toBe('Awaiting Manager Approval');
    expect(genericNextStage({ form_type: 'expense-reimbursement', line_manager_approval: 'Approved' })).toBe('Completed');
    expect(genericNextStage({ form_type: 'training-request', line_manager_approval: 'Approved' })).toBe('Completed');
    expect(genericNextStage({ form_type: 'expense-reimbursement', line_manager_approval: 'Rejected' })).toBe('Processing');
  });

  it('info update (HR only): HR Review, Completed, Processing; employee wording HR, Completed, Rejected - No Further Action', () => {
    expect(genericNextStage({ form_type: 'info-update', hr_approval: 'Pending' })).toBe('HR Review');
    expect(genericNextStage({ form_type: 'employee-info-update', hr_approval: 'Approved' })).toBe('Completed');
    expect(genericNextStage({ form_type: 'info-update', hr_approval: 'Rejected' })).toBe('Processing');
    expect(employeeNextStage({ form_type: 'info-update', hr_approval: 'Pending' })).toBe('HR');
    expect(employeeNextStage({ form_type: 'info-update', hr_approval: 'Approved' })).toBe('Completed');
    expect(employeeNextStage({ form_type: 'info-update', hr_approval: 'Rejected' })).toBe('Rejected - No Further Action');
  });

  it('finance: Awaiting Manager Approval, Finance Review, Completed, Processing', () => {
    expect(financeNextStage({ line_manager_approval: 'Pending', finance_approval: 'Pending' })).toBe('Awaiting Manager Approval');
    expect(financeNextStage({ line_manager_approval: 'Approved', finance_approval: '' })).toBe('Finance Review');
    expect(financeNextStage({ line_manager_approval: 'Approved', finance_approval: 'Approved' })).toBe('Completed');
    expect(financeNextStage({ line_manager_approval: 'Approved', finance_approval: 'Rejected' })).toBe('Processing');
    expect(financeNextStage({ line_manager_approval: 'Rejected', finance_approval: 'Pending' })).toBe('Processing');
  });

  it('IT incident: Completed, Rejected, IT Working on Resolution, IT Processing, Awaiting IT Support', () => {
    expect(itIncidentNextStage({ status: 'Closed' })).toBe('Completed');
    expect(itIncidentNextStage({ status: 'Rejected' })).toBe('Rejected');
    expect(itIncidentNextStage({ status: 'In Progress', it_helpdesk_ticket_number: 'T-1' })).toBe('IT Working on Resolution');
    expect(itIncidentNextStage({ status: 'Resolved', it_helpdesk_ticket_number: 'T-1' })).toBe('IT Processing');
    expect(itIncidentNextStage({ status: 'Open' })).toBe('Awaiting IT Support');
  });

  it('password reset: Completed, Rejected, Password Set - Awaiting Employee, Awaiting IT Support', () => {
    expect(passwordResetNextStage({ status: 'Completed' })).toBe('Password Reset Completed');
    expect(passwordResetNextStage({ status: 'Pending', it_support_status: 'Completed' })).toBe('Password Reset Completed');
    expect(passwordResetNextStage({ status: 'Rejected', it_support_status: 'Completed' })).toBe('Rejected');
    expect(passwordResetNextStage({ status: 'Pending', it_helpdesk_rejected_reason: 'No' })).toBe('Rejected');
    expect(passwordResetNextStage({ status: 'Pending', has_new_password: true })).toBe('Password Set - Awaiting Employee');
    expect(passwordResetNextStage({ status: 'Pending', new_password: 'x' })).toBe('Password Set - Awaiting Employee');
    expect(passwordResetNextStage({ status: 'Pending' })).toBe('Awaiting IT Support');
  });

  it('nextStageFor picks the rule of the form type; withdrawn requests read Withdrawn', () => {
    expect(nextStageFor({ form_type: 'meeting-room', facilities_desk_approval: 'Approved', facilities_manager_approval: 'Pending' })).toBe(
      'Facilities Manager',
    );
    expect(nextStageFor({ form_type: 'petty-cash', line_manager_approval: 'Approved', finance_approval: 'Pending' })).toBe(
      'Finance Review',
    );
    expect(nextStageFor({ form_type: 'expense-reimbursement', line_manager_approval: 'Approved' })).toBe('Completed');
    expect(nextStageFor({ form_type: 'leave-request', line_manager_approval: 'Rejected', hr_approval: 'Pending' })).toBe(
      'Rejected - No Further Action',
    );
    expect(nextStageFor({ form_type: 'it-incident', status: 'Open' })).toBe('Awaiting IT Support');
    expect(nextStageFor({ form_type: 'facility-access', status: 'Cancelled', facilities_desk_approval: 'Pending' })).toBe('Withdrawn');
    expect(nextStageFor({ form_type: 'leave-request', status: 'Cancelled' })).toBe('Withdrawn');
  });
});
