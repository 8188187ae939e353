// The flattened record every list, queue and details answer is made of (toRecord): its stage fields, dates and
// order of fields, built the fast way (one spread, literal names; see literalStageWriter) with the same result as
// computing each name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Factories, factories } from '../test/factories.js';
import { type TestApp, startTestApp } from '../test/harness.js';
import { type ApprovalRow, type RecordRow, loadRecordByRef, signersOf, toRecord } from './repo.js';

let t: TestApp;
let f: Factories;
beforeAll(async () => {
  t = await startTestApp();
  f = factories(t);
});
afterAll(async () => t?.close());

const approval = (stage: string, over: Partial<ApprovalRow> = {}): ApprovalRow =>
  ({
    stage,
    decision: 'Pending',
    signer_id: null,
    signer_name: null,
    decided_at: null,
    rejection_reason: null,
    comments: null,
    ...over,
  }) as ApprovalRow;

const row = (over: Partial<RecordRow>): RecordRow => ({
  pk: 7,
  version: '1',
  revision: 3,
  request_id: 'LR-000007',
  form_type: 'leave-request',
  employee_user_id: 11,
  line_manager_id: 12,
  hr_contact_id: 13,
  status: 'Pending',
  current_stage: 'hr',
  data: { leave_type: 'Annual Leave', start_date: '2026-03-02', end_date: '2026-03-03', reason: 'Family' },
  created_at: '2026-03-01T04:50:30.123Z',
  updated_at: '2026-03-01T09:00:00.000Z',
  employee_code: 'EMP011',
  employee_name: 'Ann Example',
  department: 'Sales',
  manager_name: 'Max Manager',
  approvals: [],
  ...over,
});

describe('toRecord', () => {
  it('writes each stage as <prefix>_approval, _signature, _date, _rejected_reason, and the optional fields only when set', () => {
    const rec = toRecord(
      row({
        approvals: [
          approval('line_manager', {
            decision: 'Approved',
            signer_id: 12,
            signer_name: 'Max Manager',
            decided_at: '2026-03-01T20:00:00.000+00:00',
            comments: 'Enjoy',
            decided_as: 'delegate',
            on_behalf_of_name: 'Mia Boss',
          }),
          approval('hr'),
        ],
      }),
    );
    expect(Object.keys(rec)).toEqual([
      'leave_type',
      'start_date',
      'end_date',
      'reason',
      'id',
      'request_id',
      'form_id',
      'form_type',
      'title',
      'employee_id',
      'employee_user_id',
      'employee_name',
      'department',
      'line_manager',
      'manager',
      'status',
      'current_stage',
      'created_at',
      'updated_at',
      'line_manager_approval',
      'line_manager_signature',
      'line_manager_date',
      'line_manager_rejected_reason',
      'line_manager_comments',
      'line_manager_decided_as',
      'line_manager_on_behalf_of',
      'hr_approval',
      'hr_signature',
      'hr_date',
      'hr_rejected_reason',
      'form_type_version',
      'next_stage',
      'version',
    ]);
    expect(rec).toMatchObject({
      id: 7,
      form_id: 'LR-000007',
      employee_id: 'EMP011',
      created_at: '2026-03-01T04:50:30.123Z',
      line_manager_approval: 'Approved',
      line_manager_signature: 'Max Manager',
      // the organisation's calendar day (Asia/Kolkata) of 20:00 UTC
      line_manager_date: '2026-03-02',
      line_manager_rejected_reason: '',
      line_manager_on_behalf_of: 'Mia Boss',
      hr_approval: 'Pending',
      hr_signature: null,
      hr_date: null,
      version: 3,
    });
    expect(signersOf(rec)).toMatchObject([
      { stage: 'line_manager', signer_id: 12 },
      { stage: 'hr', signer_id: null },
    ]);
    expect(Object.keys(JSON.parse(JSON.stringify(rec)))).toEqual(Object.keys(rec));
  });

  it('leaves the secret fields out, and names the stages of a chain defined as data by their own names', () => {
    const rec = toRecord(
      row({
        form_type: 'team-offsite',
        data: { new_password_enc: 'sealed', venue: 'Lake House' },
        approvals: [
          approval('sponsor', { approver: 'role:director', stage_label: 'Sponsor', decision: 'Rejected', rejection_reason: 'Budget' }),
        ],
      }),
    );
    expect('new_password_enc' in rec).toBe(false);
    expect(rec.venue).toBe('Lake House');
    expect([rec.sponsor_approval, rec.sponsor_rejected_reason]).toEqual(['Rejected', 'Budget']);
    expect(rec.approval_chain).toEqual([expect.objectContaining({ stage: 'sponsor', label: 'Sponsor', decision: 'Rejected' })]);
  });

  it('carries the stored moments as the ISO text Date writes (UTC, to the millisecond)', async () => {
    const { employee } = await f.team();
    const made = await f.request({ owner: employee, formType: 'travel-request', state: 'pending' });
    await t.db.query(`UPDATE requests SET created_at = '2026-03-04 10:20:30.123987+05:30' WHERE request_id = $1`, [made.request_id]);
    const stored = await t.db.query<{ created_at: Date; updated_at: Date }>(
      'SELECT created_at, updated_at FROM requests WHERE request_id = $1',
      [made.request_id],
    );
    const rec = toRecord((await loadRecordByRef(t.db, made.request_id))!);
    expect(rec.created_at).toBe('2026-03-04T04:50:30.123Z');
    expect(rec.created_at).toBe(stored.rows[0].created_at.toISOString());
    expect(rec.updated_at).toBe(stored.rows[0].updated_at.toISOString());
  });
});
