// Unit tests of the submissions list logic: flattening, '#n of total', newest first, date windows, filters and chips.
import { describe, expect, it } from 'vitest';
import {
  DATE_FILTERS,
  categoryOptions,
  dateFilterStart,
  filterSubmissions,
  flattenUserForms,
  matchesDateFilter,
  openRequests,
  visibleChips,
} from './submissions';
import type { FormRecord } from './types';
import { employeeSummary, statusFilterCounts } from '../../domain/status';

let id = 0;
const rec = (form_type: string, created_at: string, status = 'Pending'): FormRecord => ({
  id: (id += 1),
  request_id: `X-${id}`,
  form_type,
  status,
  created_at,
  employee_id: 'EMP-1',
  employee_user_id: 1,
});

const byType = {
  'leave-request': [rec('leave-request', '2027-03-10T09:00:00Z', 'Approved'), rec('leave-request', '2027-01-05T09:00:00Z', 'Rejected')],
  'purchase-requisition': [rec('purchase-requisition', '2027-03-12T09:00:00Z')],
  'it-incident': [rec('it-incident', '2026-11-01T09:00:00Z', 'Open')],
  'training-request': [rec('training-request', '2027-02-01T09:00:00Z', 'Cancelled')],
};

describe('flattenUserForms', () => {
  const list = flattenUserForms(byType);
  it('merges every type newest first', () => {
    expect(list.map((s) => s.created_at)).toEqual([
      '2027-03-12T09:00:00Z',
      '2027-03-10T09:00:00Z',
      '2027-02-01T09:00:00Z',
      '2027-01-05T09:00:00Z',
      '2026-11-01T09:00:00Z',
    ]);
  });
  it('numbers submissions per type from the oldest (#n of total)', () => {
    const leave = list.filter((s) => s.formType === 'leave-request');
    expect(leave.map((s) => [s.created_at.slice(0, 10), s.submissionNumber, s.totalSubmissions])).toEqual([
      ['2027-03-10', 2, 2],
      ['2027-01-05', 1, 2],
    ]);
  });
  it('derives title, icon and category from the form engine', () => {
    expect(list[0]).toMatchObject({ title: 'Purchase Requisition', icon: 'ShoppingCart', category: 'Finance' });
    expect(list.find((s) => s.formType === 'training-request')?.category).toBe('Other');
  });
  it('treats a missing answer as empty', () => {
    expect(flattenUserForms(undefined)).toEqual([]);
    expect(flattenUserForms({ 'leave-request': null as unknown as FormRecord[] })).toEqual([]);
  });
});

describe('date windows', () => {
  // 15 March 2027, 12:00 in India (the default business zone), 06:30 UTC
  const now = new Date('2027-03-15T06:30:00Z');
  const monthsBefore = (n: number) => new Date(now.getFullYear(), now.getMonth() - n, now.getDate(), now.getHours(), now.getMinutes());
  it('has the spec options', () => {
    expect(DATE_FILTERS).toEqual(['All Time', 'Today', 'This Week', 'This Month', 'Last 3 Months', 'Last 6 Months', 'This Year']);
  });
  it('computes each start; today and this year begin at midnight of the business calendar (India: 18:30 UTC the day before)', () => {
    expect(dateFilterStart('All Time', now)).toBeNull();
    expect(dateFilterStart('Today', now)).toEqual(new Date('2027-03-14T18:30:00Z'));
    expect(dateFilterStart('This Week', now)).toEqual(new Date(now.getTime() - 7 * 86_400_000));
    expect(dateFilterStart('This Month', now)).toEqual(monthsBefore(1));
    expect(dateFilterStart('Last 3 Months', now)).toEqual(monthsBefore(3));
    expect(dateFilterStart('Last 6 Months', now)).toEqual(monthsBefore(6));
    expect(dateFilterStart('This Year', now)).toEqual(new Date('2026-12-31T18:30:00Z'));
  });
  it('matches created_at against the window', () => {
    expect(matchesDateFilter('2027-03-15T02:00:00Z', 'Today', now)).toBe(true);
    expect(matchesDateFilter('2027-03-14T18:31:00Z', 'Today', now)).toBe(true); // 00:01 IST on the 15th
    expect(matchesDateFilter('2027-03-14T18:29:00Z', 'Today', now)).toBe(false); // 23:59 IST on the 14th
    expect(matchesDateFilter('2027-03-09T00:00:00Z', 'This Week', now)).toBe(true);
    expect(matchesDateFilter('2027-03-07T00:00:00Z', 'This Week', now)).toBe(false);
    expect(matchesDateFilter('2026-12-31T18:31:00Z', 'This Year', now)).toBe(true); // 1 January 2027 in India
    expect(matchesDateFilter('2026-12-31T18:00:00Z', 'This Year', now)).toBe(false);
    expect(matchesDateFilter('not a date', 'This Year', now)).toBe(false);
    expect(matchesDateFilter('not a date', 'All Time', now)).toBe(true);
  });
  it("at 00:30 in India 'Today' is already the new Indian day", () => {
    const early = new Date('2027-03-14T19:00:00Z');
    expect(dateFilterStart('Today', early)).toEqual(new Date('2027-03-14T18:30:00Z'));
    expect(matchesDateFilter('2027-03-14T18:45:00Z', 'Today', early)).toBe(true);
    expect(matchesDateFilter('2027-03-14T12:00:00Z', 'Today', early)).toBe(false);
  });
});

describe('filters and chips', () => {
  const list = flattenUserForms(byType);
  const now = new Date('2027-03-15T12:00:00Z');
  it('category options are All Forms plus the categories found', () => {
    expect(categoryOptions(list)).toEqual(['All Forms', 'Finance', 'Human Resources', 'Information Technology', 'Other']);
  });
  it('filters by category, date, external form type and status together', () => {
    expect(filterSubmissions(list, { category: 'Human Resources' }).map((s) => s.formType)).toEqual(['leave-request', 'leave-request']);
    expect(filterSubmissions(list, { date: 'Last 3 Months' }, now)).toHaveLength(4);
    expect(filterSubmissions(list, { formType: 'it-incident' })).toHaveLength(1);
    expect(filterSubmissions(list, { formType: 'all', status: 'Approved' }).map((s) => s.status)).toEqual(['Approved']);
    expect(filterSubmissions(list, { status: 'Close' }).map((s) => s.status)).toEqual(['Cancelled', 'Rejected']);
    expect(filterSubmissions(list, { status: 'Open' }).map((s) => s.formType)).toEqual(['it-incident']);
    expect(filterSubmissions(list, { category: 'Human Resources', status: 'Approved', date: 'This Year' }, now)).toHaveLength(1);
  });
  it('shows only chips with a count above 0, in the spec order', () => {
    expect(visibleChips(list)).toEqual([
      { id: 'all', label: 'All Forms', count: 5 },
      { id: 'leave-request', label: 'Leave Request', count: 2 },
      { id: 'it-incident', label: 'IT Incident', count: 1 },
      { id: 'purchase-requisition', label: 'Purchase Requisitions', count: 1 },
      { id: 'other', label: 'Other Forms', count: 1 },
    ]);
    expect(visibleChips([])).toEqual([]);
  });
  it('the type chips add up to All Forms, and each chip count is the rows its filter shows', () => {
    const chips = visibleChips(list);
    const [all, ...types] = chips;
    expect(types.reduce((n, c) => n + c.count, 0)).toBe(all.count);
    for (const c of chips) expect(filterSubmissions(list, { formType: c.id })).toHaveLength(c.count);
  });
  it('summary tiles are the status filter counts of the same name', () => {
    const statuses = list.map((s) => s.status);
    const counts = statusFilterCounts(statuses);
    const tiles = employeeSummary(statuses);
    expect(tiles).toEqual({ pending: counts.Pending, approved: counts.Approved, rejected: counts.Rejected, total: counts.All });
    expect(tiles.pending).toBe(filterSubmissions(list, { status: 'Pending' }).length);
    expect(tiles.total).toBe(visibleChips(list)[0].count);
  });
  it('open requests leave out finally decided ones', () => {
    expect(openRequests(list).map((s) => s.status)).toEqual(['Pending', 'Open']);
  });
});
