// When a stage began waiting (waitingSinceOf): the latest earlier decision or the submission, compared as moments
// whatever zone PostgreSQL wrote the decision times in (its json text follows the session's TimeZone).
import { beforeAll, describe, expect, it } from 'vitest';
import { businessDate, setBusinessTimeZone } from '../../domain/business-time.js';
import type { ApprovalRow } from '../requests/repo.js';
import { waitingSinceOf } from './service.js';

const step = (stage: string, decision: string, decided_at: string | null): ApprovalRow =>
  ({ stage, decision, decided_at, signer_id: null, signer_name: null, rejection_reason: null, comments: null }) as ApprovalRow;

describe('waitingSinceOf', () => {
  beforeAll(() => setBusinessTimeZone('Asia/Kolkata'));

  it('takes a decision written with a negative offset that is later than the submission', () => {
    // Submitted 23:30 in Kolkata on 4 March; the manager decided at 03:30 Kolkata time on the 5th, which PostgreSQL
    // wrote in a session zone of -05:00 as 17:00 on the 4th: later as a moment, earlier as text.
    const row = {
      created_at: '2026-03-04T18:00:00.000Z',
      approvals: [step('line_manager', 'Approved', '2026-03-04T17:00:00-05:00'), step('hr', 'Pending', null)],
    };
    expect(waitingSinceOf(row, 'hr')).toBe('2026-03-05');
  });

  it('keeps the submission when the earlier decisions are older, and ignores pending and later stages', () => {
    const row = {
      created_at: '2026-03-04T10:00:00.000Z',
      approvals: [
        step('line_manager', 'Approved', '2026-03-04T14:30:00+05:30'), // 09:00 UTC: before the submission (a moved clock)
        step('hr', 'Pending', null),
        step('finance', 'Approved', '2026-03-09T10:00:00+00:00'),
      ],
    };
    expect(waitingSinceOf(row, 'hr')).toBe(businessDate(Date.parse('2026-03-04T10:00:00Z')));
  });

  it('takes the latest of several decisions, with microseconds', () => {
    const row = {
      created_at: '2026-03-02T08:00:00.000Z',
      approvals: [
        step('line_manager', 'Approved', '2026-03-03T09:00:00.123456+00:00'),
        step('hr', 'Approved', '2026-03-06T23:59:59.999999+00:00'),
        step('finance', 'Pending', null),
      ],
    };
    expect(waitingSinceOf(row, 'finance')).toBe(businessDate(Date.parse('2026-03-06T23:59:59.999Z')));
  });
});
