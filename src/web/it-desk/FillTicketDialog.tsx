// The fill / update ticket details dialog: a required ticket number (trimmed), the
// employee's incident description read-only, optional resolution notes (6 rows; saving notes resolves the ticket).
import { useEffect, useState, type FormEvent } from 'react';
import { Save } from 'lucide-react';
import { itAlerts } from '../../domain/it';
import { formatDate } from '../format';
import { Button, Dialog, Input, Textarea, useToast } from '../ui';
import { type ItTicket, saveTicketDetails, serverError } from './api';

export interface FillTicketDialogProps {
  ticket: ItTicket | null;
  open: boolean;
  onClose: () => void;
  /** Name written as the assignee: the officer's profile name, else 'IT Support Officer'. */
  officerName: string;
  onSaved: (ticket: ItTicket) => void;
}

export function FillTicketDialog({ ticket, open, onClose, officerName, onSaved }: FillTicketDialogProps) {
  const toast = useToast();
  const [ticketNumber, setTicketNumber] = useState('');
  const [notes, setNotes] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setTicketNumber(ticket?.it_helpdesk_ticket_number ?? '');
    setNotes('');
    setTouched(false);
    // The form resets when it opens or shows another ticket, not when a refresh of the same ticket arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, ticket?.request_id]);

  const blank = ticketNumber.trim() === '';
  const updating = Boolean(ticket?.it_helpdesk_ticket_number);
  const rejected = ticket?.employee_confirmation_status === 'Rejected';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ticket) {
      toast.error(itAlerts.noTicketSelected);
      return;
    }
    if (blank) {
      setTouched(true);
      toast.error(itAlerts.ticketNumberRequired);
      return;
    }
    setSaving(true);
    try {
      const res = await saveTicketDetails({
        form_id: ticket.request_id,
        it_helpdesk_ticket_number: ticketNumber.trim(),
        it_resolution_notes: notes.trim() || null,
        it_helpdesk_assigned_to: officerName,
        version: ticket.version,
      });
      toast.success(itAlerts.ticketSaved(notes.trim() !== ''));
      onSaved(res.ticket);
    } catch (err) {
      const message = serverError(err);
      toast.error(message === null ? itAlerts.ticketSaveNetwork : itAlerts.ticketSaveFailed(message));
    } finally {
      setSaving(false);
    }
  }

  const formId = 'it-fill-ticket-form';
  return (
    <Dialog
      open={open}
      onClose={saving ? () => undefined : onClose}
      closeOnBackdrop={!saving}
      size="lg"
      title={`${updating ? 'Update Ticket Details' : 'Fill Ticket Details'} - ${ticket?.employee_name ?? ''}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={saving} disabled={blank} icon={<Save className="h-4 w-4" aria-hidden="true" />}>
            {saving ? 'Saving...' : updating ? 'Update Details' : 'Save Details'}
          </Button>
        </>
      }
    >
      {ticket ? (
        <form id={formId} onSubmit={onSubmit} className="space-y-4" noValidate>
          <dl className="grid gap-x-6 gap-y-2 rounded-lg bg-indigo-50/60 p-4 text-sm sm:grid-cols-2">
            <Info label="Employee" value={ticket.employee_name} />
            <Info label="System Number" value={ticket.employee_system_number || 'N/A'} />
            <Info label="Affected System" value={ticket.affected_system || 'N/A'} />
            <Info label="Incident Date" value={formatDate(ticket.incident_date)} />
          </dl>

          <Input
            label={
              <>
                IT Ticket Number
                {updating && (
                  <span className="ml-2 text-xs font-normal text-gray-500">(Previously: {ticket.it_helpdesk_ticket_number})</span>
                )}
              </>
            }
            required
            value={ticketNumber}
            onChange={(e) => setTicketNumber(e.target.value)}
            onBlur={() => setTouched(true)}
            placeholder="e.g., TICKET-2025-001"
            autoComplete="off"
            maxLength={100}
            error={touched && blank ? itAlerts.ticketNumberRequired : undefined}
          />

          <Textarea
            label="Incident Description (from employee)"
            value={ticket.incident_description ?? ''}
            readOnly
            rows={4}
            className="bg-gray-50 text-gray-700"
          />

          {rejected && (
            <div className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800" role="note">
              <p className="font-medium">The employee says the problem is not solved.</p>
              {ticket.employee_rejection_reason && <p className="mt-1">{ticket.employee_rejection_reason}</p>}
              {ticket.it_resolution_notes && (
                <p className="mt-2 text-red-900">
                  <span className="font-medium">Previous resolution:</span> {ticket.it_resolution_notes}
                </p>
              )}
            </div>
          )}

          <Textarea
            label={
              <>
                Resolution Notes / Q&amp;A
                {ticket.it_resolution_notes && (
                  <span className="ml-2 text-xs font-normal text-amber-700">(Update previous resolution)</span>
                )}
              </>
            }
            rows={6}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            maxLength={4000}
            placeholder="Add your investigation notes, questions asked, troubleshooting steps, or resolution details here..."
            hint="Optional. Without notes the ticket stays Open, assigned to you; with notes it is Resolved and the employee is asked to confirm."
          />
        </form>
      ) : (
        <p className="text-sm text-gray-600">{itAlerts.noTicketSelected}</p>
      )}
    </Dialog>
  );
}

function Info({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="font-medium text-gray-700">{label}:</dt>
      <dd className="min-w-0 break-words text-gray-900">{value}</dd>
    </div>
  );
}
