// The form-type table and the schemas built from it.
import { describe, expect, it } from 'vitest';
import { FINANCE_FORM_TYPES } from './approvals.js';
import { FORM_TYPES, crossFieldErrors, firstIssueMessage, formSchema, formTypeDef } from './forms.js';

describe('form types', () => {
  it('define every form type of the spec once, with unique request-id prefixes', () => {
    const spec = [
      'leave-request',
      'employee-onboarding',
      'exit-clearance',
      'travel-request',
      'info-update',
      'expense-reimbursement',
      'it-access',
      'petty-cash',
      'purchase-requisition',
      'medical-claim',
      'mileage-claim',
      'it-incident',
      'password-reset',
      'meeting-room',
      'transport-request',
      'facility-access',
      'maintenance-request',
      'safety-incident',
      'nda-request',
      'contract-approval',
      'equipment-request',
      'training-request',
      'event-participation',
    ];
    expect(FORM_TYPES.map((t) => t.formType).sort()).toEqual([...spec].sort());
    const prefixes = FORM_TYPES.map((t) => t.idPrefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });

  it('carry the spec categories', () => {
    const cat = (t: string) => formTypeDef(t)!.category;
    expect(cat('leave-request')).toBe('Human Resources');
    expect(cat('expense-reimbursement')).toBe('Human Resources');
    expect(cat('it-access')).toBe('Human Resources');
    expect(cat('petty-cash')).toBe('Finance');
    expect(cat('password-reset')).toBe('Information Technology');
    expect(cat('facility-access')).toBe('Facilities & Operations');
    expect(cat('contract-approval')).toBe('Legal');
  });

  it('use the chains the spec shows', () => {
    const chain = (t: string) => formTypeDef(t)!.chain;
    expect(chain('leave-request')).toEqual(['line_manager', 'hr']);
    expect(chain('purchase-requisition')).toEqual(['line_manager', 'finance']);
    expect(chain('petty-cash')).toEqual(['line_manager', 'finance']);
    expect(chain('travel-request')).toEqual(['line_manager', 'finance']);
    expect(chain('facility-access')).toEqual(['facilities_desk', 'facilities_manager']);
    expect(chain('meeting-room')).toEqual(['facilities_desk', 'facilities_manager']);
    expect(chain('info-update')).toEqual(['hr']);
    expect(chain('password-reset')).toEqual(['it_helpdesk']);
    expect(chain('it-incident')).toEqual(['it_helpdesk']);
    expect(chain('expense-reimbursement')).toEqual(['line_manager']);
  });

  it('give every required field a question for the assistant', () => {
    for (const t of FORM_TYPES) for (const f of t.fields) expect(f.question.length, `${t.formType}.${f.name}`).toBeGreaterThan(5);
  });
});

describe('formSchema', () => {
  const ok = (t: string, v: unknown) => formSchema(t).safeParse(v);
  const msg = (t: string, v: unknown) => {
    const r = ok(t, v);
    expect(r.success).toBe(false);
    return firstIssueMessage((r as any).error);
  };

  it('accepts a valid leave request and drops unknown fields', () => {
    const r = ok('leave-request', {
      leave_type: 'Annual',
      start_date: '2027-01-11',
      end_date: '2027-01-13',
      reason: 'Wedding',
      employee_id: 'EMP-9',
    });
    expect(r.success).toBe(true);
    expect(r.data).toEqual({ leave_type: 'Annual', start_date: '2027-01-11', end_date: '2027-01-13', reason: 'Wedding' });
  });

  it('explains missing and malformed fields', () => {
    expect(msg('leave-request', { start_date: '2027-01-11', end_date: '2027-01-13', reason: 'x' })).toMatch(/Leave type/);
    expect(msg('leave-request', { leave_type: 'Annual', start_date: '2027-02-30', end_date: '2027-03-01', reason: 'x' })).toMatch(
      /real calendar date/,
    );
    expect(msg('leave-request', { leave_type: 'Annual', start_date: '2027-01-13', end_date: '2027-01-11', reason: 'x' })).toBe(
      'End date cannot be before start date',
    );
    expect(
      msg('meeting-room', {
        room_requested: 'A',
        booking_date: '2027-01-20',
        start_time: '11:00',
        end_time: '10:00',
        participants_count: 3,
      }),
    ).toBe('End time must be after start time');
    expect(
      msg('meeting-room', {
        room_requested: 'A',
        booking_date: '2027-01-20',
        start_time: '25:00',
        end_time: '26:00',
        participants_count: 3,
      }),
    ).toMatch(/HH:MM/);
    expect(msg('password-reset', { system_for_reset: 'Mainframe', reset_reason: 'Other' })).toMatch(/Email, ERP, CRM, VPN, Other/);
  });

  it('checks purchase requisitions: integer quantity >= 1, amounts >= 0 with 2 decimals, total = quantity x unit cost', () => {
    const base = { item_description: 'Chair', quantity: 3, unit_cost: 150, purpose_of_purchase: 'Team room' };
    expect(ok('purchase-requisition', base).data).toMatchObject({ estimated_total: 450 });
    expect(ok('purchase-requisition', { ...base, estimated_total: 450 }).success).toBe(true);
    expect(msg('purchase-requisition', { ...base, quantity: 0 })).toMatch(/at least 1/);
    expect(msg('purchase-requisition', { ...base, quantity: 1.5 })).toMatch(/whole number/);
    expect(msg('purchase-requisition', { ...base, unit_cost: -1 })).toMatch(/0 or more/);
    expect(msg('purchase-requisition', { ...base, unit_cost: 1.234 })).toMatch(/2 decimals/);
    expect(msg('purchase-requisition', { ...base, estimated_total: 400 })).toMatch(/quantity x unit cost/);
    expect(crossFieldErrors('purchase-requisition', { quantity: 2, unit_cost: 289.99, estimated_total: 579.98 })).toBeNull();
  });

  it('trims text and refuses blank required text', () => {
    expect(msg('facility-access', { access_request_type: 'Other', facilities_requested: '   ', justification: 'x' })).toMatch(
      /Facilities requested is required/,
    );
    expect(ok('facility-access', { access_request_type: 'Other', facilities_requested: ' Lab ', justification: 'x' }).data).toMatchObject({
      facilities_requested: 'Lab',
    });
  });
});

describe('amount and purpose fields of the registry', () => {
  it('name a money field and a text field of their own type, and every finance type has both', () => {
    for (const t of FORM_TYPES) {
      const byName = new Map(t.fields.map((fd) => [fd.name, fd]));
      if (t.amountField) expect(byName.get(t.amountField)?.type, `${t.formType}.${t.amountField}`).toBe('money');
      if (t.purposeField) expect(['text', 'longtext'], `${t.formType}.${t.purposeField}`).toContain(byName.get(t.purposeField)?.type);
    }
    for (const type of FINANCE_FORM_TYPES) {
      const t = FORM_TYPES.find((x) => x.formType === type)!;
      expect(t.amountField, type).toBeTruthy();
      expect(t.purposeField, type).toBeTruthy();
    }
  });
});
