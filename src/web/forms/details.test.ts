// Unit tests of the details modal's field lists: hidden fields, Yes/No booleans, money and cards.
import { describe, expect, it } from 'vitest';
import { formTypeDef } from '../../domain/forms';
import { formatDate } from '../format';
import { DETAIL_CARDS, allRows, cardRows, detailCard, formatValue, genericRows, isHiddenGenericField, recordRows } from './details';
import type { FormRecord } from './types';

const base: FormRecord = {
  id: 1,
  request_id: 'NDA-000001',
  form_id: 'NDA-000001',
  form_type: 'nda-request',
  status: 'Pending',
  created_at: '2027-01-01T00:00:00Z',
  updated_at: '2027-01-01T00:00:00Z',
  employee_id: 'EMP-1',
  employee_user_id: 1,
  employee_name: 'Rahul Verma',
  department: 'Legal',
  manager: 'Victoria Adams',
  line_manager: 'Victoria Adams',
  next_stage: 'Awaiting Manager Approval',
  title: 'NDA Request',
  current_stage: 'line_manager',
};

describe('generic field list', () => {
  it('hides the spec fields, signature-like, approval, acknowledgement, confirmation and clearance fields and empty values', () => {
    const r = {
      ...base,
      counterparty: 'Contoso Ltd',
      purpose: 'Joint bid',
      effective_date: '2027-02-01',
      notes: '',
      missing: null,
      employee_signature: 'Rahul',
      employee_signature_date: '2027-01-01',
      line_manager_approval: 'Pending',
      line_manager_signature: null,
      line_manager_acknowledgement: true,
      employee_confirmation_status: 'Pending',
      it_clearance: false,
      finance_verification: 'Done',
      line_manager_rejected_reason: '',
      line_manager_date: '2027-01-02',
      urgent: true,
      paperless: false,
    };
    expect(genericRows(r)).toEqual([
      { name: 'counterparty', label: 'Counterparty', value: 'Contoso Ltd' },
      { name: 'effective_date', label: 'Effective Date', value: '1 Feb 2027' },
      { name: 'paperless', label: 'Paperless', value: 'No' },
      { name: 'purpose', label: 'Purpose', value: 'Joint bid' },
      { name: 'urgent', label: 'Urgent', value: 'Yes' },
    ]);
  });
  it('names the hidden fields of the spec', () => {
    for (const k of [
      'id',
      'form_id',
      'employee_id',
      'created_at',
      'updated_at',
      'employee_name',
      'department',
      'status',
      'line_manager',
      'request_id',
      'manager',
    ]) {
      expect(isHiddenGenericField(k), k).toBe(true);
    }
    expect(isHiddenGenericField('destination')).toBe(false);
  });
});

describe('cards', () => {
  it('formats money as USD with 2 decimals and skips empty fields', () => {
    const r = {
      ...base,
      form_type: 'purchase-requisition',
      item_description: 'Dock',
      quantity: 3,
      unit_cost: 119.9,
      estimated_total: 359.7,
      purpose_of_purchase: '',
    };
    expect(cardRows(r, DETAIL_CARDS['purchase-requisition'])).toEqual([
      { name: 'item_description', label: 'Item Description', value: 'Dock', kind: 'long' },
      { name: 'quantity', label: 'Quantity', value: '3', kind: 'number' },
      { name: 'unit_cost', label: 'Unit Cost', value: 'USD $119.90', kind: 'money' },
      { name: 'estimated_total', label: 'Estimated Total (USD)', value: 'USD $359.70', kind: 'money' },
    ]);
  });
  it("facility access shows Manager, 'N/A' when missing", () => {
    const r = {
      ...base,
      form_type: 'facility-access',
      manager: undefined,
      access_request_type: 'Other',
      facilities_requested: 'Roof',
      justification: 'Photos',
    };
    expect(cardRows(r, DETAIL_CARDS['facility-access']).find((x) => x.name === 'manager')?.value).toBe('N/A');
  });
  it('formatValue', () => {
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(false)).toBe('No');
    expect(formatValue(1234.5, 'money')).toBe('USD $1,234.50');
    expect(formatValue('2027-03-04', 'date')).toBe('4 Mar 2027');
    expect(formatValue(null)).toBe('');
  });
});

describe('registry-driven details', () => {
  it('builds the card of a type without a spec card from the registry: its fields, labels and order', () => {
    const card = detailCard('contract-approval')!;
    expect(card.title).toBe('Contract Approval Details');
    expect(card.fields.map(([name]) => name)).toEqual(formTypeDef('contract-approval')!.fields.map((f) => f.name));
    expect(card.fields.find(([name]) => name === 'contract_value')).toEqual(['contract_value', 'Contract value', 'money']);
    expect(detailCard('leave-request')).toEqual(DETAIL_CARDS['leave-request']);
    expect(detailCard('no-such-type')).toBeUndefined();
  });

  it("shows a record's registry fields first, then what else it holds, never the bookkeeping", () => {
    const rows = recordRows({
      id: 4,
      request_id: 'CON-000004',
      form_type: 'contract-approval',
      status: 'Pending',
      created_at: '2027-01-10T09:00:00Z',
      employee_id: 'EMP-1001',
      employee_user_id: 15,
      summary: 'Two-year support contract',
      counterparty: 'Acme Ltd',
      contract_title: 'Support',
      contract_value: 12500.5,
      start_date: '2027-02-01',
      legal_reference: 'L-77',
      actionable: true,
      stage_state: 'pending',
      line_manager_approval: 'Pending',
    });
    expect(rows.map((r) => [r.label, r.value])).toEqual([
      ['Counterparty', 'Acme Ltd'],
      ['Contract title', 'Support'],
      ['Contract value', 'USD $12,500.50'],
      ['Start date', formatDate('2027-02-01')],
      ['Summary', 'Two-year support contract'],
      ['Legal Reference', 'L-77'],
    ]);
  });
});

describe("the generic history's 'Record #n' cards", () => {
  it('list every field, the approval chain of a type defined as data in words (never as JSON)', () => {
    const r: FormRecord = {
      ...base,
      form_type: 'nda-request',
      approval_chain: [
        {
          stage: 'line_manager',
          label: 'Line Manager',
          decision: 'Approved',
          signer_name: 'Mara Lead',
          date: '2026-11-29',
          condition: null,
        },
        { stage: 'stage_2', label: 'Finance', decision: 'Not required', signer_name: null, date: null, condition: { field: 'amount' } },
        { stage: 'stage_3', label: '', decision: 'Pending', signer_name: null, date: null },
      ],
    };
    const chain = allRows(r).find((row) => row.label === 'Approval Chain');
    expect(chain?.value).toBe(`Line Manager: Approved by Mara Lead, ${formatDate('2026-11-29')}; Finance: Not required; Stage 3: Pending`);
    expect(
      allRows(r)
        .map((row) => row.value)
        .join(' '),
    ).not.toMatch(/[{}[\]"]/);
    expect(allRows(r).map((row) => row.label)).toContain('Request Id');
  });
});
