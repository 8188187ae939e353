// Shared by the web's component tests: render a screen inside the app's providers (React Query without retries,
// toasts, the signed-in user of a stubbed GET /api/auth/me), and answer a stubbed fetch with JSON.
import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import type { User } from '../api/types';
import { AuthProvider } from '../auth/AuthProvider';
import { ToastProvider } from '../ui';

/** A fetch answer with a JSON body (none when `body` is undefined). */
export const jsonResponse = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Renders `ui` inside the app's providers and waits until the session has loaded. */
export async function renderSignedIn(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <AuthProvider>{ui}</AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(screen.queryByText('Loading AdminEase')).toBeNull());
  return view;
}

/** The demo organisation's Alex Johnson (EMP-1001) as the login answer names him, with the test's changes. */
export function testUser(changes: Partial<User> = {}): User {
  return {
    id: 15,
    email: 'alex.johnson@adminease.test',
    role: 'Software Engineer',
    user_type: 'employee',
    department_code: 'ENG',
    department: { department_code: 'ENG', department_name: 'Engineering' },
    profile: {
      first_name: 'Alex',
      last_name: 'Johnson',
      employee_code: 'EMP-1001',
      employee_id: 'EMP-1001',
      hr_id: null,
      manager_id: null,
    },
    firstName: 'Alex',
    lastName: 'Johnson',
    manager_name: 'Priya Sharma',
    ...changes,
  };
}
