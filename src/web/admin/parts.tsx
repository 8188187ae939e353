// Small pieces the administrator's screens share: a titled section card, the loading / error / empty states of a
// loaded list, and the texts of the dashboard and assistant a role gets.
import type { ReactNode } from 'react';
import { chatbotForRole, dashboardForRole } from '../../domain/roles';
import { Card, CardHeader, EmptyState, ErrorBanner, Spinner } from '../ui';
import { errorText } from './api';

export function Section({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} description={description} actions={actions} />
      <div className="space-y-4 p-4 sm:p-5">{children}</div>
    </Card>
  );
}

/** Loading, error (with retry) and empty states around a loaded list; the list itself once there is something. */
export function Loaded<T>({
  query,
  what,
  empty,
  children,
}: {
  query: { data: T[] | undefined; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  /** 'people', for 'Loading people…' and the error title. */
  what: string;
  empty: { title: string; description?: ReactNode; action?: ReactNode };
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isPending)
    return (
      <p className="flex items-center gap-2 py-8 text-sm text-gray-600" role="status">
        <Spinner size="sm" /> Loading {what}…
      </p>
    );
  if (query.isError || !query.data)
    return (
      <ErrorBanner title={`Could not load ${what}`} onRetry={() => void query.refetch()}>
        {errorText(query.error)}
      </ErrorBanner>
    );
  if (query.data.length === 0) return <EmptyState title={empty.title} description={empty.description} action={empty.action} />;
  return <>{children(query.data)}</>;
}

const DASHBOARD_NAMES: Record<string, string> = {
  admin: 'Administrator',
  it: 'IT Support',
  hr: 'HR',
  finance: 'Finance',
  facilities_manager: 'Facilities Manager',
  facilities_desk: 'Facilities Desk',
  line_manager: 'Line Manager',
  employee: 'Employee',
};

const ASSISTANT_NAMES: Record<string, string> = {
  admin: 'administrator assistant',
  manager: 'manager assistant',
  hr: 'HR assistant',
  finance: 'finance assistant',
  it: 'IT assistant',
  facilities: 'facilities assistant',
  employee: 'employee assistant',
};

/** What the role text and user type will give the person, by the same rules the server and the app use. */
export function roleOutcome(role: string, userType: string): { dashboard: string; assistant: string } {
  const dashboard = dashboardForRole(role, userType);
  const assistant = chatbotForRole(role, userType);
  return {
    dashboard: `${DASHBOARD_NAMES[dashboard] ?? dashboard} dashboard`,
    assistant: `the ${ASSISTANT_NAMES[assistant] ?? assistant}`,
  };
}
