// Unit tests of the engine's understanding: intents and form types over many phrasings (not the dialogue
// sentences), typo correction that leaves real words and names alone, and entity extraction (dates, ranges,
// times, money, counts, rooms, systems, destinations, reasons) into form fields.
import { describe, expect, it } from 'vitest';
import { addWorkingDays, extract, isoDay, nextWeekday } from './extract.js';
import { extractFields, interpretAnswer } from './fields.js';
import { normalise } from './text.js';
import { isAffirmative, isNegative, understand } from './understand.js';

const HOLIDAYS = ['republic day', 'diwali', 'holi', 'christmas', 'christmas day', 'independence day', 'eid', 'pongal'];
const now = new Date();
const today = isoDay(now);

async function intentOf(text: string, approver = false) {
  const u = await understand(normalise(text).lower, { approver, holidayNames: HOLIDAYS });
  return u.intent === 'form' ? `form:${u.formType}` : u.intent;
}

describe('understanding', () => {
  const cases: Array<[string, string, boolean?]> = [
    ['hey there', 'greet'],
    ['what are you able to help with?', 'help'],
    ['what kind of stuff can you do', 'help'],
    ['how much vacation do I still have', 'leave.balance'],
    ['hw mny leav days r left', 'leave.balance'],
    ['whats my leev balance', 'leave.balance'],
    ['am I out of annual leave?', 'leave.balance'],
    ['has my leave request been approved yet?', 'requests.status'],
    ['any news on my petty cash?', 'requests.status'],
    ['pc 20 usd 3 march 2027 props', 'form:petty-cash'],
    ['need pc $45 for the team lunch', 'form:petty-cash'],
    ['my pc is broken, the screen stays black', 'form:it-incident'],
    ['my pc 2 is not booting', 'form:it-incident'],
    ['show me all my submissions', 'requests.status'],
    ['status of TR-000012', 'requests.status'],
    ['when is diwali this year', 'holiday.info'],
    ['list the public holidays in 2027', 'holiday.info'],
    ["when's the next public holiday?", 'holiday.info'],
    ['I want to take a holiday next week', 'form:leave-request'],
    ['I need a day off next friday for a trip to Goa', 'form:leave-request'],
    ['apply casual leave for 2027-02-15, plumber visit', 'form:leave-request'],
    ["I'll be off sick tomorrow", 'form:leave-request'],
    ['reserve the training room on 3 March 2027 from 1pm to 2:30pm for 12 people', 'form:meeting-room'],
    ['Can I get Conference Room B next Tuesday 9-10am for 4?', 'form:meeting-room'],
    ['wifi keeps dropping in the meeting rooms', 'form:it-incident'],
    ["I can't open excel, it shows an error", 'form:it-incident'],
    ['the printer on floor 3 is jammed again', 'form:it-incident'],
    ['need my ERP password reset, I keep getting locked out', 'form:password-reset'],
    ["I'm locked out of outlook", 'form:password-reset'],
    ['can I get 60 USD from petty cash for printer ink?', 'form:petty-cash'],
    ['I need to go to Mumbai on 4 Feb 2027 and come back on 6 Feb 2027 for the client audit', 'form:travel-request'],
    ['book a business trip to Lisbon', 'form:travel-request'],
    ['we need 5 monitors at 200 dollars each for the new interns', 'form:purchase-requisition'],
    ['raise a requisition for a projector', 'form:purchase-requisition'],
    ['change my phone number to +91 99999 11111', 'form:info-update'],
    ['I lost my access card', 'form:facility-access'],
    ['I need a new headset for calls', 'form:equipment-request'],
    ['sign me up for an AWS certification course', 'form:training-request'],
    ['book a cab to the airport at 6am tomorrow', 'form:transport-request'],
    ['there is a leak in the kitchen ceiling', 'form:maintenance-request'],
    ['someone slipped on the wet floor in the lobby', 'form:safety-incident'],
    ['we need an NDA with Contoso before Monday', 'form:nda-request'],
    ['claim my dental treatment costs', 'form:medical-claim'],
    ['I drove 84 km to a client site, mileage claim please', 'form:mileage-claim'],
    ['please cancel my meeting room booking MR-000012', 'request.withdraw'],
    ["I don't need the room anymore, withdraw MR-000012", 'request.withdraw'],
    ['approve LR-000123', 'approvals.approve', true],
    ['go ahead and approve it', 'approvals.approve', true],
    ["approve Chloe's leave", 'approvals.approve', true],
    ['decline PC-000045 because receipts are missing', 'approvals.reject', true],
    ["I'm rejecting PC-000045", 'approvals.reject', true],
    ['how many requests are waiting for my approval?', 'approvals.queue', true],
    ['do I have anything pending to approve?', 'approvals.queue', true],
    ['which leave requests need HR approval?', 'approvals.queue', true],
    ['show me the details of LR-000123', 'approvals.details', true],
    ['approve LR-000123', 'approvals.approve', false],
  ];
  for (const [text, want, approver] of cases) {
    it(`${text} -> ${want}`, async () => {
      expect(await intentOf(text, approver ?? false)).toBe(want);
    });
  }

  it('reads yes and no answers', () => {
    for (const y of ['yes', 'Yes, submit it', 'yes please', 'sure', 'confirm', 'ok go ahead', 'sounds good', 'yep'])
      expect(isAffirmative(normalise(y).lower), y).toBe(true);
    for (const n of ['no', 'no, cancel that', 'cancel', 'never mind', 'nope', 'forget it', 'stop']) {
      expect(isNegative(normalise(n).lower), n).toBe(true);
      expect(isAffirmative(normalise(n).lower), n).toBe(false);
    }
    expect(isAffirmative('yes but not today')).toBe(false);
  });

  it('takes only an explicit yes as a confirmation, not a message that merely starts with ok', () => {
    for (const y of [
      'Yes, withdraw it',
      'Yes, approve',
      'yes, approve LR-000123',
      'sure, go ahead and book it',
      'ok',
      'okay, submit it please',
      'go ahead',
    ])
      expect(isAffirmative(normalise(y).lower), y).toBe(true);
    for (const n of [
      'ok, tell me more about it before I approve it',
      'ok, tell me more about LR-000123 before I approve it',
      'okay what does it cost?',
      'yes?',
      'ok so what is the room capacity',
      'sure, but first show me the details',
    ])
      expect(isAffirmative(normalise(n).lower), n).toBe(false);
    // the opposite decision is no yes to a prepared one
    expect(isAffirmative('reject', { action: 'approve' })).toBe(false);
    expect(isAffirmative('approve', { action: 'reject' })).toBe(false);
    expect(isAffirmative('yes, reject it', { action: 'reject' })).toBe(true);
    // nor is an approval of another request
    expect(isAffirmative('approve lr-000002', { action: 'approve', requestId: 'LR-000001' })).toBe(false);
    expect(isAffirmative('approve lr-1', { action: 'approve', requestId: 'LR-000001' })).toBe(true);
  });
});

describe('normalisation', () => {
  it('corrects typos against the vocabulary and leaves real words, names and ids alone', () => {
    expect(normalise('hw many anual leav days do i hav left').fixed).toBe('how many annual leave days do i have left');
    expect(normalise('apporve LR-000123 pls').fixed).toBe('approve LR-000123 please');
    expect(normalise('my sister is visiting').fixed).toBe('my sister is visiting');
    expect(normalise("approve chloe's leave").fixed).toBe("approve chloe's leave");
    expect(normalise('travel to Lisbon next week').fixed).toBe('travel to Lisbon next week');
    expect(normalise('could you book it').fixed).toBe('could you book it');
    expect(normalise('water leaking on the wet floor').fixed).toBe('water leaking on the wet floor');
    expect(normalise('food poisoning').fixed).toBe('food poisoning');
    expect(normalise('has my leave been aproved').fixed).toBe('has my leave been approved');
  });
});

describe('extraction', () => {
  const f = (formType: string, text: string) => extractFields(formType, normalise(text).fixed, now).fields;

  it('a message that corrects itself keeps the corrected date, and only that one changes', () => {
    expect(f('meeting-room', 'gimme a meeting room tmrw-ish... actually 2 feb 2027, 11 to 12, me + 2')).toMatchObject({
      booking_date: '2027-02-02',
      start_time: '11:00',
      end_time: '12:00',
    });
    expect(f('leave-request', 'sick leave on 8 march 2027, sorry I mean 9 march 2027')).toMatchObject({ start_date: '2027-03-09' });
    expect(f('leave-request', 'annual leave 3 march 2027 to 5 march 2027, no wait 4 march 2027 to 6 march 2027')).toMatchObject({
      start_date: '2027-03-04',
      end_date: '2027-03-06',
    });
    expect(f('travel-request', 'trip to Pune leaving 3 march 2027 back 5 march 2027, actually 6 march 2027')).toMatchObject({
      departure_date: '2027-03-03',
      return_date: '2027-03-06',
    });
    // A terse message ends with its purpose; a courtesy at the end is none.
    expect(f('petty-cash', 'pc 20 usd 3 march 2027 props')).toMatchObject({
      amount_requested: 20,
      expected_settlement_date: '2027-03-03',
      purpose: 'props',
    });
    expect(f('leave-request', 'annual leave on 3 march 2027 please').reason).toBeUndefined();
    expect(f('leave-request', 'annual leave on 3 march 2027 thanks').reason).toBeUndefined();
    expect(f('petty-cash', 'petty cash 20 usd by 3 march 2027 if that is ok').purpose).toBeUndefined();
    // Apologies and the like with no date after them change nothing.
    expect(f('leave-request', 'sick leave on 8 march 2027, sorry for the short notice')).toMatchObject({ start_date: '2027-03-08' });
    expect(f('leave-request', 'sorry, I actually need annual leave from 3 march 2027 to 5 march 2027')).toMatchObject({
      start_date: '2027-03-03',
      end_date: '2027-03-05',
    });
  });

  it('reads absolute, relative and ordinal dates and ranges', () => {
    expect(f('leave-request', "annual leave from 3rd to 5th of February 2027 for my cousin's wedding")).toMatchObject({
      leave_type: 'Annual',
      start_date: '2027-02-03',
      end_date: '2027-02-05',
      reason: "my cousin's wedding",
    });
    expect(f('leave-request', 'can I take next monday off? annual leave, errands')).toMatchObject({
      start_date: nextWeekday(today, 1),
      end_date: nextWeekday(today, 1),
      reason: 'errands',
    });
    expect(f('leave-request', 'sick leave between 8 march 2027 and 9 march 2027')).toMatchObject({
      leave_type: 'Sick',
      start_date: '2027-03-08',
      end_date: '2027-03-09',
    });
    expect(f('leave-request', 'request 2 days annual leave starting 1 March 2027, family trip')).toMatchObject({
      start_date: '2027-03-01',
      end_date: addWorkingDays('2027-03-01', 2),
      reason: 'family trip',
    });
    expect(f('leave-request', 'annual leave from 10 May 2027 to 7 May 2027')).toMatchObject({
      start_date: '2027-05-10',
      end_date: '2027-05-07',
    });
    expect(
      f('travel-request', 'I need to go to Mumbai on 4 Feb 2027 and come back on 6 Feb 2027 for the client audit, about $650'),
    ).toMatchObject({
      destination: 'Mumbai',
      departure_date: '2027-02-04',
      return_date: '2027-02-06',
      total_estimated_cost: 650,
      travel_purpose: 'the client audit',
    });
  });

  it('reads times, rooms and participants', () => {
    expect(f('meeting-room', 'reserve the training room on 3 March 2027 from 1pm to 2:30pm for 12 people')).toMatchObject({
      room_requested: 'Training Room',
      booking_date: '2027-03-03',
      start_time: '13:00',
      end_time: '14:30',
      participants_count: 12,
    });
    expect(f('meeting-room', 'Can I get Conference Room B on 9 March 2027 9-10am for 4?')).toMatchObject({
      room_requested: 'Conference Room B',
      start_time: '09:00',
      end_time: '10:00',
      participants_count: 4,
    });
    expect(f('meeting-room', 'book a room at 3pm for an hour for six people')).toMatchObject({
      start_time: '15:00',
      end_time: '16:00',
      participants_count: 6,
    });
    expect(f('meeting-room', 'I need a meeting room')).toEqual({});
    expect(f('meeting-room', 'book the boardroom tomorrow at 14:00 until 15:15')).toMatchObject({
      room_requested: 'Board Room',
      start_time: '14:00',
      end_time: '15:15',
    });
  });

  it('reads money, quantities, systems and reasons', () => {
    expect(f('petty-cash', 'can I get 60 USD from petty cash for printer ink? I will return the receipts by 5 March 2027')).toMatchObject({
      amount_requested: 60,
      expected_settlement_date: '2027-03-05',
      purpose: 'printer ink',
    });
    expect(f('purchase-requisition', 'we need 5 monitors at 200 dollars each for the new interns')).toMatchObject({
      quantity: 5,
      unit_cost: 200,
      item_description: 'monitors',
      purpose_of_purchase: 'the new interns',
    });
    expect(f('it-incident', 'my laptop cannot reach the VPN since this morning')).toMatchObject({ affected_system: 'VPN' });
    expect(f('password-reset', 'reset my salesforce password, I forgot it')).toMatchObject({
      system_for_reset: 'CRM',
      reset_reason: 'Forgotten Password',
    });
    expect(f('password-reset', 'my VPN password may have leaked in a phishing mail')).toMatchObject({
      system_for_reset: 'VPN',
      reset_reason: 'Security Concern',
    });
    expect(f('info-update', 'change my phone number to +91 99999 11111')).toMatchObject({
      update_type: 'Phone Number',
      new_information: '+91 99999 11111',
    });
  });

  it('reads the fields of the other form types', () => {
    expect(
      f(
        'training-request',
        'sign me up for the AWS Solutions Architect course by Amazon from 10 May 2027 to 14 May 2027, it costs 800 USD',
      ),
    ).toMatchObject({
      training_program: 'AWS Solutions Architect',
      training_provider: 'Amazon',
      start_date: '2027-05-10',
      end_date: '2027-05-14',
      training_cost: 800,
    });
    expect(f('employee-onboarding', 'a new hire Anita Rao joins as Paralegal on 1 March 2027')).toMatchObject({
      new_hire_name: 'Anita Rao',
      position: 'Paralegal',
      start_date: '2027-03-01',
    });
    expect(
      f('contract-approval', 'please review the cleaning services contract with Fabrikam Inc worth 18000 dollars starting 1 April 2027'),
    ).toMatchObject({
      contract_title: 'Cleaning Services',
      counterparty: 'Fabrikam Inc',
      contract_value: 18000,
      start_date: '2027-04-01',
    });
    expect(f('medical-claim', 'medical claim for my physiotherapy at City Clinic on 10 November 2026, 140 dollars')).toMatchObject({
      provider: 'City Clinic',
      claim_amount: 140,
      treatment_date: '2026-11-10',
      description: 'my physiotherapy',
    });
    expect(f('maintenance-request', 'there is water leaking from the ceiling in the second floor kitchen')).toMatchObject({
      location: 'Second Floor Kitchen',
    });
    expect(f('safety-incident', 'someone slipped on the wet floor in the lobby')).toMatchObject({ location: 'Lobby' });
    expect(f('expense-reimbursement', 'claim expenses for my client visit in October 2026, 230 dollars in taxis and meals')).toMatchObject({
      expense_period: 'October 2026',
      total_amount: 230,
      description: 'my client visit',
    });
    expect(f('transport-request', 'request a taxi to the airport on 3 February 2027 at 6am for 2 people')).toMatchObject({
      destination: 'Airport',
      travel_date: '2027-02-03',
      travel_time: '06:00',
      passengers: 2,
    });
    expect(f('it-access', 'I need access to Salesforce with write rights for the Q3 campaign')).toMatchObject({
      access_type: 'New Access',
      requested_systems: 'CRM',
      access_level: 'Write',
    });
  });

  it('reads one answer for the field that was asked', () => {
    expect(interpretAnswer('meeting-room', 'start_time', '2pm to 3:30pm', now, {})).toEqual({ start_time: '14:00', end_time: '15:30' });
    expect(interpretAnswer('meeting-room', 'start_time', '10', now, {})).toEqual({ start_time: '10:00' });
    expect(interpretAnswer('meeting-room', 'participants_count', 'eight', now, {})).toEqual({ participants_count: 8 });
    expect(interpretAnswer('leave-request', 'leave_type', 'sick leave', now, {})).toMatchObject({ leave_type: 'Sick' });
    expect(interpretAnswer('leave-request', 'start_date', 'from 2027-02-08 to 2027-02-09', now, {})).toEqual({
      start_date: '2027-02-08',
      end_date: '2027-02-09',
    });
    expect(interpretAnswer('leave-request', 'reason', 'flu', now, { leave_type: 'Sick' })).toEqual({ reason: 'flu' });
    expect(interpretAnswer('password-reset', 'system_for_reset', 'jira', now, {})).toEqual({ system_for_reset: 'Other' });
    expect(interpretAnswer('travel-request', 'destination', 'to berlin', now, {})).toMatchObject({ destination: 'Berlin' });
    expect(interpretAnswer('petty-cash', 'amount_requested', '$25', now, {})).toMatchObject({ amount_requested: 25 });
  });

  it('keeps request ids whole and pads short ones', () => {
    expect(extract('approve lr-123 and PC-000045', now).requestIds).toEqual(['LR-000123', 'PC-000045']);
  });
});

describe('open questions', () => {
  // a stand-in database that records the statements and finds nothing
  function fakeCtx(pending: Record<string, unknown>) {
    const statements: string[] = [];
    const db = {
      query: async (q: string | { text: string }) => {
        statements.push(typeof q === 'string' ? q : q.text);
        return { rows: [], rowCount: 0 };
      },
      tx: async (fn: (c: unknown) => unknown) => fn(db),
    };
    const user = { id: 9001, first_name: 'Test', last_name: 'User', role: 'Employee', user_type: 'employee', manager_id: null } as never;
    return { statements, ctx: { db: db as never, user, now: new Date(), state: { pending: pending as never } } };
  }

  it('a question the user was never shown is not answered, and never confirmed, by the message of the turn', async () => {
    const { handleTurn } = await import('./engine.js');
    const unseen = fakeCtx({ kind: 'withdraw', requestId: 'PC-000001' });
    const r = await handleTurn(unseen.ctx, 'yes');
    expect(r.intent).not.toMatch(/^withdraw\./);
    expect(unseen.ctx.state.pending).toBeUndefined();
    // the same answer to a question that was shown goes to the withdrawal (which finds nothing here)
    const seen = fakeCtx({ kind: 'withdraw', requestId: 'PC-000001', shown: true });
    const r2 = await handleTurn(seen.ctx, 'yes');
    expect(r2.intent).toMatch(/^withdraw\./);
  });
});
