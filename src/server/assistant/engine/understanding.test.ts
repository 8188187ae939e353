// Understanding people as they really write (issue 19), below the HTTP level: a question about a request is never
// a new one, per-field corrections change only their field, text is kept as typed, real English words are not
// 'corrected', and the classifier's corpus has at least 40 phrasings per intent. The conversations themselves are
// in dialogues-wild.test.ts.
import { describe, expect, it } from 'vitest';
import { FORM_CORPUS, INTENT_CORPUS } from '../corpus/intents.js';
import { WILD_FORM_CORPUS, WILD_INTENT_CORPUS } from '../corpus/wild.js';
import { extract } from './extract.js';
import { extractFieldsAsTyped, fieldCorrection } from './fields.js';
import { correctWord, normalise } from './text.js';
import { decisionCommand, isRequestQuestion, understand } from './understand.js';

const now = new Date('2026-11-24T06:00:00Z'); // a Tuesday
const employee = { approver: false, holidayNames: ['Diwali', 'Christmas'] };
const intentOf = async (text: string, opts = employee) => (await understand(normalise(text).lower, opts)).intent;

describe('questions about requests', () => {
  it.each([
    'has the Berlin trip been okayed yet?',
    'any news on the contract I sent?',
    'were my room bookings confirmed?',
    'did my lisbon travel go through',
    'why did they refuse my travel request?',
    'how come my expense claim was turned down?',
    'list the ones that were declined',
    'how many of mine are still waiting',
    "what's the story with EXP-000034",
    'hey so LR-000072 - is that one sorted or not',
    'reason for rejection on NDA-000096',
    'leave approved?',
    'is the NDA with Stark Industries done?',
    'just wondering if my trip to Dublin went through, I need to book hotels lol',
  ])('%s -> a status answer, never a form', async (text) => {
    expect(await intentOf(text)).toBe('requests.status');
  });

  it.each([
    'Can I have next friday off? Annual leave for a dentist appointment',
    'book Conference Room B thursday 2 till 3 for 4 people',
    'I need to fly to Geneva 10 feb 2027 - 12 feb 2027 for arbitration hearing',
    'petty cash $30 by 12 feb 2027, Birthday cake for Priya',
  ])('%s -> still a request', async (text) => {
    expect(isRequestQuestion(normalise(text).lower)).toBe(false);
    expect(await intentOf(text)).toBe('form');
  });

  it('a question naming a decision decides nothing', () => {
    expect(decisionCommand('did i already approve lr-000012?')).toBeUndefined();
    expect(decisionCommand('why was pc-000092 declined')).toBeUndefined();
    expect(decisionCommand('looks fine, approve it')?.decision).toBe('Approved');
    expect(decisionCommand('no to pc-000012')?.decision).toBe('Rejected');
  });

  it('approvers asking about their queue get their queue', async () => {
    const approver = { ...employee, approver: true };
    for (const text of [
      'anything on my plate?',
      'sup, anything i gotta approve',
      'how many can I decide right now?',
      'anything needs my sign off?',
    ])
      expect(await intentOf(text, approver), text).toBe('approvals.queue');
  });
});

describe('slots as people write them', () => {
  const fields = (formType: string, text: string) => {
    const nm = normalise(text);
    return extractFieldsAsTyped(formType, nm.fixed, nm.original, now);
  };

  it('keeps a reason after a comma exactly as typed', () => {
    expect(fields('leave-request', 'Casual leave on 14 April 2027, Dentist appt - pls cover standup')).toMatchObject({
      leave_type: 'Casual',
      start_date: '2027-04-14',
      reason: 'Dentist appt - pls cover standup',
    });
    expect(fields('leave-request', 'can i get casual leave next thursday, car service').reason).toBe('car service');
  });

  it('reads bare time slots, people counts and month-day dates (next occurrence)', () => {
    expect(fields('meeting-room', 'book Conference Room B thursday 2 till 3 for 4 people')).toMatchObject({
      start_time: '14:00',
      end_time: '15:00',
      participants_count: 4,
    });
    expect(extract('only me, nobody else', now).participants?.n).toBe(1);
    expect(extract('me + 2', now).participants?.n).toBe(3);
    expect(fields('travel-request', 'trip to Milan april 20 to april 22')).toMatchObject({
      departure_date: '2027-04-20',
      return_date: '2027-04-22',
    });
  });

  it('a correction changes only the field it names', () => {
    const leave = { leave_type: 'Annual', start_date: '2027-06-07', end_date: '2027-06-09', reason: 'family function' };
    expect(fieldCorrection('leave-request', 'sorry end is 10 june', now, leave)).toEqual({ end_date: '2027-06-10' });
    expect(fieldCorrection('leave-request', 'actually the end date is the 12th', now, leave)).toEqual({ end_date: '2027-06-12' });
    expect(fieldCorrection('leave-request', 'change the start date to 8 june 2027', now, leave)).toEqual({ start_date: '2027-06-08' });
    expect(fieldCorrection('leave-request', 'actually the reason is: Taking the cat to the VET', now, leave)).toEqual({
      reason: 'Taking the cat to the VET',
    });
    const room = {
      room_requested: 'Training Room',
      booking_date: '2027-03-16',
      start_time: '09:00',
      end_time: '10:00',
      participants_count: 12,
    };
    expect(fieldCorrection('meeting-room', 'actually make the end time 11', now, room)).toEqual({ end_time: '11:00' });
    expect(fieldCorrection('meeting-room', "sorry it's 7 people", now, room)).toEqual({ participants_count: 7 });
    const trip = { destination: 'Munich', departure_date: '2027-05-03', return_date: '2027-05-05', total_estimated_cost: 1400 };
    expect(fieldCorrection('travel-request', 'actually I come back on the 6th', now, trip)).toEqual({ return_date: '2027-05-06' });
    expect(fieldCorrection('travel-request', 'change the cost to 2300', now, trip)).toEqual({ total_estimated_cost: 2300 });
  });
});

describe('spelling', () => {
  it('corrects words that are not English and leaves English words alone', () => {
    expect(correctWord('anual')).toBe('annual');
    expect(correctWord('balanse')).toBe('balance');
    for (const w of ['sister', 'plate', 'story', 'sorted', 'refuse', 'cover', 'resend', 'knocked']) expect(correctWord(w)).toBe(w);
  });
});

describe('the classifier corpus', () => {
  it('has at least 40 different phrasings per intent and form type', () => {
    for (const [intent, list] of Object.entries(INTENT_CORPUS))
      expect(new Set([...list, ...(WILD_INTENT_CORPUS[intent] ?? [])]).size, intent).toBeGreaterThanOrEqual(40);
    for (const [formType, list] of Object.entries(FORM_CORPUS))
      expect(new Set([...list, ...(WILD_FORM_CORPUS[formType] ?? [])]).size, formType).toBeGreaterThanOrEqual(40);
  });
});
