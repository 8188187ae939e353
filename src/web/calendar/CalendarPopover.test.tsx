// @vitest-environment happy-dom
// The form calendar popover against a mocked API: Monday-first header, holidays and the user's own leave as dots
// (at most 2 plus '+n'), the day detail list, 'No events on this date', month navigation and the legend.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CalendarPopover } from './CalendarPopover';

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const ym = `${now.getFullYear()}-${pad(now.getMonth() + 1)}`;
// The 10th and 11th of this month: a holiday, two leave days and a booking on the 10th.
const d10 = `${ym}-10`;
const d11 = `${ym}-11`;
const d20 = `${ym}-20`;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0];
      const body =
        path === '/api/calendar/holidays'
          ? { year: now.getFullYear(), years: [], source: 'offline', holidays: [{ date: d10, name: 'Test Festival', type: 'festival' }] }
          : path === '/api/forms/user-forms'
            ? {
                'leave-request': [
                  {
                    request_id: 'LR-000001',
                    employee_id: 'EMP-1001',
                    leave_type: 'Annual',
                    start_date: d10,
                    end_date: d11,
                    status: 'Approved',
                    created_at: `${ym}-01T09:00:00.000Z`,
                  },
                  {
                    request_id: 'LR-000002',
                    employee_id: 'EMP-1001',
                    leave_type: 'Casual',
                    start_date: d10,
                    end_date: d10,
                    status: 'Pending',
                    created_at: `${ym}-02T09:00:00.000Z`,
                  },
                  {
                    request_id: 'LR-000009',
                    employee_id: 'EMP-9999',
                    leave_type: 'Sick',
                    start_date: d20,
                    end_date: d20,
                    status: 'Pending',
                    created_at: `${ym}-02T09:00:00.000Z`,
                  },
                ],
                'meeting-room': [
                  {
                    request_id: 'MR-000003',
                    employee_id: 'EMP-1001',
                    room_requested: 'Board Room',
                    booking_date: d10,
                    start_time: '10:00',
                    end_time: '11:00',
                    created_at: `${ym}-03T09:00:00.000Z`,
                  },
                ],
              }
            : { error: 'no route' };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('form calendar popover', () => {
  it('shows Monday-first weeks, capped dots, the day list and the empty text', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <CalendarPopover employeeCode="EMP-1001" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Form calendar' }));
    const cal = await screen.findByTestId('form-calendar');
    expect(
      within(cal)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    const day10 = () => cal.querySelector(`[data-date="${d10}"]`)!;
    await waitFor(() => expect(day10().querySelectorAll('[data-testid="day-dots"] > span.rounded-full')).toHaveLength(2));
    expect(day10().textContent).toContain('+2');

    fireEvent.click(day10());
    const details = within(cal).getByTestId('calendar-day-details');
    expect(details.textContent).toContain('Test Festival');
    expect(details.textContent).toContain('Annual leave');
    expect(details.textContent).toContain('Casual leave');
    expect(details.textContent).toContain('Board Room 10:00-11:00');

    // Someone else's leave is not shown.
    fireEvent.click(cal.querySelector(`[data-date="${d20}"]`)!);
    expect(within(cal).getByTestId('calendar-day-details').textContent).toContain('No events on this date');

    const title = within(cal).getByTestId('calendar-month').textContent;
    fireEvent.click(within(cal).getByRole('button', { name: 'Next month' }));
    expect(within(cal).getByTestId('calendar-month').textContent).not.toBe(title);
    fireEvent.click(within(cal).getByRole('button', { name: 'Previous month' }));
    expect(within(cal).getByTestId('calendar-month').textContent).toBe(title);
    expect(within(cal).getByRole('list', { name: 'Legend' }).textContent).toContain('National holiday');
  });

  it('moves by day and week with the arrow keys (a date grid), across months', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <CalendarPopover employeeCode="EMP-1001" />
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Form calendar' }));
    const cal = await screen.findByTestId('form-calendar');
    const grid = within(cal).getByRole('grid');
    const day = (d: string) => cal.querySelector<HTMLButtonElement>(`[data-date="${d}"]`)!;
    fireEvent.click(day(d10));
    day(d10).focus();
    // Only one day is in the Tab order.
    expect(cal.querySelectorAll('[data-date][tabindex="0"]')).toHaveLength(1);
    fireEvent.keyDown(day(d10), { key: 'ArrowRight' });
    await waitFor(() => expect(document.activeElement).toBe(day(d11)));
    expect(day(d11).closest('td')!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(day(d11), { key: 'ArrowLeft' });
    await waitFor(() => expect(document.activeElement).toBe(day(d10)));
    fireEvent.keyDown(day(d10), { key: 'ArrowDown' });
    await waitFor(() => expect(document.activeElement).toBe(day(`${ym}-17`)));
    fireEvent.keyDown(day(`${ym}-17`), { key: 'ArrowUp' });
    await waitFor(() => expect(document.activeElement).toBe(day(d10)));
    const title = within(cal).getByTestId('calendar-month').textContent;
    fireEvent.keyDown(day(d10), { key: 'PageDown' });
    await waitFor(() => expect(within(cal).getByTestId('calendar-month').textContent).not.toBe(title));
    expect(grid.contains(document.activeElement)).toBe(true);
  });
});
