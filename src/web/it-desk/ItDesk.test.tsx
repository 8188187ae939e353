// @vitest-environment happy-dom
// The IT desk and the employee's IT pieces against a mocked API: default filter and tiles, the fill/update and
// set-password dialogs (validation, payloads, the spec's success and failure texts), the employee's
// Confirm Resolution / Report Unresolved messages and notices, and the owner-only new password.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import type { User } from '../api/types';
import { AuthProvider } from '../auth/AuthProvider';
import { ToastProvider } from '../ui';
import { ItDesk } from './ItDesk';
import { ItIncidentResolution, PasswordResetNewPassword } from './employee';

const lena: User = {
  id: 9,
  email: 'lena.fischer@adminease.test',
  role: 'IT Support Officer',
  user_type: 'it_staff',
  department_code: 'IT',
  department: { department_code: 'IT', department_name: 'IT' },
  profile: { first_name: 'Lena', last_name: 'Fischer', employee_code: 'IT-001', employee_id: 'IT-001', hr_id: null, manager_id: null },
};
const alex: User = {
  id: 15,
  email: 'alex.johnson@adminease.test',
  role: 'Software Engineer',
  user_type: 'employee',
  department_code: 'ENG',
  department: { department_code: 'ENG', department_name: 'Engineering' },
  profile: { first_name: 'Alex', last_name: 'Johnson', employee_code: 'EMP-1001', employee_id: 'EMP-1001', hr_id: null, manager_id: null },
};

const base = {
  employee_user_id: 15,
  employee_id: 'EMP-1001',
  employee_name: 'Alex Johnson',
  department: 'Engineering',
  created_at: '2026-05-01T10:00:00Z',
};
const tickets = [
  {
    ...base,
    id: 1,
    request_id: 'INC-000001',
    form_id: 'INC-000001',
    form_type: 'it-incident',
    status: 'Open',
    display_status: 'Open',
    it_queue_status: 'Open',
    affected_system: 'VPN',
    incident_date: '2026-05-01',
    employee_system_number: 'LT-1',
    incident_description: 'VPN drops',
    employee_confirmation_status: 'Pending',
  },
  {
    ...base,
    id: 2,
    request_id: 'INC-000002',
    form_id: 'INC-000002',
    form_type: 'it-incident',
    status: 'Open',
    display_status: 'Open',
    it_queue_status: 'Open',
    affected_system: 'Printer',
    incident_date: '2026-05-02',
    it_helpdesk_ticket_number: 'T-2',
    it_resolution_notes: 'Cleared tray',
    employee_confirmation_status: 'Rejected',
    employee_rejection_reason: 'Still jams',
  },
  {
    ...base,
    id: 3,
    request_id: 'INC-000003',
    form_id: 'INC-000003',
    form_type: 'it-incident',
    status: 'Resolved',
    display_status: 'Resolved',
    it_queue_status: 'Resolved',
    affected_system: 'CRM',
    it_helpdesk_ticket_number: 'T-3',
    it_resolution_notes: 'Rebuilt',
    employee_confirmation_status: 'Pending',
  },
  {
    ...base,
    id: 4,
    request_id: 'INC-000004',
    form_id: 'INC-000004',
    form_type: 'it-incident',
    status: 'Closed',
    display_status: 'Closed',
    it_queue_status: 'Closed',
    affected_system: 'DMS',
    it_helpdesk_ticket_number: 'T-4',
    employee_confirmation_status: 'Confirmed',
  },
  {
    ...base,
    id: 5,
    request_id: 'PWD-000005',
    form_id: 'PWD-000005',
    form_type: 'password-reset',
    status: 'Pending',
    display_status: 'Pending IT Action',
    it_queue_status: 'Open',
    it_support_status: 'Pending IT Action',
    system_for_reset: 'ERP',
    reset_reason: 'Locked Account',
  },
];

type Route = (body: any) => { status: number; body?: unknown } | 'network';
let routes: Record<string, Route>;
let calls: { key: string; body: any; url: string }[];
let me: User;

beforeEach(() => {
  localStorage.clear();
  calls = [];
  me = lena;
  routes = {
    'GET /api/auth/me': () => ({ status: 200, body: { user: me } }),
    'GET /api/it-support/queue': () => ({ status: 200, body: tickets }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body, url });
      const route = routes[key];
      const out = route ? route(body) : { status: 404, body: { error: `no route ${key}` } };
      if (out === 'network') throw new TypeError('Failed to fetch');
      return new Response(out.body === undefined ? null : JSON.stringify(out.body), {
        status: out.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderWith(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>{node}</AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const rowOf = (id: string) => screen.getByTestId(`it-ticket-${id}`);

describe('IT dashboard', () => {
  it('opens on the Open filter with the tiles over all loaded tickets', async () => {
    renderWith(<ItDesk />);
    await screen.findByTestId('it-ticket-INC-000001');
    expect(screen.getByLabelText<HTMLSelectElement>('Status').value).toBe('Open');
    const tiles = screen.getByRole('group', { name: 'Ticket summary' });
    for (const [label, n] of [
      ['Open', '3'],
      ['Resolved', '1'],
      ['Closed', '1'],
      ['Total Tickets', '5'],
    ]) {
      expect(within(tiles).getByText(label).closest('div')!.parentElement!.textContent).toContain(n);
    }
    expect(screen.queryByTestId('it-ticket-INC-000003')).toBeNull();
    expect(
      within(rowOf('INC-000001'))
        .getAllByRole('button')
        .map((b) => b.textContent?.trim()),
    ).toEqual(['View Details', 'Fill Details']);
    expect(
      within(rowOf('INC-000002'))
        .getAllByRole('button')
        .map((b) => b.textContent?.trim()),
    ).toEqual(['View Details', 'Update Resolution']);
    expect(
      within(rowOf('PWD-000005'))
        .getAllByRole('button')
        .map((b) => b.textContent?.trim()),
    ).toEqual(['View Details', 'Set New Password']);

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'Resolved' } });
    expect(within(rowOf('INC-000003')).getByText('Waiting for employee confirmation')).toBeTruthy();
    // a resolved ticket waiting for the employee offers only View Details (no Fill/Update Details, no Close Ticket)
    const buttons = (id: string) =>
      within(rowOf(id))
        .getAllByRole('button')
        .map((b) => b.textContent?.trim());
    expect(buttons('INC-000003')).toEqual(['View Details']);
  });

  it("loads the open tickets and the newest finished ones with the dashboards' explicit limit (200), again on Refresh", async () => {
    renderWith(<ItDesk />);
    await screen.findByTestId('it-ticket-INC-000001');
    const queueCalls = () => calls.filter((c) => c.key === 'GET /api/it-support/queue');
    expect(queueCalls()).toHaveLength(1);
    expect(new URL(queueCalls()[0].url, 'http://x').searchParams.get('limit')).toBe('200');
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(queueCalls()).toHaveLength(2));
    expect(new URL(queueCalls()[1].url, 'http://x').search).toBe('?limit=200');
  });

  it("shows 'No tickets found for this filter.' and 'Failed to load IT tickets'", async () => {
    routes['GET /api/it-support/queue'] = () => ({ status: 200, body: [] });
    renderWith(<ItDesk />);
    expect(await screen.findByText('No tickets found for this filter.')).toBeTruthy();
    cleanup();
    routes['GET /api/it-support/queue'] = () => ({ status: 500, body: { error: 'boom' } });
    renderWith(<ItDesk />);
    expect((await screen.findAllByText('Failed to load IT tickets')).length).toBeGreaterThan(0);
  });

  it('fills details: save disabled while the ticket number is blank, trimmed payload, success text', async () => {
    routes['POST /api/it-support/save-ticket-details'] = (b) => ({
      status: 200,
      body: { success: true, ticket: { ...tickets[0], status: 'Open', it_helpdesk_ticket_number: b.it_helpdesk_ticket_number } },
    });
    renderWith(<ItDesk />);
    fireEvent.click(within(await screen.findByTestId('it-ticket-INC-000001')).getByRole('button', { name: 'Fill Details' }));
    const dialog = screen.getByRole('dialog', { name: 'Fill Ticket Details - Alex Johnson' });
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save Details' });
    const number = within(dialog).getByPlaceholderText('e.g., TICKET-2025-001');
    expect(save.disabled).toBe(true);
    fireEvent.change(number, { target: { value: '   ' } });
    fireEvent.blur(number);
    expect(within(dialog).getByText('IT Ticket Number is required')).toBeTruthy();
    expect(save.disabled).toBe(true);
    expect(within(dialog).getByLabelText<HTMLTextAreaElement>('Incident Description (from employee)').readOnly).toBe(true);
    expect(
      within(dialog)
        .getByLabelText(/Resolution Notes/)
        .getAttribute('rows'),
    ).toBe('6');
    fireEvent.change(number, { target: { value: '  TICKET-9  ' } });
    fireEvent.change(within(dialog).getByLabelText(/Resolution Notes/), { target: { value: '   ' } });
    fireEvent.click(save);
    expect(
      await screen.findByText('Ticket details saved successfully! The ticket stays open until you add resolution notes.'),
    ).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/it-support/save-ticket-details')!.body).toEqual({
      form_id: 'INC-000001',
      it_helpdesk_ticket_number: 'TICKET-9',
      it_resolution_notes: null,
      it_helpdesk_assigned_to: 'Lena Fischer',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows the server error, or the network text, when saving details fails', async () => {
    routes['POST /api/it-support/save-ticket-details'] = () => ({ status: 409, body: { error: 'This ticket is Closed' } });
    renderWith(<ItDesk />);
    fireEvent.click(within(await screen.findByTestId('it-ticket-INC-000002')).getByRole('button', { name: 'Update Resolution' }));
    const dialog = screen.getByRole('dialog', { name: 'Update Ticket Details - Alex Johnson' });
    expect(within(dialog).getByPlaceholderText<HTMLInputElement>('e.g., TICKET-2025-001').value).toBe('T-2');
    expect(within(dialog).getByText('Still jams')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Details' }));
    expect(await screen.findByText('Failed to save details: This ticket is Closed')).toBeTruthy();
    routes['POST /api/it-support/save-ticket-details'] = () => 'network';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Update Details' }));
    expect(await screen.findByText('Failed to save ticket details. Please try again.')).toBeTruthy();
  });

  it('sets a new password through a masked, required field, with the spec texts', async () => {
    routes['POST /api/it-support/save-password-reset-details'] = () => ({ status: 409, body: { error: 'already set' } });
    renderWith(<ItDesk />);
    fireEvent.click(within(await screen.findByTestId('it-ticket-PWD-000005')).getByRole('button', { name: 'Set New Password' }));
    const dialog = screen.getByRole('dialog', { name: 'Set New Password - Alex Johnson' });
    const input = within(dialog).getByLabelText<HTMLInputElement>(/New Password/);
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save Password' });
    expect(input.type).toBe('password');
    expect(save.disabled).toBe(true);
    fireEvent.blur(input);
    expect(within(dialog).getByText('New password is required')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'S3cret!' } });
    fireEvent.click(save);
    expect(await screen.findByText('Failed to save password reset details: already set')).toBeTruthy();
    routes['POST /api/it-support/save-password-reset-details'] = () => 'network';
    fireEvent.click(save);
    expect(await screen.findByText('Error saving password reset details')).toBeTruthy();
    routes['POST /api/it-support/save-password-reset-details'] = () => ({ status: 200, body: { success: true } });
    fireEvent.click(save);
    expect(await screen.findByText('Password reset details saved successfully!')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/it-support/save-password-reset-details').at(-1)!.body).toEqual({
      form_id: 'PWD-000005',
      it_helpdesk_reset_by: 'Lena Fischer',
      new_password: 'S3cret!',
    });
  });
});

describe("the employee's IT pieces", () => {
  const resolved = { ...tickets[2], it_resolution_date: '2026-05-03' };

  it('confirms a resolution with the spec message', async () => {
    me = alex;
    routes['POST /api/user-confirmation/confirm-problem-solved'] = () => ({
      status: 200,
      body: { success: true, ticket: { ...resolved, employee_confirmation_status: 'Confirmed' } },
    });
    renderWith(<ItIncidentResolution record={resolved} />);
    expect(await screen.findByText('Please confirm if your problem is solved:')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm Resolution' }));
    expect(await screen.findByText(/✅ Problem confirmed as solved!\s+Ticket: T-3\s+The ticket is now closed\./)).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/user-confirmation/confirm-problem-solved')!.body).toEqual({
      form_id: 'INC-000003',
      employee_id: 'EMP-1001',
      confirmation_notes: 'Employee confirmed: Problem is solved',
    });
    expect(screen.getByText('Problem Resolved')).toBeTruthy();
    expect(screen.getByText('You confirmed the issue is solved. Ticket is closed.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Confirm Resolution' })).toBeNull();
  });

  it('reports a resolution unresolved, and shows failures', async () => {
    me = alex;
    routes['POST /api/user-confirmation/reject-resolution'] = () => ({
      status: 409,
      body: { error: 'You have already confirmed this resolution' },
    });
    renderWith(<ItIncidentResolution record={resolved} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Report Unresolved' }));
    expect(await screen.findByText(/❌ Failed to reject resolution:\s+You have already confirmed this resolution/)).toBeTruthy();
    routes['POST /api/user-confirmation/reject-resolution'] = () => 'network';
    fireEvent.click(screen.getByRole('button', { name: 'Report Unresolved' }));
    expect(await screen.findByText('❌ Failed to reject resolution. Please try again.')).toBeTruthy();
    routes['POST /api/user-confirmation/reject-resolution'] = (b) => ({
      status: 200,
      body: { success: true, ticket: { ...resolved, status: 'Open', employee_confirmation_status: 'Rejected', echo: b } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Report Unresolved' }));
    expect(
      await screen.findByText(/❌ Resolution rejected!\s+Ticket: T-3\s+IT Support will continue working on this ticket\./),
    ).toBeTruthy();
    expect(screen.getByText('Awaiting IT Support Update')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /api/user-confirmation/reject-resolution').at(-1)!.body.rejection_reason).toBe(
      'Employee reported: Problem not solved',
    );
  });

  it('shows nothing before IT gave a ticket number', async () => {
    me = alex;
    const { container } = renderWith(<ItIncidentResolution record={tickets[0]} />);
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /api/auth/me')).toBe(true));
    expect(container.querySelector('[data-testid="it-incident-resolution"]')).toBeNull();
  });

  it('reveals the new password to its owner only', async () => {
    const record = { ...tickets[4], it_support_status: 'Password Set', has_new_password: true, it_helpdesk_reset_by: 'Lena Fischer' };
    routes['POST /api/password-reset/reveal-password'] = () => ({
      status: 200,
      body: {
        form_id: 'PWD-000005',
        new_password: 'Erp#New-1',
        it_support_status: 'Completed',
        status: 'Completed',
        system_for_reset: 'ERP',
      },
    });
    me = alex;
    const onChanged = vi.fn();
    renderWith(<PasswordResetNewPassword record={record} onChanged={onChanged} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show New Password' }));
    expect((await screen.findByTestId('revealed-password')).textContent).toBe('Erp#New-1');
    expect(onChanged).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByTestId('revealed-password')).toBeNull();
    cleanup();

    // once saved, the owner confirms and the server erases it
    routes['POST /api/password-reset/confirm-password-saved'] = () => ({
      status: 200,
      body: {
        success: true,
        changed: true,
        form_id: 'PWD-000005',
        new_password_erased_at: '2026-11-23T10:00:00.000Z',
        new_password_erased_reason: 'owner_confirmed',
      },
    });
    renderWith(<PasswordResetNewPassword record={record} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show New Password' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I Have Saved It' }));
    expect((await screen.findByTestId('password-erased')).textContent).toMatch(/no longer stored/);
    expect(screen.queryByTestId('revealed-password')).toBeNull();
    expect(calls.filter((c) => c.key === 'POST /api/password-reset/confirm-password-saved').at(-1)!.body).toEqual({
      form_id: 'PWD-000005',
    });
    cleanup();
    renderWith(
      <PasswordResetNewPassword
        record={{ ...record, new_password_erased_at: '2026-11-20T10:00:00.000Z', new_password_erased_reason: 'time_limit' }}
      />,
    );
    expect((await screen.findByTestId('password-erased')).textContent).toMatch(/not collected in time/);
    expect(screen.queryByRole('button', { name: 'Show New Password' })).toBeNull();
    cleanup();

    me = lena;
    const { container } = renderWith(<PasswordResetNewPassword record={record} />);
    await waitFor(() => expect(calls.filter((c) => c.key === 'GET /api/auth/me').length).toBeGreaterThan(1));
    expect(container.querySelector('[data-testid="password-reset-new-password"]')).toBeNull();
  });
});
