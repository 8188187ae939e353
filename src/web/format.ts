// Display formats used everywhere in the web app: one date format, one date-time format, and USD amounts.

import { businessDate } from '../domain/business-time';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const dateFormatUtc = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

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

/** '2 Mar 2015, 14:05' in the viewer's time zone. Missing: 'No date'. */
export function formatDateTime(value: string | Date | null | undefined, missing = 'No date'): string {
  if (value === null || value === undefined || value === '') return missing;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat.format(date);
}

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 'USD $1,234.50'. Non-numbers show as given ('' for missing). */
export function formatUsd(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? `USD $${money.format(n)}` : String(value);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Text of a stored value for people: an ISO date ('2027-03-10') in the date format, an ISO timestamp in the
 * date-time format, anything else as it is. Used where a field's kind is not known (generic detail lists).
 */
export function formatText(value: string): string {
  const v = value.trim();
  if (DATE_ONLY.test(v)) return formatDate(v);
  if (ISO_DATE_TIME.test(v)) return formatDateTime(v);
  return value;
}
