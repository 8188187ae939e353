// Employee side of an IT incident: the 'IT Support Resolution' card of the
// form-details modal: ticket number, resolution date and notes, 'Confirm Resolution' / 'Report Unresolved'
// while the resolution waits for the employee, and the 'Awaiting IT Support Update' / 'Problem Resolved' notices.
import { useState } from 'react';
import { Check, X } from 'lucide-react';
import {
  DEFAULT_CONFIRMATION_NOTES,
  DEFAULT_REJECTION_REASON,
  awaitingItUpdate,
  confirmationMessages,
  employeeMayRespond,
} from '../../../domain/it';
import { useCurrentUser } from '../../auth/AuthProvider';
import { formatDate } from '../../format';
import { Button, useToast } from '../../ui';
import { type ItTicket, confirmProblemSolved, rejectResolution, serverError } from '../api';

export interface ItIncidentResolutionProps {
  /** The it-incident record as the employee's form lists return it (request_id, status, it_helpdesk_* fields, ...). */
  record: Record<string, unknown>;
  /** Called with the updated record after the employee answered (refresh lists from it). */
  onChanged?: (record: ItTicket) => void;
}

/** Renders nothing until IT has given the incident a ticket number. */
export function ItIncidentResolution({ record, onChanged }: ItIncidentResolutionProps) {
  const user = useCurrentUser();
  const toast = useToast();
  const [local, setLocal] = useState<Record<string, unknown>>(record);
  const [busy, setBusy] = useState<'confirm' | 'reject' | null>(null);
  // A new record from the parent (after a refresh) replaces our local copy.
  const [seen, setSeen] = useState(record);
  if (seen !== record) {
    setSeen(record);
    setLocal(record);
  }

  const ticketNumber = typeof local.it_helpdesk_ticket_number === 'string' ? local.it_helpdesk_ticket_number : '';
  if (ticketNumber.trim() === '') return null;
  const requestId = String(local.request_id ?? local.form_id ?? '');

  async function answer(kind: 'confirm' | 'reject') {
    const employeeCode = user.profile?.employee_code;
    if (!employeeCode) {
      toast.error(confirmationMessages.noUser);
      return;
    }
    setBusy(kind);
    try {
      const res =
        kind === 'confirm'
          ? await confirmProblemSolved(requestId, employeeCode, DEFAULT_CONFIRMATION_NOTES)
          : await rejectResolution(requestId, employeeCode, DEFAULT_REJECTION_REASON);
      if (kind === 'confirm') toast.success(<span className="whitespace-pre-line">{confirmationMessages.confirmed(ticketNumber)}</span>);
      else toast.info(<span className="whitespace-pre-line">{confirmationMessages.rejected(ticketNumber)}</span>);
      setLocal(res.ticket);
      onChanged?.(res.ticket);
    } catch (err) {
      const message = serverError(err);
      toast.error(
        <span className="whitespace-pre-line">
          {message === null ? confirmationMessages.network(kind) : confirmationMessages.failed(kind, message)}
        </span>,
      );
    } finally {
      setBusy(null);
    }
  }

  const notes = typeof local.it_resolution_notes === 'string' ? local.it_resolution_notes : '';
  const resolvedOn = typeof local.it_resolution_date === 'string' ? local.it_resolution_date : '';

  return (
    <section
      aria-label="IT Support Resolution"
      className="rounded-xl border border-indigo-200 bg-indigo-50/60 p-4"
      data-testid="it-incident-resolution"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-base font-semibold text-indigo-950">IT Support Resolution</h3>
        <span className="text-xs text-indigo-700">
          Ticket # <span className="rounded-md bg-indigo-100 px-2 py-1 font-bold text-indigo-900">{ticketNumber}</span>
        </span>
      </div>

      {resolvedOn && (
        <p className="mb-3 text-xs text-gray-600">
          Resolved on: <span className="font-medium text-gray-900">{formatDate(resolvedOn)}</span>
        </p>
      )}

      {notes && (
        <div className="mb-3">
          <p className="mb-1 text-xs font-medium text-gray-700">Resolution Notes</p>
          <p className="rounded-lg border border-gray-200 bg-white p-2 text-sm whitespace-pre-wrap text-gray-900">{notes}</p>
        </div>
      )}

      {awaitingItUpdate(local) && (
        <div className="mb-3 rounded-lg border border-amber-200 bg-amber-50 p-2" role="status">
          <p className="text-xs font-medium text-amber-800">Awaiting IT Support Update</p>
          <p className="mt-0.5 text-xs text-amber-700">
            You reported the issue is not resolved. IT Support is working on an updated solution.
          </p>
        </div>
      )}

      {local.employee_confirmation_status === 'Confirmed' && (
        <div className="mb-3 rounded-lg border border-green-200 bg-green-50 p-2" role="status">
          <p className="text-xs font-medium text-green-800">Problem Resolved</p>
          <p className="mt-0.5 text-xs text-green-700">You confirmed the issue is solved. Ticket is closed.</p>
        </div>
      )}

      {employeeMayRespond(local) && (
        <div className="border-t border-indigo-200 pt-3">
          <p className="mb-3 text-center text-xs text-gray-700">Please confirm if your problem is solved:</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Button
              size="sm"
              className="bg-green-700 hover:bg-green-800 active:bg-green-800 disabled:bg-green-300"
              onClick={() => void answer('confirm')}
              loading={busy === 'confirm'}
              disabled={busy !== null}
              icon={<Check className="h-4 w-4" aria-hidden="true" />}
            >
              {busy === 'confirm' ? 'Processing...' : 'Confirm Resolution'}
            </Button>
            <Button
              size="sm"
              variant="danger"
              onClick={() => void answer('reject')}
              loading={busy === 'reject'}
              disabled={busy !== null}
              icon={<X className="h-4 w-4" aria-hidden="true" />}
            >
              {busy === 'reject' ? 'Processing...' : 'Report Unresolved'}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
