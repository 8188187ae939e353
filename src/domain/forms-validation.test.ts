// Unit tests of the form engine's validation messages: every rule of the three catalogue forms and the cross-field rules.
import { describe, expect, it } from 'vitest';
import { FORM_TYPES, firstIssueMessage, formSchema, formTypeDef } from './forms';

function check(formType: string, input: unknown): { ok: true; data: Record<string, unknown> } | { ok: false; error: string } {
  const r = formSchema(formType).safeParse(input);
  return r.success ? { ok: true, data: r.data as Record<string, unknown> } : { ok: false, error: firstIssueMessage(r.error) };
}

const pr = { item_description: 'Monitor', quantity: 2, unit_cost: 150.25, purpose_of_purchase: 'QA bench' };

describe('form types table', () => {
  it('has unique form types and id prefixes, and the decided chains', () => {
    expect(new Set(FORM_TYPES.map((t) => t.formType)).size).toBe(FORM_TYPES.length);
    expect(new Set(FORM_TYPES.map((t) => t.idPrefix)).size).toBe(FORM_TYPES.length);
    expect(formTypeDef('info-update')?.chain).toEqual(['hr']);
    expect(formTypeDef('facility-access')?.chain).toEqual(['facilities_desk', 'facilities_manager']);
    expect(formTypeDef('password-reset')?.chain).toEqual(['it_helpdesk']);
  });
  it('includes the spec categories', () => {
    expect(formTypeDef('purchase-requisition')?.category).toBe('Finance');
    expect(formTypeDef('password-reset')?.category).toBe('Information Technology');
    expect(formTypeDef('facility-access')?.category).toBe('Facilities & Operations');
    expect(formTypeDef('expense-reimbursement')?.category).toBe('Human Resources');
    expect(formTypeDef('nda-request')?.category).toBe('Legal');
  });
});

describe('purchase requisition', () => {
  it('accepts numeric strings and computes the estimated total when missing', () => {
    expect(check('purchase-requisition', { ...pr, quantity: '3', unit_cost: '2.50' })).toEqual({
      ok: true,
      data: { item_description: 'Monitor', quantity: 3, unit_cost: 2.5, estimated_total: 7.5, purpose_of_purchase: 'QA bench' },
    });
  });
  it.each([
    [{ ...pr, item_description: '' }, 'Item description is required'],
    [{ ...pr, purpose_of_purchase: '   ' }, 'Purpose of purchase is required'],
    [{ ...pr, quantity: undefined }, 'Quantity is required'],
    [{ ...pr, quantity: 0 }, 'Quantity must be at least 1'],
    [{ ...pr, quantity: 1.5 }, 'Quantity must be a whole number'],
    [{ ...pr, quantity: 'many' }, 'Quantity must be a whole number'],
    [{ ...pr, unit_cost: '' }, 'Unit cost (USD) is required'],
    [{ ...pr, unit_cost: -1 }, 'Unit cost (USD) must be 0 or more'],
    [{ ...pr, unit_cost: 1.234 }, 'Unit cost (USD) must have at most 2 decimals'],
    [{ ...pr, estimated_total: -5 }, 'Estimated total (USD) must be 0 or more'],
    [{ ...pr, estimated_total: 300.505 }, 'Estimated total (USD) must have at most 2 decimals'],
    [{ ...pr, estimated_total: 999 }, 'Estimated total must equal quantity x unit cost'],
  ])('%j -> %s', (input, error) => {
    expect(check('purchase-requisition', input)).toEqual({ ok: false, error });
  });
  it('accepts an estimated total equal to quantity x unit cost', () => {
    expect(check('purchase-requisition', { ...pr, estimated_total: 300.5 }).ok).toBe(true);
  });
});

describe('password reset', () => {
  it('requires a system and a reason with the spec messages', () => {
    expect(check('password-reset', {})).toEqual({ ok: false, error: 'Please select a system' });
    expect(check('password-reset', { system_for_reset: '', reset_reason: 'Other' })).toEqual({
      ok: false,
      error: 'Please select a system',
    });
    expect(check('password-reset', { system_for_reset: 'VPN' })).toEqual({ ok: false, error: 'Please select a reason for reset' });
    expect(check('password-reset', { system_for_reset: 'Mainframe', reset_reason: 'Other' })).toEqual({
      ok: false,
      error: 'System must be one of: Email, ERP, CRM, VPN, Other',
    });
    expect(check('password-reset', { system_for_reset: 'VPN', reset_reason: 'Locked Account' }).ok).toBe(true);
  });
});

describe('facility access', () => {
  const fa = { access_request_type: 'Temporary Access', facilities_requested: 'Lab 3', justification: 'Load tests' };
  it('requires all three fields', () => {
    expect(check('facility-access', fa).ok).toBe(true);
    expect(check('facility-access', { ...fa, access_request_type: undefined })).toEqual({ ok: false, error: 'Request type is required' });
    expect(check('facility-access', { ...fa, access_request_type: 'Master Key' })).toEqual({
      ok: false,
      error: 'Request type must be one of: New Access Card, Temporary Access, Extended Access Hours, Other',
    });
    expect(check('facility-access', { ...fa, facilities_requested: '' })).toEqual({ ok: false, error: 'Facilities requested is required' });
    expect(check('facility-access', { ...fa, justification: ' ' })).toEqual({ ok: false, error: 'Justification is required' });
  });
  it('drops unknown keys (identity fields never come from the body)', () => {
    const r = check('facility-access', { ...fa, employee_id: 'EMP-9', status: 'Approved' });
    expect(r.ok && r.data).toEqual(fa);
  });
});

describe('dates, times and optional fields', () => {
  const leave = { leave_type: 'Annual', start_date: '2027-03-01', end_date: '2027-03-03', reason: 'Trip' };
  it('checks real dates and order', () => {
    expect(check('leave-request', leave).ok).toBe(true);
    expect(check('leave-request', { ...leave, start_date: '2027-02-30' })).toEqual({
      ok: false,
      error: 'Start date must be a real calendar date',
    });
    expect(check('leave-request', { ...leave, start_date: '01/03/2027' })).toEqual({
      ok: false,
      error: 'Start date must be a date as YYYY-MM-DD',
    });
    expect(check('leave-request', { ...leave, end_date: '2027-02-28' })).toEqual({
      ok: false,
      error: 'End date cannot be before start date',
    });
    expect(check('leave-request', { ...leave, end_date: undefined })).toEqual({ ok: false, error: 'End date is required' });
  });
  it('checks times', () => {
    const room = { room_requested: 'A', booking_date: '2027-01-05', start_time: '10:00', end_time: '11:00', participants_count: 3 };
    expect(check('meeting-room', room).ok).toBe(true);
    expect(check('meeting-room', { ...room, end_time: '09:00' })).toEqual({ ok: false, error: 'End time must be after start time' });
    expect(check('meeting-room', { ...room, start_time: '25:00' })).toEqual({ ok: false, error: 'Start time must be a time as HH:MM' });
  });
  it('blank optional fields are left out', () => {
    const r = check('travel-request', {
      destination: 'Pune',
      departure_date: '2027-01-05',
      return_date: '2027-01-06',
      travel_purpose: 'x',
      total_estimated_cost: '10',
      travel_notes: '',
    });
    expect(r).toEqual({
      ok: true,
      data: { destination: 'Pune', departure_date: '2027-01-05', return_date: '2027-01-06', travel_purpose: 'x', total_estimated_cost: 10 },
    });
  });
});
