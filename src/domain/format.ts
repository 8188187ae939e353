// Display formats shared by the web app and the server's e-mails: one date format and USD amounts.
import { businessDate } from './business-time.js';

export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const dateFormatUtc = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * '2 Mar 2015'. Date-only values ('2015-03-02') are calendar days and never shift with the time zone; a timestamp
 * shows its business date (the organisation's calendar day). Missing: 'No date'.
 */
export function formatDate(value: string | Date | null | undefined, missing = 'No date'): string {
  if (value === null || value === undefined || value === '') return missing;
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? value : dateFormatUtc.format(date);
  }
  // A moment's date is its day on the organisation's calendar, as the server dates it (business time zone).
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateFormatUtc.format(new Date(`${businessDate(date)}T00:00:00Z`));
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 'USD $1,234.50'. Non-numbers show as given ('' for missing). */
export function formatUsd(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `USD $${money.format(n)}` : String(value);
}
