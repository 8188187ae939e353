// The IT ticket details dialog: loads GET /api/it-support/form-details and shows who and where, the status and the
// next stage, the ticket's fields through the one details renderer (never the password), and the employee's answer.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button, Dialog, Spinner, StatusBadge } from '../ui';
import { formatDate, formatDateTime } from '../format';
import { type ItTicket, fetchItFormDetails } from './api';
import { formTitle, itLifecycleOf } from '../../domain/forms';
import { DetailFields } from '../forms/DetailFields';

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
        <Row label="Form" value={formTitle(d.form_type)} />
        <Row label="Status" value={<StatusBadge status={d.display_status || d.status} />} />
        <Row label="Request Date" value={formatDate(d.created_at)} />
        {reset && <Row label="Line Manager" value={d.line_manager_acknowledgement === true ? 'Acknowledged' : 'Pending'} />}
        {d.next_stage && <Row label="Next Stage" value={d.next_stage} />}
      </dl>

      {/* the ticket's own fields: the one details renderer, driven by the registry (approver rows included) */}
      <DetailFields record={d} audience="approver" />

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
