// Change types, the dialog's change line and the titles of notifications.
import { describe, expect, it } from 'vitest';
import { approverTitle, changeLine, changeTypeOf, formTypeLabel, ownerTitle } from './notifications.js';

describe('changeTypeOf', () => {
  it('maps new values to the six change types', () => {
    expect(changeTypeOf('Approved')).toBe('approved');
    expect(changeTypeOf('true')).toBe('approved');
    expect(changeTypeOf('Rejected')).toBe('rejected');
    expect(changeTypeOf('Completed')).toBe('completed');
    expect(changeTypeOf('Closed')).toBe('completed');
    expect(changeTypeOf('In Progress')).toBe('in_progress');
    expect(changeTypeOf('Pending IT Action')).toBe('in_progress');
    expect(changeTypeOf('Pending')).toBe('pending');
    expect(changeTypeOf('Open')).toBe('pending');
    expect(changeTypeOf('TICKET-2026-001')).toBe('other');
  });
});

describe('texts', () => {
  it("writes '{approval stage} changed from {old} to {new}'", () => {
    expect(changeLine({ approval_field: 'line_manager_approval', old_value: 'Pending', new_value: 'Approved' })).toBe(
      'Line Manager Approval changed from Pending to Approved',
    );
    expect(changeLine({ approval_field: 'line_manager_acknowledgement', old_value: 'false', new_value: 'true' })).toBe(
      'Line Manager Acknowledgement changed from Rejected to Approved',
    );
    // No raw 'None': a first value is 'set to', a removed one 'cleared'.
    expect(changeLine({ approval_field: 'status', old_value: null, new_value: 'Open' })).toBe('Status set to Open');
    expect(changeLine({ approval_field: 'it_helpdesk_ticket_number', old_value: 'T-1', new_value: '' })).toBe(
      'IT Ticket Number cleared (was T-1)',
    );
  });
  it('titles owner and approver notifications', () => {
    expect(ownerTitle({ formType: 'leave-request', requestId: 'LR-000001', field: 'hr_approval', stage: 'hr', newValue: 'Rejected' })).toBe(
      'Leave Request LR-000001 rejected by HR',
    );
    expect(
      ownerTitle({ formType: 'it-incident', requestId: 'INC-000002', field: 'status', stage: 'it_helpdesk', newValue: 'In Progress' }),
    ).toBe('IT Incident INC-000002 is now In Progress');
    expect(approverTitle({ formType: 'petty-cash', requestId: 'PC-000003', employeeName: 'Alex Johnson', stage: 'finance' })).toBe(
      'Petty Cash PC-000003 from Alex Johnson awaits finance review',
    );
    expect(formTypeLabel('employee-info-update')).toBe(formTypeLabel('info-update'));
  });
});
