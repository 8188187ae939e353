// @vitest-environment happy-dom
// Sign-in flow against a mocked API: session probe, client-side validation, login + assistant session, errors, logout.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import { App } from '../App';
import { AuthProvider } from '../auth/AuthProvider';
import { ToastProvider } from '../ui';
import type { User } from '../api/types';

const meera: User = {
  id: 5,
  email: 'meera.iyer@adminease.test',
  role: 'HR Manager',
  user_type: 'hr_staff',
  department_code: 'HR',
  department: { department_code: 'HR', department_name: 'Human Resources' },
  profile: { first_name: 'Meera', last_name: 'Iyer', employee_code: 'HR-001', employee_id: 5, hr_id: 'HR-001', manager_id: 1 },
  firstName: 'Meera',
  lastName: 'Iyer',
};

type Route = (init: RequestInit) => { status: number; body?: unknown };

function json(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

let routes: Record<string, Route>;
const calls: { url: string; body: unknown }[] = [];

/** Shows the router's address, so a test can see where the app went. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderApp(at = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MemoryRouter initialEntries={[at]}>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>
            <App />
            <LocationProbe />
          </AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  calls.length = 0;
  routes = {
    'GET /api/auth/me': () => ({ status: 401, body: { error: 'Not authenticated' } }),
    'GET /api/auth/config': () => ({ status: 200, body: { demo: true } }),
    'POST /api/auth/login': () => ({ status: 200, body: { user: meera, access_token: 'tok-1' } }),
    'POST /ai/manager/session/login': () => ({ status: 200, body: { session_id: 'chat-1', user_id: 'HR-001', user_role: 'HR Manager' } }),
    'POST /api/form-state/save-snapshot': () => ({ status: 200, body: { success: true } }),
    'POST /ai/manager/session/logout': () => ({ status: 200, body: { success: true } }),
    'POST /api/auth/logout': () => ({ status: 200, body: { success: true } }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ url: key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const route = routes[key];
      if (!route) return json(404, { error: `No route ${key}` });
      const { status, body } = route(init);
      return json(status, body);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** Expected failures are logged by the app; keep the test output clean. */
function silenceConsoleError() {
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
}

async function signInScreen() {
  renderApp();
  expect(screen.getByText('Loading AdminEase')).toBeTruthy();
  expect(screen.getByText('Initializing your workspace')).toBeTruthy();
  await screen.findByRole('button', { name: 'Sign In' });
}

describe('sign-in screen', () => {
  it('asks for both fields without calling the server', async () => {
    await signInScreen();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'someone@adminease.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Please fill in all fields');
    expect(calls.map((c) => c.url).filter((u) => u !== 'GET /api/auth/config')).toEqual(['GET /api/auth/me']);
  });

  it('lists the demo groups in the spec order and Fill fills email and the demo password', async () => {
    await signInScreen();
    const panel = await screen.findByRole('complementary', { name: 'Demo Credentials' });
    const headings = within(panel)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toEqual([
      'Line Managers',
      'HR Staff',
      'Finance Staff',
      'IT Staff',
      'Operations Staff',
      'Marketing Staff',
      'Legal Staff',
      'Employees',
      'Administrators',
    ]);
    fireEvent.click(within(panel).getByRole('button', { name: 'Fill Kenji Watanabe' }));
    expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('kenji.watanabe@adminease.test');
    expect(screen.getByLabelText<HTMLInputElement>('Password').value).toBe('Demo@12345');
  });

  it('shows the Demo banner and the Demo Credentials panel only when the server is in demo mode', async () => {
    await signInScreen();
    const banner = await screen.findByRole('complementary', { name: 'Demo mode' });
    expect(banner.textContent).toMatch(/^Demo/);
    expect(screen.getByRole('button', { name: 'Demo Credentials' })).toBeTruthy();
  });

  it('hides the Demo Credentials panel, its phone button and the banner when demo mode is off', async () => {
    routes['GET /api/auth/config'] = () => ({ status: 200, body: { demo: false } });
    await signInScreen();
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('GET /api/auth/config'));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.queryByRole('complementary', { name: 'Demo Credentials' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Demo Credentials' })).toBeNull();
    expect(screen.queryByRole('complementary', { name: 'Demo mode' })).toBeNull();
    expect(screen.queryByText(/Demo@12345/)).toBeNull();
  });

  it('shows no demo panel when the server cannot tell (an older server without /api/auth/config)', async () => {
    delete routes['GET /api/auth/config'];
    await signInScreen();
    await waitFor(() => expect(calls.map((c) => c.url)).toContain('GET /api/auth/config'));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(screen.queryByRole('complementary', { name: 'Demo Credentials' })).toBeNull();
  });

  it('shows the server message on wrong credentials', async () => {
    routes['POST /api/auth/login'] = () => ({ status: 401, body: { error: 'Invalid credentials. Please check your email and password.' } });
    await signInScreen();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'meera.iyer@adminease.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid credentials. Please check your email and password.');
    expect(localStorage.getItem('adminease_token')).toBeNull();
  });

  it('treats a failed assistant session as a failed login', async () => {
    routes['POST /ai/manager/session/login'] = () => ({ status: 500, body: { error: 'Failed to create session' } });
    silenceConsoleError();
    await signInScreen();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'meera.iyer@adminease.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Demo@12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Login failed. Please try again.');
    expect(calls.map((c) => c.url)).toContain('POST /api/auth/logout');
    expect(localStorage.getItem('adminease_token')).toBeNull();
  });

  it('signs in to the role dashboard with an assistant session, and logout clears the stored session', async () => {
    await signInScreen();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'meera.iyer@adminease.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Demo@12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));

    // The dashboard is a lazily loaded chunk: on a busy machine it can take longer than the default second.
    const main = await screen.findByTestId('dashboard-hr', {}, { timeout: 10_000 });
    expect(main.tagName).toBe('MAIN');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('HR Manager Dashboard');
    // The token of the login answer is for API clients: the web keeps only the httpOnly cookie.
    expect(localStorage.getItem('adminease_token')).toBeNull();
    expect(sessionStorage.getItem('adminease_token')).toBeNull();
    expect(localStorage.getItem('adminease_chat_session')).toBe('chat-1');
    // HR staff are known to the assistant by their hr_id.
    expect(calls.find((c) => c.url === 'POST /ai/manager/session/login')?.body).toEqual({ user_id: 'HR-001', user_role: 'HR Manager' });

    localStorage.setItem('chatbot_history', '[]');
    sessionStorage.setItem('tts_queue', '[]');
    localStorage.setItem('unrelated', 'kept');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    });
    await screen.findByRole('button', { name: 'Sign In' });
    // (the sign-in screen then asks whether demo mode is on)
    expect(
      calls
        .map((c) => c.url)
        // The logout's own calls, in order (a dashboard read still on its way may land between them on a busy machine).
        .filter((u) => u.startsWith('POST '))
        .slice(-3),
    ).toEqual(['POST /api/form-state/save-snapshot', 'POST /ai/manager/session/logout', 'POST /api/auth/logout']);
    expect(calls.find((c) => c.url === 'POST /api/form-state/save-snapshot')?.body).toEqual({ user_id: 5 });
    expect(localStorage.getItem('adminease_token')).toBeNull();
    expect(localStorage.getItem('adminease_chat_session')).toBeNull();
    expect(localStorage.getItem('chatbot_history')).toBeNull();
    expect(sessionStorage.getItem('tts_queue')).toBeNull();
    expect(localStorage.getItem('unrelated')).toBe('kept');
  });

  it('keeps a deep link through sign-in and lands on it; logout then leaves it for the dashboard', async () => {
    renderApp('/?status=Approved&form=all-forms');
    // The old ?form= address is redirected at once, signed in or not, other params kept.
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getByTestId('location').textContent).toBe('/forms?status=Approved');
    cleanup();

    renderApp('/requests/LR-000777?status=Approved');
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getByTestId('location').textContent).toBe('/requests/LR-000777?status=Approved');
    routes['GET /api/forms/details/LR-000777'] = () => ({ status: 404, body: { error: 'Request not found' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'meera.iyer@adminease.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Demo@12345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByTestId('dashboard-hr', {}, { timeout: 10_000 });
    expect(screen.getByTestId('location').textContent).toBe('/requests/LR-000777?status=Approved');
    // A request the server does not show this person reads 'not found', over their dashboard.
    const dialog = await screen.findByRole('dialog', { name: 'Request not found' });
    expect(calls.map((c) => c.url)).toContain('GET /api/forms/details/LR-000777');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Back to dashboard' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/?status=Approved'));
    expect(screen.queryByRole('dialog', { name: 'Request not found' })).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    });
    await screen.findByRole('button', { name: 'Sign In' });
    expect(screen.getByTestId('location').textContent).toBe('/');
  });

  it('opens the dashboard directly when a session exists', async () => {
    routes['GET /api/auth/me'] = () => ({ status: 200, body: { user: { ...meera, role: 'Team Lead', user_type: 'line_manager' } } });
    renderApp();
    await screen.findByTestId('dashboard-line-manager', {}, { timeout: 10_000 });
  });

  it('shows the authentication error screen when the session check fails unexpectedly', async () => {
    routes['GET /api/auth/me'] = () => ({ status: 500, body: { error: 'boom' } });
    silenceConsoleError();
    renderApp();
    await screen.findByText('Authentication Error');
    expect(screen.getByText('There was an issue with the authentication system.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeTruthy();
  });

  it('shows the rate-limit message of the server', async () => {
    routes['POST /api/auth/login'] = () => ({ status: 429, body: { error: 'Too many sign-in attempts. Try again in a minute.' } });
    await signInScreen();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@adminease.test' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('Too many sign-in attempts'));
  });
});
