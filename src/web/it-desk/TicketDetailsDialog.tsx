// The IT ticket details dialog: loads GET /api/it-support/form-details and shows the incident or the password
// reset (never the password), the resolution, the employee's answer, the status and the next stage.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button, Dialog, Spinner, StatusBadge } from '../ui';
import { formatDate, formatDateTime } from '../format';
import { type ItTicket, fetchItFormDetails } from './api';
import { itLifecycleOf } from '../../domain/forms';

export interface TicketDetailsDialogProps {
  ticket: ItTicket | null;
  open: boolean;
  onClose: () => void;
}

export function TicketDetailsDialog({ ticket, open, onClose }: TicketDetailsDialogProps) {
  const details = useQuery({
    queryKey: ['it-support', 'details', ticket?.request_id],
    queryFn: ({ signal }) => fetchItFormDetails(ticket!.request_id, ticket!.form_type, signal),
    enabled: open && ticket !== null,
    staleTime: 0,
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="xl"
      title={`IT Ticket Details - #${ticket?.request_id ?? ''}`}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {details.isPending ? (
        <div className="flex items-center justify-center gap-3 py-12 text-sm text-gray-600">
          <Spinner size="lg" className="text-indigo-600" />
          <span>Loading form details...</span>
        </div>
      ) : details.isError ? (
        <div role="alert" className="py-8 text-center">
          <p className="text-base font-semibold text-red-700">Error</p>
          <p className="mt-1 text-sm text-gray-700">Failed to load form details</p>
        </div>
      ) : (
        <DetailsBody d={details.data} />
      )}
    </Dialog>
  );
}

function DetailsBody({ d }: { d: ItTicket }) {
  const reset = itLifecycleOf(d.form_type) === 'password-reset';
  return (
    <div className="space-y-5 text-sm">
      <dl className="grid gap-x-8 gap-y-2 sm:grid-cols-2">
        <Row label="Employee" value={d.employee_name} />
        <Row label="Department" value={d.department} />
        <Row label="Form" value={reset ? 'Password Reset' : 'IT Incident'} />
        <Row label="Status" value={<StatusBadge status={d.display_status || d.status} />} />
        {reset ? (
          <>
            <Row label="System for Reset" value={d.system_for_reset || 'N/A'} />
            <Row label="Reset Reason" value={d.reset_reason || 'N/A'} />
            <Row label="Request Date" value={formatDate(d.created_at)} />
            <Row label="Line Manager" value={d.line_manager_acknowledgement === true ? 'Acknowledged' : 'Pending'} />
            <Row label="New Password" value={d.has_new_password ? 'Set (visible only to the employee)' : 'Not set'} />
            {d.it_helpdesk_reset_by && <Row label="Reset By" value={d.it_helpdesk_reset_by} />}
            {d.it_helpdesk_date && <Row label="Reset Date" value={formatDate(d.it_helpdesk_date)} />}
          </>
        ) : (
          <>
            <Row label="System Number" value={d.employee_system_number || 'N/A'} />
            <Row label="Affected System" value={d.affected_system || 'N/A'} />
            <Row label="Contact" value={d.contact_info || 'N/A'} />
            <Row label="Incident Date" value={formatDate(d.incident_date)} />
            {d.it_helpdesk_ticket_number && <Row label="Ticket Number" value={d.it_helpdesk_ticket_number} />}
            {d.it_helpdesk_assigned_to && <Row label="Assigned To" value={d.it_helpdesk_assigned_to} />}
            {d.it_resolution_date && <Row label="Resolved On" value={formatDate(d.it_resolution_date)} />}
            <Row label="Employee Confirmation" value={d.employee_confirmation_status || 'Pending'} />
          </>
        )}
        {d.next_stage && <Row label="Next Stage" value={d.next_stage} />}
      </dl>

      {!reset && d.incident_description && (
        <Block title="Incident Description:" tone="gray">
          {d.incident_description}
        </Block>
      )}
      {!reset && d.it_resolution_notes && (
        <Block title="Resolution Notes / Q&A:" tone="indigo">
          {d.it_resolution_notes}
        </Block>
      )}
      {!reset && d.employee_confirmation_status === 'Rejected' && d.employee_rejection_reason && (
        <Block title="Employee reported:" tone="red">
          {d.employee_rejection_reason}
        </Block>
      )}
      {!reset && d.employee_confirmation_status === 'Confirmed' && (
        <Block title="Employee confirmed:" tone="green">
          {(d.employee_confirmation_notes as string | undefined) || 'Problem is solved'}
          {typeof d.employee_confirmation_date === 'string' && (
            <span className="mt-1 block text-xs text-green-800">{formatDateTime(d.employee_confirmation_date)}</span>
          )}
        </Block>
      )}
      {d.it_helpdesk_rejected_reason && (
        <Block title="Rejection Reason:" tone="red">
          {d.it_helpdesk_rejected_reason}
        </Block>
      )}
    </div>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-x-2">
      <dt className="font-semibold text-gray-700">{label}:</dt>
      <dd className="min-w-0 break-words text-gray-900">{value}</dd>
    </div>
  );
}

const blockTones = {
  gray: 'bg-gray-50 border-gray-200 text-gray-900',
  indigo: 'bg-indigo-50 border-indigo-200 text-gray-900',
  red: 'bg-red-50 border-red-200 text-red-900',
  green: 'bg-green-50 border-green-200 text-green-900',
} as const;

function Block({ title, tone, children }: { title: string; tone: keyof typeof blockTones; children: ReactNode }) {
  return (
    <div>
      <p className="mb-1.5 font-semibold text-gray-700">{title}</p>
      <div className={`rounded-lg border p-3 whitespace-pre-wrap ${blockTones[tone]}`}>{children}</div>
    </div>
  );
}
