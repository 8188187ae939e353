// Which messages read open dates backwards ('on monday' = last monday): the registry's allowPast decides, not a list
// of its own in the assistant (issue 17). A sick leave is retrospective (the registry accepts its past dates), an
// annual leave is not; an expense claim has no rule of its own here.
import { describe, expect, it } from 'vitest';
import { FORM_TYPES, formTypeDef } from '../../../domain/forms.js';
import { addDays, isoDay, nextWeekday } from './extract.js';
import { extractFields, interpretAnswer, readsDatesBackwards } from './fields.js';

// A Wednesday at noon UTC: 'monday' is two days back or five ahead.
const now = new Date('2027-03-10T12:00:00Z');
const today = isoDay(now);

describe('past dates in the assistant follow the registry', () => {
  it('a type reads dates backwards exactly when the registry lets it take past dates unconditionally', () => {
    for (const def of FORM_TYPES) {
      expect(readsDatesBackwards(def, ''), def.formType).toBe(def.allowPast === true);
    }
  });

  it('a sick leave said in the message or already on the form reads "since monday" as last monday', () => {
    const lastMonday = addDays(today, -2);
    expect(extractFields('leave-request', 'sick leave since monday', now).fields).toMatchObject({
      leave_type: 'Sick',
      start_date: lastMonday,
    });
    expect(interpretAnswer('leave-request', 'start_date', 'monday', now, { leave_type: 'Sick' })).toMatchObject({
      start_date: lastMonday,
    });
    expect(readsDatesBackwards(formTypeDef('leave-request')!, 'i was sick')).toBe(true);
  });

  it('words that say the way win: a sick leave "next friday" is ahead, an incident "last friday" and "coming friday" as said', () => {
    expect(extractFields('leave-request', 'sick leave next friday', now).fields).toMatchObject({
      leave_type: 'Sick',
      start_date: nextWeekday(today, 5),
    });
    expect(extractFields('leave-request', 'I am not feeling well, need sick leave on the coming friday', now).fields).toMatchObject({
      start_date: nextWeekday(today, 5),
    });
    expect(extractFields('it-incident', 'the vpn broke last friday', now).fields).toMatchObject({ incident_date: addDays(today, -5) });
    expect(extractFields('it-incident', 'the vpn broke on friday', now).fields).toMatchObject({ incident_date: addDays(today, -5) });
  });

  it('an annual leave "on monday" is still next monday', () => {
    expect(extractFields('leave-request', 'annual leave on monday', now).fields).toMatchObject({
      leave_type: 'Annual',
      start_date: nextWeekday(today, 1),
    });
    expect(readsDatesBackwards(formTypeDef('leave-request')!, 'annual leave')).toBe(false);
  });

  it('an expense reimbursement is not retrospective for the assistant unless the registry says so', () => {
    const def = formTypeDef('expense-reimbursement')!;
    expect(readsDatesBackwards(def, 'expenses from last week')).toBe(def.allowPast === true);
  });
});
