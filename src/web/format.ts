// Display formats used everywhere in the web app: one date format, one date-time format, and USD amounts.

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const dateFormatUtc = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** '2 Mar 2015'. Date-only values ('2015-03-02') are calendar days and never shift with the time zone. Missing: 'No date'. */
export function formatDate(value: string | Date | null | undefined, missing = 'No date'): string {
  if (value === null || value === undefined || value === '') return missing;
  if (typeof value === 'string' && DATE_ONLY.test(value)) {
    const date = new Date(`${value}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? value : dateFormatUtc.format(date);
  }
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateFormat.format(date);
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
