// The assistant's one-line description of a request (requestGist, requestLine): the types it words by hand, and every
// other type (the registry's and an administrator's) by its first two required fields, as the form shows them.
import { describe, expect, it } from 'vitest';
import { requestGist, requestLine } from './format.js';

describe('requestGist', () => {
  it('words a leave request by its type, dates and days', () => {
    const rec = { form_type: 'leave-request', leave_type: 'Annual', start_date: '2027-04-12', end_date: '2027-04-13', total_days: 2 };
    expect(requestGist(rec)).toBe('Annual leave, 12 Apr 2027 to 13 Apr 2027, 2 days');
  });

  it('describes any other type by its first two required fields that have a value, dates and money as the other lines write them', () => {
    const training = { form_type: 'training-request', training_program: 'Advanced SQL', training_provider: 'DataCamp', training_cost: 450 };
    expect(requestGist(training)).toBe('Advanced SQL, DataCamp');
    const expense = { form_type: 'expense-reimbursement', expense_period: 'May 2027', total_amount: 1234.5 };
    expect(requestGist(expense)).toBe('May 2027, USD $1,234.50');
    // The first field empty: the next two with a value.
    expect(requestGist({ ...training, training_program: '', start_date: '2027-05-03' })).toBe('DataCamp, 3 May 2027');
    const event = { form_type: 'event-participation', event_name: 'PGConf', event_date: '2027-06-10' };
    expect(requestLine({ ...event, request_id: 'EVT-000042' })).toBe('EVT-000042 · Event Participation (PGConf, 10 Jun 2027)');
  });

  it('cuts a long value short at a word, and says nothing for a type it does not know', () => {
    const long = 'A very long name of a training programme that goes on and on about what it covers in detail';
    const gist = requestGist({ form_type: 'training-request', training_program: long, training_provider: 'Acme' });
    expect(gist).toBe('A very long name of a training programme that goes on and…, Acme');
    expect(requestGist({ form_type: 'no-such-type', anything: 'x' })).toBe('');
  });
});
