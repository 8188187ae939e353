// Unit tests of the display formats.
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatUsd } from './format';

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
