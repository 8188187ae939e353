// Unit tests of the display formats.
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatText, formatUsd } from './format';

describe('formatDate', () => {
  it('formats a calendar day without shifting it', () => {
    expect(formatDate('2015-03-02')).toBe('2 Mar 2015');
    expect(formatDate('2024-12-31')).toBe('31 Dec 2024');
  });
  it('shows No date for missing values and echoes unparseable text', () => {
    expect(formatDate(null)).toBe('No date');
    expect(formatDate('')).toBe('No date');
    expect(formatDate(undefined, '—')).toBe('—');
    expect(formatDate('soon')).toBe('soon');
  });
  it('formats timestamps', () => {
    expect(formatDate(new Date(2024, 0, 5, 12))).toBe('5 Jan 2024');
    // a timestamp's date is the business date (India by default): 19:00 UTC is already the next day there
    expect(formatDate('2026-11-23T18:29:00Z')).toBe('23 Nov 2026');
    expect(formatDate('2026-11-23T19:00:00Z')).toBe('24 Nov 2026');
    expect(formatDateTime(new Date(2024, 0, 5, 9, 7))).toBe('5 Jan 2024, 09:07');
  });
});

describe('formatUsd', () => {
  it('shows USD $ with two decimals and thousands separators', () => {
    expect(formatUsd(1234.5)).toBe('USD $1,234.50');
    expect(formatUsd('75')).toBe('USD $75.00');
    expect(formatUsd(0)).toBe('USD $0.00');
  });
  it('leaves missing and non-numeric values readable', () => {
    expect(formatUsd(null)).toBe('');
    expect(formatUsd('n/a')).toBe('n/a');
  });
});

describe('formatText (values of unknown kind)', () => {
  it('shows ISO dates and timestamps in the app formats, other text as it is', () => {
    expect(formatText('2027-03-10')).toBe(formatDate('2027-03-10'));
    expect(formatText('2027-03-10T09:30:00.000Z')).toBe(formatDateTime('2027-03-10T09:30:00.000Z'));
    expect(formatText('2027-03-10T09:30:00.000Z')).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(formatText('Room 2027-A')).toBe('Room 2027-A');
    expect(formatText('TICKET-2026-777')).toBe('TICKET-2026-777');
  });
});
