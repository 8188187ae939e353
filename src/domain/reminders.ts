// Reminders and escalation of waiting approvals (docs/delegation.md): how many working days a stage has waited, and
// what is due for it. Shared by the server (the sweep, queue rows, the overdue list) and the web (labels).
import { type ClosedDays, addDays, countWorkingDays } from './business-time.js';

/** Per form type: after how many working days a waiting stage reminds its approvers, and after how many it escalates. */
export interface ReminderSettings {
  remind_after_days: number;
  escalate_after_days: number;
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettings = { remind_after_days: 2, escalate_after_days: 5 };

/**
 * Working days a stage has waited on business date `today` since it began waiting on `since` (a business date):
 * the working days after `since` up to and including `today`. Submitted on Monday, it has waited 2 days on Wednesday.
 */
export function workingDaysWaited(since: string, today: string, closed?: ClosedDays): number {
  if (today <= since) return 0;
  return countWorkingDays(addDays(since, 1), today, closed);
}

/** What a stage that has waited `waited` working days is due: nothing, a reminder (overdue), or an escalation. */
export function reminderStep(waited: number, s: ReminderSettings): 'none' | 'remind' | 'escalate' {
  if (waited >= s.escalate_after_days) return 'escalate';
  if (waited >= s.remind_after_days) return 'remind';
  return 'none';
}

/** Is a stage that has waited `waited` working days overdue (its approvers are being reminded)? */
export function isOverdue(waited: number, s: ReminderSettings): boolean {
  return reminderStep(waited, s) !== 'none';
}

/** 'Waiting 3 days' (working days), as the dashboards show it. */
export function waitingLabel(days: number): string {
  if (days <= 0) return 'Waiting since today';
  return `Waiting ${days} ${days === 1 ? 'day' : 'days'}`;
}
