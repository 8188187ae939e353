// The finance dashboard's rows as the original client reads them: every row of GET /api/finance/queue, every
// finance form-details answer and every finance decision's record carries `amount_requested` (a number) and
// `purpose`, whatever the form type, taken from the type's own total and purpose fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_FORM_TYPES } from '../../domain/approvals.js';
import { requestAmount, requestPurpose } from '../../domain/forms.js';
import { submitForm } from '../forms/service.js';
import { insertRequest } from '../requests/repo.js';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { queueCacheFor, waitForQueueSignal } from './queue-cache.js';
import { EMAIL, decideVia, nextFreeWeekday, userByEmail } from './test-helpers.js';

let t: TestApp;
let arjun: ApiClient, priya: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  [arjun, priya] = await Promise.all([t.login(EMAIL.arjun), t.login(EMAIL.priya)]);
});
afterAll(async () => t?.close());

/** The fields of the spec's finance queue row. */
const FINANCE_ROW_FIELDS = [
  'request_id',
  'form_type',
  'employee_name',
  'department',
  'amount_requested',
  'purpose',
  'line_manager_approval',
  'finance_approval',
  'finance_signature',
  'created_at',
];

/** Where each finance type keeps its total and purpose (what the original client shows as Amount and Purpose). */
const OWN_FIELDS: Record<string, [string, string]> = {
  'petty-cash': ['amount_requested', 'purpose'],
  'travel-request': ['total_estimated_cost', 'travel_purpose'],
  'purchase-requisition': ['estimated_total', 'purpose_of_purchase'],
};

async function submitAs(email: string, formType: string, input: Record<string, unknown>) {
  const gen = queueCacheFor(t.db)?.generation() ?? 0;
  const rec = await submitForm(t.db, await userByEmail(t.db, email), formType, input, t.clock.now());
  expect(await waitForQueueSignal(t.db, gen)).toBe(true);
  return rec;
}

const stored = async (requestId: string) => (await t.db.query('SELECT data FROM requests WHERE request_id = $1', [requestId])).rows[0].data;

describe('finance rows carry amount_requested and purpose for every form type', () => {
  it('GET /api/finance/queue: every row of petty cash, travel and purchase requisitions has a numeric amount and a purpose', async () => {
    const res = await arjun.get('/api/finance/queue?status=All&limit=500');
    expect(res.status).toBe(200);
    const rows = res.body.forms as any[];
    const types = new Set(rows.map((r) => r.form_type));
    for (const type of FINANCE_FORM_TYPES) expect(types.has(type), type).toBe(true);
    for (const r of rows) {
      for (const k of FINANCE_ROW_FIELDS) expect(r, `${r.request_id} ${k}`).toHaveProperty(k);
      expect(typeof r.amount_requested, `${r.request_id} amount_requested`).toBe('number');
      expect(Number.isFinite(r.amount_requested)).toBe(true);
      expect(typeof r.purpose, `${r.request_id} purpose`).toBe('string');
      expect(r.purpose.trim()).not.toBe('');
      // the type's own fields, as stored
      const [amountField, purposeField] = OWN_FIELDS[r.form_type];
      const data = await stored(r.request_id);
      expect(r.amount_requested, r.request_id).toBe(Number(data[amountField]));
      expect(r.purpose, r.request_id).toBe(data[purposeField]);
      // what the original client computes: '$' + amount.toFixed(2) is never '$NaN'
      expect(Number(r.amount_requested).toFixed(2)).not.toBe('NaN');
    }
    // a seeded trip and a seeded requisition, named
    expect(rows.find((r) => r.form_type === 'travel-request' && r.purpose === 'Supplier audit')).toMatchObject({ amount_requested: 1450 });
    expect(rows.find((r) => r.form_type === 'purchase-requisition' && r.purpose === 'Second screens for the QA bench')).toMatchObject({
      amount_requested: 579.98,
    });
  });

  it('GET /api/finance/form-details answers amount_requested and purpose for a travel request and a purchase requisition', async () => {
    const day = nextFreeWeekday();
    const trip = await submitAs(EMAIL.alex, 'travel-request', {
      destination: 'Oslo',
      departure_date: day,
      return_date: day,
      travel_purpose: 'Customer workshop',
      total_estimated_cost: 2345.5,
    });
    const buy = await submitAs(EMAIL.alex, 'purchase-requisition', {
      item_description: 'Docking station',
      quantity: 3,
      unit_cost: 149.99,
      purpose_of_purchase: 'Hot desks on floor 2',
    });
    for (const [rec, amount, purpose] of [
      [trip, 2345.5, 'Customer workshop'],
      [buy, 449.97, 'Hot desks on floor 2'],
    ] as const) {
      const res = await arjun.get(`/api/finance/form-details?form_id=${rec.request_id}&form_type=${rec.form_type}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ request_id: rec.request_id, amount_requested: amount, purpose });
      // the type's own fields stay as they are
      if (rec.form_type === 'travel-request')
        expect(res.body).toMatchObject({ total_estimated_cost: 2345.5, travel_purpose: 'Customer workshop' });
      else expect(res.body).toMatchObject({ estimated_total: 449.97, purpose_of_purchase: 'Hot desks on floor 2' });
    }
    // the queue row says the same
    const rows = (await arjun.get('/api/finance/queue?status=All&limit=500')).body.forms as any[];
    expect(rows.find((r) => r.request_id === trip.request_id)).toMatchObject({ amount_requested: 2345.5, purpose: 'Customer workshop' });
    expect(rows.find((r) => r.request_id === buy.request_id)).toMatchObject({ amount_requested: 449.97, purpose: 'Hot desks on floor 2' });
  });

  it('the finance decision answers the record with amount_requested and purpose too', async () => {
    const day = nextFreeWeekday();
    const trip = await submitAs(EMAIL.alex, 'travel-request', {
      destination: 'Riga',
      departure_date: day,
      return_date: day,
      travel_purpose: 'Vendor visit',
      total_estimated_cost: 880,
    });
    expect((await decideVia(priya, 'line_manager', trip.request_id, 'travel-request', 'Approved')).status).toBe(200);
    const res = await decideVia(arjun, 'finance', trip.request_id, 'travel-request', 'Approved');
    expect(res.status).toBe(200);
    expect(res.body.form).toMatchObject({ amount_requested: 880, purpose: 'Vendor visit', finance_approval: 'Approved' });
  });

  it('a requisition stored without its total shows quantity x unit cost', async () => {
    const alex = await userByEmail(t.db, EMAIL.alex);
    const gen = queueCacheFor(t.db)?.generation() ?? 0;
    const s = await insertRequest(t.db, {
      formType: 'purchase-requisition',
      employeeId: alex.id,
      lineManagerId: priya.user.id,
      hrContactId: null,
      data: { item_description: 'Webcams', quantity: 4, unit_cost: 39.95, purpose_of_purchase: 'Meeting rooms' },
    });
    expect(await waitForQueueSignal(t.db, gen)).toBe(true);
    const res = await arjun.get(`/api/finance/form-details?form_id=${s.request_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount_requested: 159.8, purpose: 'Meeting rooms' });
  });
});

describe("the form registry names each type's total and purpose", () => {
  it('reads every finance type from its own fields', () => {
    expect(requestAmount('petty-cash', { amount_requested: 45.5 })).toBe(45.5);
    expect(requestAmount('travel-request', { total_estimated_cost: 1450 })).toBe(1450);
    expect(requestAmount('purchase-requisition', { estimated_total: 579.98, quantity: 2, unit_cost: 289.99 })).toBe(579.98);
    expect(requestAmount('purchase-requisition', { quantity: 2, unit_cost: 289.99 })).toBe(579.98);
    expect(requestAmount('travel-request', { total_estimated_cost: 'abc' })).toBeNull();
    expect(requestAmount('leave-request', { reason: 'x' })).toBeNull();
    expect(requestPurpose('travel-request', { travel_purpose: '  Supplier audit ' })).toBe('Supplier audit');
    expect(requestPurpose('purchase-requisition', { purpose_of_purchase: 'QA bench' })).toBe('QA bench');
    expect(requestPurpose('petty-cash', {})).toBeNull();
  });
});
