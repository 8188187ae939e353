// Display formats used everywhere in the web app: one date format, one date-time format, and USD amounts.

import { DATE_ONLY, formatDate } from '../domain/format';

export { formatDate, formatUsd } from '../domain/format';

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** '2 Mar 2015, 14:05' in the viewer's time zone. Missing: 'No date'. */
export function formatDateTime(value: string | Date | null | undefined, missing = 'No date'): string {
  if (value === null || value === undefined || value === '') return missing;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTimeFormat.format(date);
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
