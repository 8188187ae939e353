// Display helpers shared by the approver dashboards: form-type labels, decision badges with the
// spec's colours and 'by' signer, amounts and short descriptions of a request.
import type { ReactNode } from 'react';
import { formTitle, formTypeDef, requestAmount, requestPurpose } from '../../domain/forms';
import { FormIcon } from '../forms/FormIcon';
import { detailRows } from '../forms/details';
import type { FormRecord } from '../forms/types';
import { CLOSED_STAGE_TEXT } from '../../domain/approvals';
import { Badge, type BadgeTone } from '../ui';
import { formatDate, formatUsd } from '../format';
import type { QueueRecord } from './api';

/** A form type's icon: the registry's icon name drawn by the web's one FormIcon. */
export function FormTypeIcon({ formType, className = 'h-4 w-4' }: { formType: string; className?: string }) {
  return <FormIcon name={formTypeDef(formType)?.icon ?? 'FileText'} className={className} />;
}

/** 'Leave Request', 'Employee Info Update', ... */
export const formLabel = (formType: string) => formTitle(formType);

/** Form Type column of the facilities tables: Facility Access or Meeting Room. */
export const facilitiesTypeLabel = (formType: string) =>
  formType === 'meeting-room' ? 'Meeting Room' : formType === 'facility-access' ? 'Facility Access' : formTitle(formType);

/** Badge tone of a decision: green approved-like, red rejected, grey never reached, amber otherwise. */
export function decisionTone(value: string | null | undefined): BadgeTone {
  const s = String(value ?? '')
    .trim()
    .toLowerCase();
  if (['approved', 'completed', 'closed', 'resolved', 'cleared', 'complete'].includes(s)) return 'success';
  if (s === 'rejected') return 'danger';
  if (s === 'closed-stage' || s === CLOSED_STAGE_TEXT.toLowerCase()) return 'neutral';
  return 'warning';
}

/** A stage's state as text: 'Closed' (never reached) reads 'No Further Action'; missing reads 'Pending'. */
export function stateText(state: string | null | undefined): string {
  const s = String(state ?? '').trim();
  if (s === '') return 'Pending';
  if (s === 'Closed') return CLOSED_STAGE_TEXT;
  return s;
}

/** `wrap`: a long state ('No Further Action') may take two lines, so a tight table keeps within its box. */
export function DecisionBadge({ value, wrap = false }: { value: string | null | undefined; wrap?: boolean }) {
  const text = stateText(value);
  return (
    <Badge tone={decisionTone(text)} wrap={wrap}>
      {text}
    </Badge>
  );
}

/** A decided row's final label: 'Approved' or 'Rejected' plus 'by {signer}' when signed. */
export function DecidedLabel({ value, signer, note }: { value: string; signer?: unknown; note?: string }) {
  const by = typeof signer === 'string' && signer.trim() !== '' ? signer : null;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <DecisionBadge value={value} wrap />
      {note && <span className="text-xs font-medium text-green-700">{note}</span>}
      {by && <span className="text-xs text-gray-500">by {by}</span>}
    </span>
  );
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The amount of a request: its type's total (petty cash amount, travel cost, requisition total, ...). */
export function amountOf(rec: QueueRecord): number | null {
  return requestAmount(String(rec.form_type ?? ''), rec);
}

/** Amount in the app's one money format ('USD $1,234.50'); '—' when the request has none. */
export function amountText(rec: QueueRecord): string {
  const n = amountOf(rec);
  return n === null ? '—' : formatUsd(n);
}

/** What a request is for: its type's purpose field. */
export const purposeOf = (rec: QueueRecord) => requestPurpose(String(rec.form_type ?? ''), rec) ?? '';

/**
 * The facilities table's Details cell: the room and slot, or the access asked for (the spec's two types); any other
 * type on a facilities chain shows the first value of its details card and the next two beneath it.
 */
export function facilitiesDetails(rec: QueueRecord): ReactNode {
  if (rec.form_type === 'meeting-room') {
    return (
      <span>
        <span className="font-medium text-gray-900">{str(rec.room_requested) || 'Room'}</span>
        <span className="block text-xs text-gray-500">
          {rec.booking_date ? formatDate(str(rec.booking_date)) : ''} {str(rec.start_time)}–{str(rec.end_time)}
          {rec.participants_count ? ` · ${str(rec.participants_count)} people` : ''}
        </span>
      </span>
    );
  }
  if (rec.form_type !== 'facility-access') {
    const [first, ...rest] = detailRows(rec as unknown as FormRecord).rows;
    return (
      <span>
        <span className="font-medium text-gray-900">{first?.value ?? formTitle(rec.form_type)}</span>
        <span className="block max-w-xs truncate text-xs text-gray-500">
          {rest
            .slice(0, 2)
            .map((r) => r.value)
            .join(' · ')}
        </span>
      </span>
    );
  }
  return (
    <span>
      <span className="font-medium text-gray-900">{str(rec.access_request_type) || 'Access'}</span>
      <span className="block max-w-xs truncate text-xs text-gray-500">{str(rec.facilities_requested)}</span>
    </span>
  );
}

export { formatUsd };
