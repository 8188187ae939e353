// @vitest-environment happy-dom
// The 'Form Approval Updates' dialog (grouping, texts, mark as read, 300 ms close) and the bell (badge, dropdown,
// 'No notifications', click marks read and removes) against a mocked form-state API.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import type { ReactNode } from 'react';
import type { FormNotification } from '../../domain/notifications';
import { ApprovalUpdatesDialog, CLOSE_ANIMATION_MS, updatesCountText } from './ApprovalUpdatesDialog';
import { NotificationBell } from './NotificationBell';
import { updatesStore } from './updates-store';

const n = (id: number, over: Partial<FormNotification> = {}): FormNotification => ({
  id,
  title: `Leave Request LR-00000${id} approved by your line manager`,
  form_type: 'leave-request',
  form_id: `LR-00000${id}`,
  approval_field: 'line_manager_approval',
  old_value: 'Pending',
  new_value: 'Approved',
  change_type: 'approved',
  timestamp: '2026-11-20T09:30:00.000Z',
  read: false,
  ...over,
});

let unread: FormNotification[];
const marked: number[] = [];

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

beforeEach(() => {
  marked.length = 0;
  unread = [];
  updatesStore.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const path = url.split('?')[0];
      if (path.startsWith('/api/form-state/notifications/'))
        return json(200, { success: true, unread_count: unread.length, notifications: unread });
      const m = path.match(/^\/api\/form-state\/mark-read\/(\d+)$/);
      if (m && init.method === 'POST') {
        marked.push(Number(m[1]));
        unread = unread.filter((x) => x.id !== Number(m[1]));
        return json(200, { success: true });
      }
      return json(404, { error: 'no route' });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  updatesStore.clear();
});

/** Shows the router's address, so a test can see which request a click opened. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        {children}
        <LocationProbe />
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

describe('Form Approval Updates dialog', () => {
  it('opens when there are updates, grouped by form type, with the change line and footer count', async () => {
    wrap(<ApprovalUpdatesDialog userId={7} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() =>
      updatesStore.add([
        n(1),
        n(2, {
          form_type: 'petty-cash',
          form_id: 'PC-000002',
          title: 'Petty Cash PC-000002 rejected by Finance',
          approval_field: 'finance_approval',
          new_value: 'Rejected',
          change_type: 'rejected',
        }),
        n(3, { change_type: 'in_progress', approval_field: 'status', old_value: 'Open', new_value: 'In Progress', title: 'x' }),
      ]),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Form Approval Updates' });
    const headings = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toEqual(['Leave Request Updates', 'Petty Cash Updates']);
    expect(within(dialog).getByText('Finance Approval changed from Pending to Rejected')).toBeTruthy();
    expect(within(dialog).getByText('Status changed from Open to In Progress')).toBeTruthy();
    expect(within(dialog).getByTestId('updates-count').textContent).toBe('3 approval updates');
    expect(dialog.querySelectorAll('[data-change-type]').length).toBe(3);
    expect(
      [...dialog.querySelectorAll('[data-change-type]')]
        .map((li) => li.className)
        .every((c, _i, all) => all.indexOf(c) === all.lastIndexOf(c)),
    ).toBe(true);
    expect(within(dialog).getAllByRole('button', { name: 'Mark as read' })).toHaveLength(3);
    expect(updatesCountText(1)).toBe('1 approval update');
  });

  it("'View request' marks the update read, closes the dialog and opens the request", async () => {
    wrap(<ApprovalUpdatesDialog userId={7} />);
    act(() => updatesStore.add([n(1), n(2, { form_id: 'PC-000002', form_type: 'petty-cash' }), n(3, { form_id: null })]));
    const dialog = await screen.findByRole('dialog');
    // An update without a request has nothing to open.
    expect(within(dialog).getAllByRole('button', { name: 'View request' })).toHaveLength(2);
    const petty = within(dialog).getByRole('region', { name: 'Petty Cash Updates' });
    fireEvent.click(within(petty).getByRole('button', { name: 'View request' }));
    await waitFor(() => expect(marked).toEqual([2]));
    expect(screen.getByTestId('location').textContent).toBe('/requests/PC-000002');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('marks one read (removing it) and closes after the 300 ms animation', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const onClosed = vi.fn();
    wrap(<ApprovalUpdatesDialog userId={7} onClosed={onClosed} />);
    act(() => updatesStore.add([n(1), n(2)]));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Mark as read' })[0]);
    await waitFor(() => expect(marked).toEqual([2]));
    expect(within(dialog).getByTestId('updates-count').textContent).toBe('1 approval update');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    act(() => {
      vi.advanceTimersByTime(CLOSE_ANIMATION_MS - 50);
    });
    expect(screen.queryByRole('dialog')).not.toBeNull();
    expect(onClosed).not.toHaveBeenCalled();
    act(() => {
      vi.advanceTimersByTime(60);
    });
    expect(onClosed).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Closing does not mark the rest read.
    expect(marked).toEqual([2]);
  });
});

describe('notifications bell', () => {
  it("shows 'No notifications' when there are none", async () => {
    wrap(<NotificationBell userId={7} />);
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    expect(screen.queryByTestId('notifications-badge')).toBeNull();
    fireEvent.click(bell);
    expect(await screen.findByText('No notifications')).toBeTruthy();
  });

  it('shows the unread count; clicking a notification marks it read, removes it and opens its request', async () => {
    unread = [n(5), n(4, { title: 'Travel Request TR-000004 approved by Finance', form_type: 'travel-request', form_id: 'TR-000004' })];
    wrap(<NotificationBell userId={7} />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(screen.getByTestId('notifications-badge').textContent).toBe('2');
    expect(screen.getByTestId('location').textContent).toBe('/');
    fireEvent.click(bell);
    fireEvent.click(await screen.findByText('Travel Request TR-000004 approved by Finance'));
    await waitFor(() => expect(screen.queryByText('Travel Request TR-000004 approved by Finance')).toBeNull());
    expect(screen.getByTestId('location').textContent).toBe('/requests/TR-000004');
    // The panel closed for the request's details.
    expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull();
    expect(marked).toEqual([4]);
    await waitFor(() => expect(screen.getByTestId('notifications-badge').textContent).toBe('1'));
  });

  it('keeps focus in the bell panel after a notification without a request is clicked (next item, else the panel); Escape then closes it', async () => {
    unread = [
      n(5, { form_id: null }),
      n(4, { title: 'Travel Request TR-000004 approved by Finance', form_type: 'travel-request', form_id: null }),
    ];
    wrap(<NotificationBell userId={7} />);
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    fireEvent.click(bell);
    const panel = await screen.findByRole('region', { name: 'Notifications' });
    const first = (await screen.findByText('Travel Request TR-000004 approved by Finance')).closest('button')!;
    first.focus();
    fireEvent.click(first);
    expect(panel.contains(document.activeElement)).toBe(true);
    const last = (document.activeElement as HTMLElement).closest('button')!;
    await waitFor(() => expect(screen.queryByText('Travel Request TR-000004 approved by Finance')).toBeNull());
    fireEvent.click(last);
    expect(document.activeElement).toBe(panel);
    fireEvent.keyDown(panel, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Notifications' })).toBeNull());
    expect(document.activeElement).toBe(bell);
  });
});
