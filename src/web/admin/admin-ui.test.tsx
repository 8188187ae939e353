// @vitest-environment happy-dom
// The administrator's screens: the person form shows what a role gets before saving and puts the server's refusal
// beside the field it names; the import screen shows the dry run per row and applies only a clean file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '../ui';
import { AUDIT_ACTIONS } from '../../domain/audit-actions';
import { AuditScreen } from './AuditScreen';
import { ImportScreen } from './ImportScreen';
import { PeopleScreen } from './PeopleScreen';
import { PersonForm } from './PersonForm';
import { SignInSettingsScreen } from './SignInSettingsScreen';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function wrap(children: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>,
  );
}

type Call = { url: string; method: string; body: string | undefined; contentType: string | undefined };

/** A fetch answering by path; records every call. */
function fakeFetch(answer: (c: Call) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const c = { url, method: init.method ?? 'GET', body: init.body as string | undefined, contentType: headers['Content-Type'] };
    calls.push(c);
    const a = answer(c);
    return new Response(a.body === undefined ? '' : JSON.stringify(a.body), { status: a.status });
  });
  return calls;
}

const preview = {
  dashboard: 'employee',
  assistant: 'employee',
  session_family: 'simple',
  approver: false,
  can_manage: false,
  problem: null,
};

describe('PersonForm', () => {
  it('shows the dashboard and assistant of the role while it is typed, before saving', async () => {
    fakeFetch(() => ({ status: 200, body: preview }));
    wrap(
      <PersonForm
        person={null}
        departments={[{ code: 'ENG', name: 'Engineering', head_count: 3 }]}
        defaultLeave={15}
        onClose={() => {}}
        onSaved={() => {}}
      />,
    );
    const outcome = screen.getByTestId('role-outcome');
    expect(outcome.textContent).toMatch(/Employee dashboard/);
    fireEvent.change(screen.getByLabelText(/^Role/), { target: { value: 'HR Officer' } });
    expect(outcome.textContent).toMatch(/HR dashboard/);
    expect(outcome.textContent).toMatch(/HR assistant/);
    fireEvent.change(screen.getByLabelText(/^Role/), { target: { value: 'Team Lead' } });
    expect(outcome.textContent).toMatch(/Line Manager dashboard/);
    expect(outcome.textContent).toMatch(/manager assistant/);
    // The allowance starts at the company's default.
    expect(screen.getByLabelText<HTMLInputElement>(/Annual leave allowance/).value).toBe('15');
  });

  it("sends every field and shows the server's refusal beside the field it names", async () => {
    const calls = fakeFetch((c) =>
      c.method === 'POST'
        ? { status: 409, body: { error: 'The e-mail alex@x.test is already used by EMP-1001' } }
        : { status: 200, body: preview },
    );
    const saved = vi.fn();
    wrap(
      <PersonForm
        person={null}
        departments={[{ code: 'ENG', name: 'Engineering', head_count: 3 }]}
        defaultLeave={12}
        onClose={() => {}}
        onSaved={saved}
      />,
    );
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'Alex' } });
    fireEvent.change(screen.getByLabelText(/^Last name/), { target: { value: 'Doe' } });
    fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: 'alex@x.test' } });
    fireEvent.change(screen.getByLabelText(/^Employee code/), { target: { value: 'EMP-9' } });
    fireEvent.change(screen.getByLabelText(/^Department/), { target: { value: 'ENG' } });
    fireEvent.change(screen.getByLabelText(/^Line manager/), { target: { value: 'MGR-001' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add person' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/already used/));
    const post = calls.find((c) => c.method === 'POST');
    expect(post?.url).toBe('/api/admin/people');
    expect(JSON.parse(post!.body!)).toEqual({
      email: 'alex@x.test',
      first_name: 'Alex',
      last_name: 'Doe',
      employee_code: 'EMP-9',
      department: 'ENG',
      role: 'Employee',
      user_type: 'employee',
      manager: 'MGR-001',
      hr_contact: null,
      join_date: null,
      annual_leave_total: 12,
    });
    const email = screen.getByLabelText(/^E-mail/);
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(saved).not.toHaveBeenCalled();
  });
});

describe('ImportScreen', () => {
  it('shows the dry run per row and offers Apply only when no row is refused', async () => {
    let dryRows = [
      { line: 2, action: 'create', employee_code: 'EMP-1', errors: [] },
      { line: 3, action: 'error', employee_code: 'EMP-2', errors: ['unknown manager NOPE'] },
    ];
    const calls = fakeFetch((c) => ({
      status: 200,
      body: { rows: c.url.includes('dry_run=1') ? dryRows : dryRows.map((r) => ({ ...r })) },
    }));
    wrap(<ImportScreen />);
    expect(screen.getByText('No file chosen')).toBeTruthy();
    const input = screen.getByLabelText('CSV file');
    const csv = 'email,first_name\nx@y.test,X\n';
    fireEvent.change(input, { target: { files: [new File([csv], 'people.csv', { type: 'text/csv' })] } });
    const table = await screen.findByRole('table', { name: 'Import rows' });
    expect(within(table).getByText('unknown manager NOPE')).toBeTruthy();
    expect(within(table).getByText('Refused')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Apply import' }).hasAttribute('disabled')).toBe(true);
    expect(calls[0]).toMatchObject({ url: '/api/admin/people/import?dry_run=1', method: 'POST', body: csv });
    expect(calls[0].contentType).toMatch(/^text\/csv/);

    // A clean file: Apply sends the same text without dry_run.
    dryRows = [{ line: 2, action: 'create', employee_code: 'EMP-1', errors: [] }];
    fireEvent.change(input, { target: { files: [new File([csv], 'clean.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Apply import' }).hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Apply import' }));
    await screen.findByText('Applied');
    expect(calls.at(-1)).toMatchObject({ url: '/api/admin/people/import', method: 'POST', body: csv });
  });
});

describe('PeopleScreen', () => {
  it('requires a person to choose a new password at their next sign-in, and says so', async () => {
    const alex = {
      email: 'alex.johnson@adminease.test',
      first_name: 'Alex',
      last_name: 'Johnson',
      employee_code: 'EMP-1001',
      department: 'ENG',
      department_name: 'Engineering',
      role: 'Software Engineer',
      user_type: 'employee',
      manager: 'MGR-001',
      manager_name: 'Priya Sharma',
      hr_contact: 'HR-001',
      hr_contact_name: 'Meera Iyer',
      join_date: '2021-09-01',
      annual_leave_total: 12,
      active: true,
      deactivated_at: null,
      dashboard: 'employee',
      assistant: 'employee',
    };
    const calls = fakeFetch((c) => {
      if (c.url.startsWith('/api/admin/people?') || c.url === '/api/admin/people')
        return { status: 200, body: { people: [alex], total: 1, page: 1, page_size: 50 } };
      if (c.url.startsWith('/api/admin/departments')) return { status: 200, body: { departments: [] } };
      if (c.url.startsWith('/api/admin/settings/leave-policy')) return { status: 200, body: { default_annual_leave: 12, overrides: [] } };
      if (c.url.endsWith('/require-password-change')) return { status: 200, body: { success: true } };
      return { status: 404, body: { error: 'Not found' } };
    });
    wrap(<PeopleScreen />);
    const button = await screen.findByRole('button', { name: 'Require Alex Johnson to choose a new password at next sign-in' });
    fireEvent.click(button);
    await screen.findByText('Alex Johnson will choose a new password at their next sign-in');
    expect(calls.find((c) => c.url.endsWith('/require-password-change'))).toMatchObject({
      url: '/api/admin/people/EMP-1001/require-password-change',
      method: 'POST',
    });
  });
});

describe('SignInSettingsScreen', () => {
  it('says whether single sign-on is set up and turns account creation on', async () => {
    let autoCreate = false;
    const calls = fakeFetch((c) => {
      if (c.method === 'PUT') autoCreate = JSON.parse(c.body ?? '{}').auto_create;
      return { status: 200, body: { configured: true, provider_name: 'Acme ID', auto_create: autoCreate } };
    });
    wrap(<SignInSettingsScreen />);
    expect((await screen.findByTestId('sso-status')).textContent).toContain('Acme ID');
    const box = screen.getByRole('checkbox', { name: /Create an account at the first single sign-on/ });
    expect((box as HTMLInputElement).checked).toBe(false);
    fireEvent.click(box);
    await screen.findByText('Single sign-on can now create accounts');
    expect(calls.at(-1)).toMatchObject({ url: '/api/admin/settings/sso', method: 'PUT', body: JSON.stringify({ auto_create: true }) });
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
  });
});

describe('AuditScreen', () => {
  it('offers every audited action as a filter, each family as a whole too, and asks the server for the one chosen', async () => {
    const calls = fakeFetch(() => ({
      status: 200,
      body: {
        entries: [
          {
            id: 1,
            at: '2026-11-20T10:00:00Z',
            actor: { employee_code: 'ADM-001', email: 'olivia.brooks@adminease.test', name: 'Olivia Brooks' },
            action: 'person.invite',
            target_type: 'person',
            target_id: 'EMP-1001',
            before: { open_invitations: 0 },
            after: { open_invitations: 1 },
          },
        ],
        total: 1,
        page: 1,
        page_size: 50,
      },
    }));
    wrap(<AuditScreen />);
    await screen.findAllByText('person.invite');
    // the entry's action in words, with its name
    expect(within(screen.getByRole('table')).getByText('Invitation sent')).toBeTruthy();
    const select = screen.getByLabelText<HTMLSelectElement>('Action');
    const values = [...select.options].map((o) => o.value);
    // every action the server writes, the ones the first list missed among them
    for (const action of Object.keys(AUDIT_ACTIONS)) expect(values).toContain(action);
    for (const action of [
      'person.invite',
      'settings.sso_auto_create',
      'group.create',
      'group.update',
      'reminders.settings',
      'form_type.create',
    ])
      expect(values).toContain(action);
    // families with several actions can be chosen whole (the server takes a prefix ending in '.')
    for (const prefix of ['person.', 'department.', 'holiday.', 'leave_override.', 'group.', 'form_type.'])
      expect(values).toContain(prefix);
    expect(values).not.toContain('people.'); // one action only: offered by itself
    expect(new Set(values).size).toBe(values.length);
    const groups = [...select.querySelectorAll('optgroup')].map((g) => g.label);
    expect(groups).toEqual(expect.arrayContaining(['People', 'Approver groups', 'Form types', 'Reminders', 'Sign-in settings']));
    expect(calls.at(-1)!.url).not.toContain('action=');

    fireEvent.change(select, { target: { value: 'settings.sso_auto_create' } });
    await waitFor(() => expect(calls.at(-1)!.url).toContain('action=settings.sso_auto_create'));
    fireEvent.change(select, { target: { value: 'group.' } });
    await waitFor(() => expect(calls.at(-1)!.url).toContain('action=group.'));
    expect(calls.at(-1)!.url).toContain('page=1');
  });
});
