// Dates before today (the company's business date): every dated type refuses yesterday with a 400 and a field
// error, storing nothing, unless the registry allows past dates for it (claims, incidents, a sick leave already
// taken); today is accepted. The same rule answers in the web form's bounds and in the assistant (asked again).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, businessDate } from '../../domain/business-time.js';
import { FORM_TYPES, allowsPastDates, dateInputBounds, pastDateIssue } from '../../domain/forms.js';
import { sampleInput } from '../approvals/test-helpers.js';
import { type Factories, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => t?.close());

const DATED = FORM_TYPES.filter((d) => d.fields.some((fd) => fd.type === 'date'));

/** Sample input of a type with every date field on `day` (a leave runs from `day` for five days: a working day). */
function inputOn(formType: string, day: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const input = { ...sampleInput(formType), ...extra };
  for (const fd of FORM_TYPES.find((d) => d.formType === formType)!.fields) if (fd.type === 'date') input[fd.name] = day;
  if (formType === 'leave-request') input.end_date = addDays(day, 4);
  return input;
}

const countOf = async (id: number) =>
  Number((await t.db.query('SELECT count(*) FROM requests WHERE employee_id = $1', [id])).rows[0].count);

describe('dates before today', () => {
  it('covers the dated types, with past dates allowed only where the registry says so', () => {
    expect(DATED.length).toBeGreaterThanOrEqual(10);
    const allowed = DATED.filter((d) => d.allowPast === true).map((d) => d.formType);
    expect(allowed.sort()).toEqual(['it-incident', 'medical-claim', 'mileage-claim', 'safety-incident']);
    expect(allowsPastDates('leave-request', { leave_type: 'Sick' })).toBe(true);
    expect(allowsPastDates('leave-request', { leave_type: 'Annual' })).toBe(false);
    expect(allowsPastDates('meeting-room', {})).toBe(false);
  });

  it('each dated type refuses yesterday with a field error and stores nothing, unless it allows past dates; today is accepted', async () => {
    const today = businessDate(t.clock.now());
    const yesterday = addDays(today, -1);
    for (const d of DATED) {
      const owner = await f.person();
      const client = await f.login(owner);
      const extra = d.formType === 'leave-request' ? { leave_type: 'Annual' } : {};
      const past = await client.post(`/api/forms/${d.formType}`, inputOn(d.formType, yesterday, extra));
      const firstDate = d.fields.find((fd) => fd.type === 'date')!;
      if (d.allowPast === true) {
        expect(past.status, `${d.formType}: ${past.text}`).toBe(201);
        continue;
      }
      expect(past.status, d.formType).toBe(400);
      expect(past.body, d.formType).toEqual({
        error: `${firstDate.label} cannot be in the past (today is ${today})`,
        field: firstDate.name,
      });
      expect(await countOf(owner.id), d.formType).toBe(0);
      const now = await client.post(`/api/forms/${d.formType}`, inputOn(d.formType, today, extra));
      expect(now.status, `${d.formType}: ${now.text}`).toBe(201);
    }
  });

  it('a sick leave already taken is accepted; an annual leave that started yesterday is not', async () => {
    const yesterday = addDays(businessDate(t.clock.now()), -1);
    const owner = await f.person();
    const client = await f.login(owner);
    const annual = await client.post('/api/forms/leave-request', inputOn('leave-request', yesterday, { leave_type: 'Annual' }));
    expect(annual.status).toBe(400);
    expect(annual.body.field).toBe('start_date');
    const sick = await client.post('/api/forms/leave-request', inputOn('leave-request', yesterday, { leave_type: 'Sick' }));
    expect(sick.status, sick.text).toBe(201);
  });

  it('an edit cannot move a booking into the past, and changes nothing', async () => {
    const today = businessDate(t.clock.now());
    const owner = await f.person();
    const client = await f.login(owner);
    const made = await client.post('/api/forms/meeting-room', inputOn('meeting-room', addDays(today, 3)));
    expect(made.status).toBe(201);
    const before = (await t.db.query('SELECT data FROM requests WHERE request_id = $1', [made.body.request_id])).rows[0].data;
    const edit = await client.put(`/api/forms/meeting-room/${made.body.request_id}`, inputOn('meeting-room', addDays(today, -2)));
    expect(edit.status).toBe(400);
    expect(edit.body.field).toBe('booking_date');
    const after = (await t.db.query('SELECT data FROM requests WHERE request_id = $1', [made.body.request_id])).rows[0].data;
    expect(after).toEqual(before);
  });

  it('the assistant (built-in engine) answers a past booking date with the same message and asks for the date again', async () => {
    const today = businessDate(t.clock.now());
    const owner = await f.person();
    const client = await f.login(owner);
    const chat = async (message: string) => (await client.post('/ai/simple-chat', { message })).body.response as string;
    const first = await chat(`book the board room on ${addDays(today, -1)} from 10:00 to 11:00 for 4 people`);
    expect(first).toContain(`Date cannot be in the past (today is ${today})`);
    expect(first).not.toMatch(/Shall I submit/);
    const second = await chat(addDays(today, 2));
    expect(second).toMatch(/Shall I submit it\?/);
    expect(await countOf(owner.id)).toBe(0);
  });

  it('gives the web form the same rule: today is the earliest date a booking or an annual leave can take', () => {
    const today = '2027-03-10';
    expect(dateInputBounds('meeting-room', 'booking_date', {}, today).min).toBe(today);
    expect(dateInputBounds('travel-request', 'departure_date', {}, today).min).toBe(today);
    expect(dateInputBounds('leave-request', 'start_date', { leave_type: 'Annual' }, today).min).toBe(today);
    expect(dateInputBounds('leave-request', 'start_date', { leave_type: 'Sick' }, today).min).toBe(addDays(today, -366));
    expect(dateInputBounds('medical-claim', 'treatment_date', {}, today)).toEqual({});
    expect(pastDateIssue('transport-request', { travel_date: '2027-03-09' }, today)).toEqual({
      field: 'travel_date',
      message: 'Date cannot be in the past (today is 2027-03-10)',
    });
    expect(pastDateIssue('transport-request', { travel_date: today }, today)).toBeNull();
  });
});
