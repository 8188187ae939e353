// Dates of a leave, a trip and a room booking are bounded before anything counts days: at most a year long, not
// more than two years ahead or one year back. An absurd range (0001-01-01 to 9999-12-31) is a quick 400 that
// stores nothing, on submission and on edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';

let t: TestApp;
let alex: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  alex = await t.login('alex.johnson@adminease.test');
});
afterAll(async () => t?.close());

const DAY = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);
const requestCount = async () =>
  Number((await t.db.query('SELECT count(*) FROM requests WHERE employee_id = $1', [alex.user.id])).rows[0].count);

async function refused(call: () => Promise<{ status: number; body: any }>, error: string, field?: string) {
  const before = await requestCount();
  const started = performance.now();
  const res = await call();
  const ms = performance.now() - started;
  expect(res.status).toBe(400);
  expect(res.body).toEqual(field ? { error, field } : { error });
  expect(await requestCount()).toBe(before);
  expect(ms).toBeLessThan(250); // was 4.6 s for the leave; a sanity bound on a shared machine
}

describe('date windows', () => {
  it('refuses the absurd range of a leave, a trip and a booking at once, storing nothing', async () => {
    await refused(
      () =>
        alex.post('/api/forms/leave-request', {
          leave_type: 'Unpaid',
          start_date: '0001-01-01',
          end_date: '9999-12-31',
          reason: 'Long break',
        }),
      'A leave can be at most 366 days long',
    );
    await refused(
      () =>
        alex.post('/api/forms/travel-request', {
          destination: 'Mars',
          departure_date: '0001-01-01',
          return_date: '9999-12-31',
          travel_purpose: 'Survey',
          total_estimated_cost: 10,
        }),
      'A trip can be at most 366 days long',
    );
    await refused(
      () =>
        alex.post('/api/forms/meeting-room', {
          room_requested: 'Board Room',
          booking_date: '9999-12-31',
          start_time: '10:00',
          end_time: '11:00',
          participants_count: 4,
        }),
      'Date can be at most 2 years ahead',
      'booking_date',
    );
  });

  it('refuses dates too far ahead or back even when the period is short', async () => {
    await refused(
      () => alex.post('/api/forms/leave-request', { leave_type: 'Sick', start_date: '9999-12-30', end_date: '9999-12-31', reason: 'x' }),
      'Start date can be at most 2 years ahead',
      'start_date',
    );
    await refused(
      () => alex.post('/api/forms/leave-request', { leave_type: 'Sick', start_date: inDays(-400), end_date: inDays(-399), reason: 'x' }),
      'Start date can be at most 1 year in the past',
      'start_date',
    );
    await refused(
      () =>
        alex.post('/api/forms/travel-request', {
          destination: 'Pune',
          departure_date: inDays(700),
          return_date: inDays(760),
          travel_purpose: 'Audit',
          total_estimated_cost: 10,
        }),
      'Return date can be at most 2 years ahead',
      'return_date',
    );
  });

  it('applies the same bounds to an edit, which then changes nothing', async () => {
    const day = inDays(200);
    const created = await alex.post('/api/forms/travel-request', {
      destination: 'Pune',
      departure_date: day,
      return_date: day,
      travel_purpose: 'Audit',
      total_estimated_cost: 10,
    });
    expect(created.status).toBe(201);
    const stored = async () =>
      (await t.db.query('SELECT data, revision FROM requests WHERE request_id = $1', [created.body.request_id])).rows[0];
    const before = await stored();
    await refused(
      () =>
        alex.put(`/api/forms/travel-request/${created.body.request_id}`, {
          destination: 'Pune',
          departure_date: '0001-01-01',
          return_date: '9999-12-31',
          travel_purpose: 'Audit',
          total_estimated_cost: 10,
        }),
      'A trip can be at most 366 days long',
    );
    expect(await stored()).toEqual(before);
  });

  it('still takes a leave of normal length inside the window', async () => {
    const res = await alex.post('/api/forms/leave-request', {
      leave_type: 'Unpaid',
      start_date: inDays(300),
      end_date: inDays(310),
      reason: 'Trip home',
    });
    expect(res.status).toBe(201);
  });
});
