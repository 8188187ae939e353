// @vitest-environment happy-dom
// The accounts screens against a mocked API: 'Sign in with <provider>' and its refusals, the forced password change
// before the dashboard, the set-password page of a dead link, of an invitation and of the first-run set-up.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { App } from '../App';
import { AuthProvider } from '../auth/AuthProvider';
import { ToastProvider } from '../ui';
import type { User } from '../api/types';

const sam: User = {
  id: 9,
  email: 'sam.wilson@adminease.test',
  role: 'Employee',
  user_type: 'employee',
  department_code: 'ENG',
  department: { department_code: 'ENG', department_name: 'Engineering' },
  profile: { first_name: 'Sam', last_name: 'Wilson', employee_code: 'EMP-009', employee_id: 9, hr_id: null, manager_id: null },
  must_change_credentials: true,
};

type Route = (init: RequestInit) => { status: number; body?: unknown };
let routes: Record<string, Route>;
const calls: { url: string; body: unknown }[] = [];

function renderApp() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <BrowserRouter>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>
            <App />
          </AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </BrowserRouter>,
  );
}

beforeEach(() => {
  calls.length = 0;
  routes = {
    'GET /api/auth/me': () => ({ status: 401, body: { error: 'Not authenticated' } }),
    'GET /api/auth/config': () => ({ status: 200, body: { demo: false, sso_provider: 'Acme ID' } }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ url: key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const route = routes[key];
      const { status, body } = route ? route(init) : { status: 404, body: { error: `No route ${key}` } };
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('single sign-on on the sign-in page', () => {
  it('offers the provider by name, as a link to the start of the flow', async () => {
    renderApp();
    const link = await screen.findByRole('link', { name: 'Sign in with Acme ID' });
    expect(link.getAttribute('href')).toBe('/api/auth/sso/start');
  });

  it('says why a single sign-on was refused, once', async () => {
    window.history.replaceState(null, '', '/?sso_error=unknown');
    renderApp();
    expect((await screen.findByRole('alert')).textContent).toContain('No AdminEase account uses the e-mail address');
    expect(window.location.search).toBe('');
  });

  it('offers nothing when the server has no provider', async () => {
    routes['GET /api/auth/config'] = () => ({ status: 200, body: { demo: false, sso_provider: null } });
    renderApp();
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });
});

describe('a forced password change', () => {
  it('comes before the dashboard, and the dashboard follows the change', async () => {
    let user = sam;
    routes['GET /api/auth/me'] = () => ({ status: 200, body: { user } });
    routes['POST /api/auth/change-password'] = () => {
      user = { ...sam, must_change_credentials: false };
      return { status: 200, body: { success: true } };
    };
    renderApp();
    await screen.findByRole('heading', { name: 'Choose a new password' });
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Demo@12345' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'short' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect((await screen.findByRole('alert')).textContent).toContain('does not meet the rules');
    expect(calls.some((c) => c.url === 'POST /api/auth/change-password')).toBe(false);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Granite-Meadow-88' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'Granite-Meadow-88' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose a new password' })).toBeNull());
    expect(calls.find((c) => c.url === 'POST /api/auth/change-password')?.body).toEqual({
      current_password: 'Demo@12345',
      new_password: 'Granite-Meadow-88',
    });
  });
});

describe('the set-password page', () => {
  it('says so when the link is dead', async () => {
    window.history.replaceState(null, '', '/set-password?token=used-token');
    routes['POST /api/auth/password-link'] = () => ({
      status: 410,
      body: { error: 'This link is no longer valid: it has expired or was already used.' },
    });
    renderApp();
    expect((await screen.findByRole('alert')).textContent).toContain('This link is no longer valid');
    expect(calls.find((c) => c.url === 'POST /api/auth/password-link')?.body).toEqual({ token: 'used-token' });
  });

  it('an invitation link: the new password is described by its rules, and a mismatch or a weak one is refused before sending', async () => {
    window.history.replaceState(null, '', '/set-password?token=invite-token');
    routes['POST /api/auth/password-link'] = () => ({
      status: 200,
      body: { purpose: 'invite', email: 'grace.hopper@adminease.test', first_name: 'Grace', last_name: 'Hopper' },
    });
    routes['POST /api/auth/set-password'] = () => ({ status: 200, body: { email: 'grace.hopper@adminease.test' } });
    renderApp();
    const fresh = await screen.findByLabelText('New password');
    const rules = document.getElementById(fresh.getAttribute('aria-describedby') ?? '');
    expect(rules?.getAttribute('aria-label')).toBe('Password rules');
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Set password' }));

    fireEvent.change(fresh, { target: { value: 'grace12' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'grace12' } });
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('The password does not meet the rules below.');
    fireEvent.change(fresh, { target: { value: 'Granite-Meadow-88' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Granite-Meadow-89' } });
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The passwords do not match.'));
    expect(calls.some((c) => c.url === 'POST /api/auth/set-password')).toBe(false);

    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Granite-Meadow-88' } });
    submit();
    expect(await screen.findByText(/Your password is set/)).toBeTruthy();
    expect(calls.find((c) => c.url === 'POST /api/auth/set-password')?.body).toEqual({
      token: 'invite-token',
      password: 'Granite-Meadow-88',
    });
  });

  it('the first-run set-up link: asks for the first administrator and creates them; a second use shows the dead link', async () => {
    window.history.replaceState(null, '', '/set-password?token=setup-token');
    let used = false;
    routes['POST /api/auth/password-link'] = () =>
      used
        ? { status: 410, body: { error: 'This link is no longer valid: it has expired or was already used.' } }
        : { status: 200, body: { purpose: 'setup' } };
    routes['POST /api/auth/set-password'] = (init) => {
      used = true;
      return { status: 200, body: { email: JSON.parse(String(init.body)).email } };
    };
    const { unmount } = renderApp();
    expect(await screen.findByRole('heading', { name: 'Set up AdminEase' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Create the first administrator' })).toBeTruthy();
    expect(screen.getByText('Create the first administrator. This link works once.')).toBeTruthy();
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create administrator' }));

    // names and e-mail are needed before anything is sent
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Granite-Meadow-88' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Granite-Meadow-88' } });
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill in all fields');
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Quinn' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: ' ada.quinn@company.test ' } });
    // the rules know the typed name: a password holding it is refused before sending
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Quinn-Meadow-88' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Quinn-Meadow-88' } });
    submit();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The password does not meet the rules below.'));
    expect(calls.some((c) => c.url === 'POST /api/auth/set-password')).toBe(false);

    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Granite-Meadow-88' } });
    fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: 'Granite-Meadow-88' } });
    submit();
    expect(await screen.findByText(/Your password is set/)).toBeTruthy();
    expect(screen.getByText('ada.quinn@company.test')).toBeTruthy();
    // the default employee code (ADM-001) is the server's: an empty field is not sent
    expect(calls.find((c) => c.url === 'POST /api/auth/set-password')?.body).toEqual({
      token: 'setup-token',
      password: 'Granite-Meadow-88',
      first_name: 'Ada',
      last_name: 'Quinn',
      email: 'ada.quinn@company.test',
    });

    // the same link again: dead
    unmount();
    renderApp();
    expect((await screen.findByRole('alert')).textContent).toContain('This link is no longer valid');
    expect(screen.queryByRole('button', { name: 'Create administrator' })).toBeNull();
  });
});
