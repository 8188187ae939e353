// The working days a step has waited and what is due for it (docs/delegation.md).
import { describe, expect, it } from 'vitest';
import { DEFAULT_REMINDER_SETTINGS, isOverdue, reminderStep, waitingLabel, workingDaysWaited } from './reminders';

describe('reminders', () => {
  it('counts the working days after the day a step began waiting, without weekends and closed days', () => {
    expect(workingDaysWaited('2026-12-04', '2026-12-04')).toBe(0); // Friday, same day
    expect(workingDaysWaited('2026-12-04', '2026-12-06')).toBe(0); // the weekend
    expect(workingDaysWaited('2026-12-04', '2026-12-07')).toBe(1); // Monday
    expect(workingDaysWaited('2026-12-04', '2026-12-08')).toBe(2);
    expect(workingDaysWaited('2026-12-04', '2026-12-08', new Set(['2026-12-07']))).toBe(1); // a closed Monday
    expect(workingDaysWaited('2026-12-08', '2026-12-04')).toBe(0);
  });
  it('reminds from the first limit and escalates from the second', () => {
    const s = DEFAULT_REMINDER_SETTINGS;
    expect([1, 2, 4, 5, 9].map((d) => reminderStep(d, s))).toEqual(['none', 'remind', 'remind', 'escalate', 'escalate']);
    expect(isOverdue(1, s)).toBe(false);
    expect(isOverdue(2, s)).toBe(true);
    expect(reminderStep(1, { remind_after_days: 1, escalate_after_days: 3 })).toBe('remind');
  });
  it('says how long in words', () => {
    expect([0, 1, 3].map(waitingLabel)).toEqual(['Waiting since today', 'Waiting 1 day', 'Waiting 3 days']);
  });
});
