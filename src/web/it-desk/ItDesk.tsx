// The IT support dashboard's content: Refresh, the status filter (All/Open/Resolved/Closed,
// default Open), the Open/Resolved/Closed/Total Tickets tiles, the tickets table and its actions, and the
// details, fill/update ticket, set-password and close-ticket dialogs.
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Eye, KeyRound, RefreshCw, Save } from 'lucide-react';
import {
  DEFAULT_IT_FILTER,
  IT_FILTERS,
  IT_OFFICER_FALLBACK_NAME,
  type ItFilter,
  awaitingItUpdate,
  awaitsEmployeeConfirmation,
  incidentActionLabel,
  itAlerts,
  itSummary,
  matchesItFilter,
  mayCloseTicket,
  maySetPassword,
} from '../../domain/it';
import { displayName } from '../api/types';
import { useCurrentUser } from '../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../routing/hooks';
import { formatDate } from '../format';
import {
  Badge,
  Button,
  Card,
  CardHeader,
  Dialog,
  ErrorBanner,
  Select,
  StatTile,
  StatusBadge,
  Table,
  TableMessageRow,
  TBody,
  Td,
  Th,
  THead,
  Tr,
  useToast,
} from '../ui';
import { IT_QUEUE_KEY, type ItTicket, closeItTicket, serverError, useItQueue } from './api';
import { FillTicketDialog } from './FillTicketDialog';
import { SetPasswordDialog } from './SetPasswordDialog';
import { TicketDetailsDialog } from './TicketDetailsDialog';
import { itLifecycleOf } from '../../domain/forms';

type Open = { kind: 'details' | 'fill' | 'password' | 'close'; ticket: ItTicket } | null;

const COLUMNS = 6;

export function ItDesk() {
  const user = useCurrentUser();
  const officerName = useMemo(() => {
    const n = `${user.profile?.first_name ?? user.firstName ?? ''} ${user.profile?.last_name ?? user.lastName ?? ''}`.trim();
    return n || IT_OFFICER_FALLBACK_NAME;
  }, [user]);
  const queue = useItQueue();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useSearchParamState<ItFilter>('status', DEFAULT_IT_FILTER, IT_FILTERS);
  const [dialog, setDialog] = useState<Open>(null);

  const tickets = useMemo(() => queue.data ?? [], [queue.data]);
  // A ticket's details have their own URL (/requests/<id>); the other dialogs are steps of work on the desk.
  const [detailsTicket, setDetailsTicket] = useDetailsRoute<ItTicket>(tickets, 'dashboard');
  const summary = useMemo(() => itSummary(tickets), [tickets]);
  const rows = useMemo(() => tickets.filter((t) => matchesItFilter(t, filter)), [tickets, filter]);

  const refresh = () => void queue.refetch();
  const afterChange = () => {
    setDialog(null);
    void queryClient.invalidateQueries({ queryKey: IT_QUEUE_KEY });
  };

  return (
    <section aria-labelledby="it-desk-heading" className="space-y-4" id="approval-table-section">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="it-desk-heading" className="text-lg font-semibold text-gray-900">
            IT Support Tickets
          </h2>
          <p className="text-sm text-gray-600">{displayName(user)} · incidents and password resets</p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <Select label="Status" value={filter} onChange={(e) => setFilter(e.target.value as ItFilter)} wrapperClassName="w-40">
            {IT_FILTERS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </Select>
          <Button
            variant="secondary"
            onClick={refresh}
            disabled={queue.isFetching}
            icon={<RefreshCw className={`h-4 w-4 ${queue.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />}
          >
            Refresh
          </Button>
        </div>
      </div>

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Ticket summary" role="group">
        <StatTile label="Open" value={summary.Open} tone="warning" />
        <StatTile label="Resolved" value={summary.Resolved} tone="neutral" />
        <StatTile label="Closed" value={summary.Closed} tone="success" />
        <StatTile label="Total Tickets" value={summary.Total} />
      </div>

      {queue.isError && <ErrorBanner onRetry={refresh}>{itAlerts.loadFailed}</ErrorBanner>}

      <Card>
        <CardHeader
          title={`${filter === 'All' ? 'All' : filter} tickets`}
          description={queue.isPending ? undefined : `${rows.length} of ${tickets.length} shown`}
          level={3}
        />
        <Table cards caption="IT support tickets">
          <THead>
            <tr>
              <Th>Employee</Th>
              <Th showFrom="4xl">System Number</Th>
              <Th>Affected System</Th>
              <Th showFrom="3xl">Incident Date</Th>
              <Th>Status</Th>
              <Th align="right">Actions</Th>
            </tr>
          </THead>
          <TBody>
            {queue.isPending ? (
              <TableMessageRow colSpan={COLUMNS}>Loading…</TableMessageRow>
            ) : queue.isError && tickets.length === 0 ? (
              <TableMessageRow colSpan={COLUMNS}>{itAlerts.loadFailed}</TableMessageRow>
            ) : rows.length === 0 ? (
              <TableMessageRow colSpan={COLUMNS}>{itAlerts.empty}</TableMessageRow>
            ) : (
              rows.map((t) => (
                <TicketRow
                  key={t.request_id}
                  t={t}
                  onOpen={(kind) => (kind === 'details' ? setDetailsTicket(t) : setDialog({ kind, ticket: t }))}
                />
              ))
            )}
          </TBody>
        </Table>
      </Card>

      <TicketDetailsDialog open={detailsTicket !== null} ticket={detailsTicket} onClose={() => setDetailsTicket(null)} />
      <FillTicketDialog
        open={dialog?.kind === 'fill'}
        ticket={dialog?.kind === 'fill' ? dialog.ticket : null}
        officerName={officerName}
        onClose={() => setDialog(null)}
        onSaved={afterChange}
      />
      <SetPasswordDialog
        open={dialog?.kind === 'password'}
        ticket={dialog?.kind === 'password' ? dialog.ticket : null}
        officerName={officerName}
        onClose={() => setDialog(null)}
        onSaved={afterChange}
      />
      <CloseTicketDialog
        open={dialog?.kind === 'close'}
        ticket={dialog?.kind === 'close' ? dialog.ticket : null}
        onClose={() => setDialog(null)}
        onClosed={afterChange}
      />
    </section>
  );
}

function TicketRow({ t, onOpen }: { t: ItTicket; onOpen: (kind: 'details' | 'fill' | 'password' | 'close') => void }) {
  const reset = itLifecycleOf(t.form_type) === 'password-reset';
  const action = incidentActionLabel(t);
  return (
    <Tr data-testid={`it-ticket-${t.request_id}`}>
      <Td label="Employee">
        <div className="font-medium text-gray-900">{t.employee_name}</div>
        <div className="text-xs text-gray-500">{t.department}</div>
      </Td>
      <Td label="System Number" showFrom="4xl">
        {reset ? '—' : t.employee_system_number || '—'}
      </Td>
      <Td label="Affected System">
        <div>{reset ? t.system_for_reset || '—' : t.affected_system || '—'}</div>
        <div className="mt-0.5 flex items-center gap-1.5 text-xs text-gray-500">
          <Badge tone={reset ? 'accent' : 'neutral'}>{reset ? 'Password Reset' : 'IT Incident'}</Badge>
          <span>{t.request_id}</span>
        </div>
      </Td>
      <Td label="Incident Date" showFrom="3xl" className="whitespace-nowrap">
        {formatDate(reset ? t.created_at : t.incident_date || t.created_at)}
      </Td>
      <Td label="Status">
        <StatusBadge status={t.display_status || t.status} />
        {!reset && t.it_helpdesk_ticket_number && <div className="mt-1 text-xs text-gray-500">{t.it_helpdesk_ticket_number}</div>}
      </Td>
      <Td align="right" actions>
        <div className="flex flex-wrap items-center justify-end gap-2">
          <Button variant="secondary" size="sm" onClick={() => onOpen('details')} icon={<Eye className="h-4 w-4" aria-hidden="true" />}>
            View Details
          </Button>
          {action && (
            <Button size="sm" onClick={() => onOpen('fill')} icon={<Save className="h-4 w-4" aria-hidden="true" />}>
              {action}
            </Button>
          )}
          {reset && maySetPassword(t) && (
            <Button size="sm" onClick={() => onOpen('password')} icon={<KeyRound className="h-4 w-4" aria-hidden="true" />}>
              Set New Password
            </Button>
          )}
          {mayCloseTicket(t) && (
            <Button size="sm" onClick={() => onOpen('close')} icon={<CheckCircle2 className="h-4 w-4" aria-hidden="true" />}>
              Close Ticket
            </Button>
          )}
        </div>
        <RowNote t={t} />
      </Td>
    </Tr>
  );
}

/** A short line under the actions saying where the ticket stands. */
function RowNote({ t }: { t: ItTicket }) {
  let text: string | null = null;
  let tone = 'text-gray-500';
  if (itLifecycleOf(t.form_type) === 'password-reset') {
    const s = t.status === 'Rejected' ? 'Rejected' : t.it_support_status;
    if (s === 'Pending Manager') text = 'Waiting for the line manager';
    else if (s === 'Password Set') text = 'Password set · waiting for the employee';
    else if (s === 'Completed') {
      text = 'Password Reset Completed';
      tone = 'text-green-700';
    }
  } else if (awaitsEmployeeConfirmation(t)) {
    text = 'Waiting for employee confirmation';
    tone = 'text-amber-700';
  } else if (awaitingItUpdate(t)) {
    text = 'Employee says problem not solved';
    tone = 'text-red-700';
  } else if (mayCloseTicket(t)) {
    text = 'Employee confirmed problem solved · ready to close';
    tone = 'text-green-700';
  } else if (t.status === 'Closed') {
    text = 'Ticket Closed';
    tone = 'text-green-700';
  }
  return text ? <p className={`mt-1 text-xs ${tone}`}>{text}</p> : null;
}

function CloseTicketDialog({
  ticket,
  open,
  onClose,
  onClosed,
}: {
  ticket: ItTicket | null;
  open: boolean;
  onClose: () => void;
  onClosed: () => void;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function close() {
    if (!ticket) {
      toast.error(itAlerts.noTicketSelected);
      return;
    }
    setBusy(true);
    try {
      await closeItTicket(ticket.request_id, ticket.version);
      toast.success(`Ticket ${ticket.it_helpdesk_ticket_number ?? ticket.request_id} closed.`);
      onClosed();
    } catch (err) {
      const message = serverError(err);
      toast.error(
        message === null ? 'Failed to close the ticket. Please try again.' : `Failed to close ticket: ${message || 'Unknown error'}`,
      );
    } finally {
      setBusy(false);
    }
  }
  return (
    <Dialog
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="sm"
      title="Close Ticket"
      description={ticket ? `${ticket.it_helpdesk_ticket_number ?? ticket.request_id} · ${ticket.employee_name}` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button onClick={close} loading={busy}>
            Close Ticket
          </Button>
        </>
      }
    >
      <p className="text-sm text-gray-700">The employee confirmed the problem is solved. Closing completes the ticket.</p>
    </Dialog>
  );
}
