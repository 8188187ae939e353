// Adding a form type is one registry entry: this test registers a type the product does not have (a trade-fair
// booth, decided by the line manager and then finance) before any server module is loaded, and follows one
// request of it through the real API: submitted through POST /api/forms/<type>, listed in the owner's
// user-forms, queued for the line manager, decided, then in finance's queue, decided, and rendered by the
// details builder the web uses. Nothing outside this file knows the type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessToday } from '../../domain/business-time.js';
import { type FormTypeDef, formTypesWithStage, registerFormType } from '../../domain/forms.js';

const BOOTH: FormTypeDef = {
  formType: 'trade-fair-booth',
  title: 'Trade Fair Booth',
  category: 'Other',
  icon: 'Tent',
  idPrefix: 'TFB',
  chain: ['line_manager', 'finance'],
  amountField: 'booth_cost',
  purposeField: 'booth_purpose',
  successMessage: 'Booth request submitted successfully!',
  catalogue: { description: 'Book a company booth at a trade fair.', estimatedTime: '5-10 min', priority: 'low' },
  details: {
    title: 'Booth Details',
    fields: [
      { name: 'fair_name', label: 'Fair' },
      { name: 'fair_date', label: 'Fair Date', kind: 'date' },
      { name: 'booth_cost', label: 'Booth Cost', kind: 'money' },
      { name: 'booth_purpose', label: 'Purpose', kind: 'long' },
    ],
  },
  keywords: ['trade fair', 'booth', 'exhibition'],
  fields: [
    { name: 'fair_name', label: 'Fair', type: 'text', required: true, question: 'Which fair?' },
    { name: 'fair_date', label: 'Fair date', type: 'date', required: true, question: 'When is it?' },
    { name: 'booth_cost', label: 'Booth cost (USD)', type: 'money', required: true, question: 'What does the booth cost in USD?', min: 1 },
    { name: 'booth_purpose', label: 'Purpose', type: 'longtext', required: true, question: 'Why should we exhibit?', max: 500 },
  ],
};
registerFormType(BOOTH);

// The server's modules load only now, so every list they derive from the registry while loading has the new type.
const { startTestApp } = await import('../test/harness.js');
const { factories } = await import('../test/factories.js');
const { CATALOGUE } = await import('../../domain/catalogue.js');
const { FINANCE_FORM_TYPES, reasonSetFor } = await import('../../domain/approvals.js');
const { nextStageFor, approvalSteps } = await import('../../domain/status.js');
const { detailRows } = await import('../../web/forms/details.js');

type TestApp = Awaited<ReturnType<typeof startTestApp>>;
let t: TestApp;
let f: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => t?.close());

// The type refuses past dates and the server runs on the real clock: the fair is a month after the business today.
const FAIR_DATE = addDays(businessToday(), 30);
const input = { fair_name: 'Hannover Messe', fair_date: FAIR_DATE, booth_cost: 1234.5, booth_purpose: 'Show the new product line' };

describe('a form type added by one registry entry', () => {
  it('is in the lists derived from the registry: finance types, catalogue with its real chain, next stage and steps', () => {
    expect(formTypesWithStage('finance')).toContain('trade-fair-booth');
    expect(FINANCE_FORM_TYPES).toContain('trade-fair-booth');
    const entry = CATALOGUE.find((e) => e.formType === 'trade-fair-booth');
    expect(entry).toMatchObject({
      title: 'Trade Fair Booth Form',
      description: 'Book a company booth at a trade fair.',
      requiredApprovals: ['Line Manager', 'Finance'],
      approvalChain: ['Line Manager', 'Finance'],
      category: 'Other',
      priority: 'low',
    });
    expect(entry!.id).toMatch(/^GEN-TFB-\d\d$/);
    expect(reasonSetFor('trade-fair-booth')).toBe('default');
    const rec = { form_type: 'trade-fair-booth', line_manager_approval: 'Approved', finance_approval: 'Pending' };
    expect(nextStageFor(rec)).toBe('Finance Review');
    expect(approvalSteps(rec, { audience: 'approver' }).map((s) => s.label)).toEqual(['Manager Decision', 'Finance']);
  });

  it('is submitted, listed, queued for the line manager, decided, queued for finance, decided and rendered', async () => {
    const { employee, manager } = await f.team();
    const finance = await f.person({ kind: 'finance' });
    const [me, lm, fin] = await Promise.all([f.login(employee), f.login(manager), f.login(finance)]);

    // The server's own validation messages come from the entry's fields; a refused submission stores nothing.
    const before = await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE form_type = 'trade-fair-booth'`);
    const bad = await me.post('/api/forms/trade-fair-booth', { ...input, booth_cost: 0.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Booth cost (USD) must be at least 1');
    const missing = await me.post('/api/forms/trade-fair-booth', { ...input, fair_name: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('Fair is required');
    const after = await t.db.query(`SELECT count(*)::int AS n FROM requests WHERE form_type = 'trade-fair-booth'`);
    expect(after.rows[0].n).toBe(before.rows[0].n);

    // Submitted through the generic route, with the entry's id prefix, initial status, chain and message.
    const res = await me.post('/api/forms/trade-fair-booth', input);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Booth request submitted successfully!', status: 'Pending' });
    const id: string = res.body.request_id;
    expect(id).toMatch(/^TFB-\d{6,}$/);
    const stored = await t.db.query(
      `SELECT r.status, r.current_stage, r.data->>'fair_name' AS fair, (r.data->>'booth_cost')::numeric AS cost,
              array_agg(a.stage || ':' || a.decision ORDER BY a.seq) AS steps
         FROM requests r JOIN approvals a ON a.request_pk = r.id WHERE r.request_id = $1 GROUP BY r.id`,
      [id],
    );
    expect(stored.rows[0]).toMatchObject({
      status: 'Pending',
      current_stage: 'line_manager',
      fair: 'Hannover Messe',
      steps: ['line_manager:Pending', 'finance:Pending'],
    });
    expect(Number(stored.rows[0].cost)).toBe(1234.5);

    // Listed in the owner's user-forms under its type.
    const mine = await me.get('/api/forms/user-forms', { 'cache-control': 'no-cache' });
    expect(mine.status).toBe(200);
    expect(mine.body['trade-fair-booth'].map((r: { request_id: string }) => r.request_id)).toEqual([id]);
    expect(mine.body['trade-fair-booth'][0].title).toBe('Trade Fair Booth');

    // Queued for the line manager, who may decide it; finance sees it waiting on the manager, not yet actionable.
    const lmQueue = await lm.get('/api/manager/queue?status=Pending');
    expect(lmQueue.status).toBe(200);
    const lmRow = (lmQueue.body as Array<{ request_id: string }>).find((r) => r.request_id === id);
    expect(lmRow).toMatchObject({ actionable: true, view_only: false, stage_state: 'Pending' });
    const early = await fin.get('/api/finance/queue');
    expect(early.body.forms.find((r: { request_id: string }) => r.request_id === id)).toMatchObject({ actionable: false });
    const tooEarly = await fin.post('/api/finance/update-status', { form_id: id, form_type: 'trade-fair-booth', approval: 'Approved' });
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error).toBe('Finance can only decide after the line manager has approved');

    const lmDecision = await lm.post('/api/manager/update-status', { form_id: id, form_type: 'trade-fair-booth', status: 'Approved' });
    expect(lmDecision.status, JSON.stringify(lmDecision.body)).toBe(200);
    expect(lmDecision.body.form).toMatchObject({ line_manager_approval: 'Approved', current_stage: 'finance', status: 'Pending' });

    // In finance's queue, with the total and purpose read from the entry's amount and purpose fields.
    const finQueue = await fin.get('/api/finance/queue?status=Pending');
    const finRow = finQueue.body.forms.find((r: { request_id: string }) => r.request_id === id);
    expect(finRow).toMatchObject({ actionable: true, amount_requested: 1234.5, purpose: 'Show the new product line' });
    expect(finQueue.body.summary.forms_by_type['trade-fair-booth']).toBe(1);

    const finDecision = await fin.post('/api/finance/update-status', { form_id: id, form_type: 'trade-fair-booth', approval: 'Approved' });
    expect(finDecision.status, JSON.stringify(finDecision.body)).toBe(200);
    const done = await t.db.query(
      `SELECT r.status, r.current_stage, array_agg(a.stage || ':' || a.decision ORDER BY a.seq) AS steps,
              (SELECT array_agg(e.event_type ORDER BY e.id) FROM request_events e WHERE e.request_pk = r.id) AS events
         FROM requests r JOIN approvals a ON a.request_pk = r.id WHERE r.request_id = $1 GROUP BY r.id`,
      [id],
    );
    expect(done.rows[0]).toMatchObject({ status: 'Approved', current_stage: null, steps: ['line_manager:Approved', 'finance:Approved'] });
    expect(done.rows[0].events).toEqual(['submitted', 'decision', 'decision', 'status_change']);

    // Rendered by the web's details builder from the entry's details list, in its order.
    const details = await me.get(`/api/forms/details/${id}`);
    expect(details.status).toBe(200);
    expect(details.body.status).toBe('Approved');
    const view = detailRows(details.body);
    expect(view.title).toBe('Booth Details');
    expect(view.rows.map((r) => [r.label, r.value])).toEqual([
      ['Fair', 'Hannover Messe'],
      ['Fair Date', expect.stringMatching(new RegExp(FAIR_DATE.slice(0, 4)))],
      ['Booth Cost', 'USD $1,234.50'],
      ['Purpose', 'Show the new product line'],
    ]);
  });
});
