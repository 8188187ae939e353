// Small pieces the administrator's screens share: a titled section card, the loading / error / empty states of a
// loaded list, the save dialog and its mutation, and the texts of the dashboard and assistant a role gets.
import type { FormEvent, ReactNode } from 'react';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { chatbotForRole, dashboardForRole } from '../../domain/roles';
import { Button, Card, CardHeader, Dialog, EmptyState, ErrorBanner, Spinner, useToast } from '../ui';
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

/**
 * An administrator's change: the mutation, and on success every admin query (and `invalidate`) refreshed, the
 * `success` toast when given, then `onDone` with the answer.
 */
export function useAdminMutation<T>(
  mutationFn: () => Promise<T>,
  opts: { success?: string; invalidate?: QueryKey[]; onDone?: (answer: T) => void } = {},
) {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn,
    onSuccess: (answer) => {
      for (const queryKey of [['admin'], ...(opts.invalidate ?? [])]) void qc.invalidateQueries({ queryKey });
      if (opts.success) toast.success(opts.success);
      opts.onDone?.(answer);
    },
  });
}

/**
 * A dialog holding one form that one mutation saves: Cancel and the submit button in the footer (both held while it
 * runs), the refusal above the fields. `validate` may stop the submit (answer false) to show the form's own errors.
 */
export function FormDialog({
  formId,
  title,
  description,
  size,
  submitLabel,
  danger = false,
  errorTitle = 'Not saved',
  mutation,
  validate,
  onClose,
  children,
}: {
  formId: string;
  title: string;
  description?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  submitLabel: string;
  danger?: boolean;
  errorTitle?: string;
  mutation: { isPending: boolean; isError: boolean; error: unknown; mutate: () => void };
  validate?: () => boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  function submit(e: FormEvent) {
    e.preventDefault();
    if (validate && !validate()) return;
    mutation.mutate();
  }
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      description={description}
      size={size}
      closeOnBackdrop={!mutation.isPending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant={danger ? 'danger' : 'primary'} type="submit" form={formId} loading={mutation.isPending}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="space-y-4" noValidate>
        {mutation.isError && <ErrorBanner title={errorTitle}>{errorText(mutation.error)}</ErrorBanner>}
        {children}
      </form>
    </Dialog>
  );
}
