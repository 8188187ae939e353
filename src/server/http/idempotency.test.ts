// Idempotency-Key on submissions, edits, withdrawals and decisions: a repeated key answers the first answer without
// writing again, concurrent duplicates write once, the same key for another call is a 422, keys are per user and
// expire after 24 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type TestApp, startTestApp } from '../test/harness.js';
import { nothingWritten } from './idempotency.js';

let t: TestApp;
let alex: ApiClient, maria: ApiClient, priya: ApiClient;

beforeAll(async () => {
  t = await startTestApp();
  [alex, maria, priya] = await Promise.all(['alex.johnson', 'maria.garcia', 'priya.sharma'].map((n) => t.login(`${n}@adminease.test`)));
});
afterAll(async () => t?.close());

const pettyCash = (purpose: string, amount = 42.5) => ({ amount_requested: amount, expected_settlement_date: '2027-02-03', purpose });
const countOf = async (purpose: string) =>
  Number(
    (await t.db.query(`SELECT count(*) FROM requests WHERE form_type = 'petty-cash' AND data->>'purpose' = $1`, [purpose])).rows[0].count,
  );
let n = 0;
const newKey = () => `test-key-${process.pid}-${(n += 1)}`;

describe('Idempotency-Key', () => {
  it('stores one request for a submission sent twice with the same key and answers the same both times', async () => {
    const key = newKey();
    const first = await alex.post('/api/forms/petty-cash', pettyCash('Idem once'), { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await alex.post('/api/forms/petty-cash', pettyCash('Idem once'), { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await countOf('Idem once')).toBe(1);
    // Another key (or none) is another submission.
    expect((await alex.post('/api/forms/petty-cash', pettyCash('Idem once'), { 'idempotency-key': newKey() })).status).toBe(201);
    expect(await countOf('Idem once')).toBe(2);
  });

  it('writes once when duplicates arrive at the same time', async () => {
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => alex.post('/api/forms/petty-cash', pettyCash('Idem race'), { 'idempotency-key': key })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.request_id)).size).toBe(1);
    expect(await countOf('Idem race')).toBe(1);
  });

  it('answers 422 for the same key with a different body or route, and writes nothing', async () => {
    const key = newKey();
    expect((await alex.post('/api/forms/petty-cash', pettyCash('Idem first'), { 'idempotency-key': key })).status).toBe(201);
    const other = await alex.post('/api/forms/petty-cash', pettyCash('Idem second'), { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ error: 'This Idempotency-Key was already used for a different request; use a new key for a new request' });
    expect(await countOf('Idem second')).toBe(0);
    const otherRoute = await alex.post('/api/forms/travel-request', { destination: 'Pune' }, { 'idempotency-key': key });
    expect(otherRoute.status).toBe(422);
  });

  it('keeps keys per user, replays decisions and withdrawals, and forgets keys after 24 hours', async () => {
    const key = newKey();
    const a = await alex.post('/api/forms/petty-cash', pettyCash('Idem per user'), { 'idempotency-key': key });
    const m = await maria.post('/api/forms/petty-cash', pettyCash('Idem per user'), { 'idempotency-key': key });
    expect([a.status, m.status]).toEqual([201, 201]);
    expect(await countOf('Idem per user')).toBe(2);

    // A decision repeated with its key: the same 200, one decision event.
    const dk = newKey();
    const body = { form_id: a.body.request_id, form_type: 'petty-cash', status: 'Approved' };
    const d1 = await priya.post('/api/manager/update-status', body, { 'idempotency-key': dk });
    const d2 = await priya.post('/api/manager/update-status', body, { 'idempotency-key': dk });
    expect([d1.status, d2.status]).toEqual([200, 200]);
    expect(d2.body).toEqual(d1.body);
    const events = await t.db.query(`SELECT count(*) FROM request_events WHERE request_pk = $1 AND event_type = 'decision'`, [a.body.id]);
    expect(Number(events.rows[0].count)).toBe(1);
    // Without a key the repeat is a second call: 409, already decided.
    expect((await priya.post('/api/manager/update-status', body)).status).toBe(409);

    // A withdrawal repeated with its key: the same 200 (not 409 'only pending requests ...').
    const wk = newKey();
    const w1 = await maria.post(`/api/forms/petty-cash/${m.body.request_id}/withdraw`, {}, { 'idempotency-key': wk });
    const w2 = await maria.post(`/api/forms/petty-cash/${m.body.request_id}/withdraw`, {}, { 'idempotency-key': wk });
    expect([w1.status, w2.status]).toEqual([200, 200]);
    expect(w2.body).toEqual(w1.body);

    // After 24 hours the key is new again (the stored key is made a day older rather than the clock moved on,
    // which would end the sessions too).
    await t.db.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '24 hours 1 minute' WHERE user_id = $1 AND idem_key = $2`,
      [alex.user.id, key],
    );
    expect((await alex.post('/api/forms/petty-cash', pettyCash('Idem per user'), { 'idempotency-key': key })).status).toBe(201);
    expect(await countOf('Idem per user')).toBe(3);
  });

  it('refuses a malformed key with 400 before doing anything', async () => {
    const res = await alex.post('/api/forms/petty-cash', pettyCash('Idem bad key'), { 'idempotency-key': 'x'.repeat(201) });
    expect(res.status).toBe(400);
    expect(await countOf('Idem bad key')).toBe(0);
  });
});

describe('a failed call with an Idempotency-Key', () => {
  const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
  it('releases the key only when nothing can have been written', () => {
    expect(nothingWritten(err('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(nothingWritten(err('timeout exceeded when trying to connect'))).toBe(true);
    expect(nothingWritten(err('cannot execute INSERT in a read-only transaction', '25006'))).toBe(true);
    expect(nothingWritten(err('could not extend file: No space left on device', '53100'))).toBe(true);
  });
  it('keeps it unfinished when the outcome is unknown (a connection lost mid-call, a bug after the commit)', () => {
    expect(nothingWritten(err('Connection terminated unexpectedly'))).toBe(false);
    expect(nothingWritten(err('Query read timeout'))).toBe(false);
    expect(nothingWritten(err('terminating connection due to administrator command', '57P01'))).toBe(false);
    expect(nothingWritten(err('read ECONNRESET', 'ECONNRESET'))).toBe(false);
    expect(nothingWritten(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(nothingWritten(undefined)).toBe(false);
  });
});
