// The form-details modal: 'Your Submissions' of the same form type, the approval steps,
// 'Rejection Reason', 'Next Stage', leave balance tiles, the type's details card or the generic field list,
// the type-specific extras, and editing (the generated form, PUT) and withdrawal of a pending request. Load failure: '❌ Error' / 'Failed to load form details'.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Pencil, Undo2 } from 'lucide-react';
import { isFormType, isLeaveType, itLifecycleOf } from '../../domain/forms';
import { displayStatus } from '../../domain/status';
import { useCurrentUser } from '../auth/AuthProvider';
import { formatDate, formatDateTime } from '../format';
import { Button, Dialog, Spinner, StatusBadge, cn, useToast } from '../ui';
import { ItIncidentResolution, PasswordResetNewPassword } from '../it-desk/employee';
import { FORMS_KEY, useFormDetails, useWithdrawRequest } from './api';
import { ApprovalSteps, NextStageBox, RejectionReasonBox } from './ApprovalSteps';
import { DelegationNotes } from '../delegation/DelegationNotes';
import { DetailFields } from './DetailFields';
import { detailCard } from './details';
import { FormIcon } from './FormIcon';
import { GeneratedForm } from './GeneratedForm';
import { LeaveBalanceTiles } from './LeaveBalanceTiles';
import { MeetingRoomCalendar } from './MeetingRoomCalendar';
import type { Submission } from './submissions';
import type { FormRecord } from './types';

export interface FormDetailsModalProps {
  open: boolean;
  onClose: () => void;
  /** The submission whose details open first. */
  submission: Submission | null;
  /** The person's submissions of the same form type, newest first ('Your Submissions'). */
  siblings: readonly Submission[];
}

/** The details card of a type, or the generic list of remaining fields. */
export function RecordFields({ record }: { record: FormRecord }) {
  const card = detailCard(record.form_type);
  return (
    <section className="rounded-md border border-gray-200 p-3" aria-labelledby="record-fields-heading">
      <h3 id="record-fields-heading" className="mb-3 text-sm font-semibold text-gray-900">
        {card?.title ?? 'Details'}
      </h3>
      <DetailFields record={record} />
    </section>
  );
}

function WithdrawControl({ record, onDone }: { record: FormRecord; onDone: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const withdraw = useWithdrawRequest();
  const toast = useToast();
  if (!confirming) {
    return (
      <Button variant="secondary" size="sm" icon={<Undo2 className="h-4 w-4" aria-hidden="true" />} onClick={() => setConfirming(true)}>
        Withdraw request
      </Button>
    );
  }
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
      role="group"
      aria-label="Confirm withdrawal"
    >
      <span>Withdraw {record.request_id}? Approvers will no longer see it.</span>
      <Button size="sm" variant="secondary" onClick={() => setConfirming(false)} disabled={withdraw.isPending}>
        Keep it
      </Button>
      <Button
        size="sm"
        variant="danger"
        loading={withdraw.isPending}
        onClick={async () => {
          try {
            await withdraw.mutateAsync(record);
            toast.success(`${record.request_id} withdrawn`);
            setConfirming(false);
            onDone();
          } catch (err) {
            toast.error(err instanceof Error ? err.message : 'Could not withdraw the request');
          }
        }}
      >
        Withdraw
      </Button>
    </div>
  );
}

function Details({ id, fallback, isOwnerOf }: { id: number; fallback: Submission | undefined; isOwnerOf: (r: FormRecord) => boolean }) {
  const qc = useQueryClient();
  const q = useFormDetails(id);
  const [editing, setEditing] = useState(false);
  const toast = useToast();
  // After the employee answers IT (confirm/reject, password seen) every list and this record reload.
  const reload = () => void qc.invalidateQueries({ queryKey: FORMS_KEY });
  if (q.isLoading) {
    return (
      <div className="flex items-center justify-center gap-2 py-16 text-sm text-gray-600">
        <Spinner /> Loading form details...
      </div>
    );
  }
  if (q.isError || !q.data) {
    return (
      <div role="alert" className="py-12 text-center">
        <p className="text-base font-semibold text-red-700">❌ Error</p>
        <p className="mt-1 text-sm text-gray-700">Failed to load form details</p>
        <Button variant="secondary" size="sm" className="mt-4" onClick={() => q.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const r = q.data;
  const owner = isOwnerOf(r);
  if (editing) {
    return (
      <section className="space-y-3" aria-labelledby="edit-heading" data-testid="edit-request">
        <h3 id="edit-heading" className="text-sm font-semibold text-gray-900">
          Edit {r.request_id}
        </h3>
        <p className="text-sm text-gray-600">You can change a request until someone decides on it; its approvers see what you changed.</p>
        <GeneratedForm
          formType={r.form_type}
          record={r}
          onCancel={() => setEditing(false)}
          onDone={() => {
            toast.success(`${r.request_id} updated`);
            setEditing(false);
            void q.refetch();
          }}
        />
      </section>
    );
  }
  // The server decides: the owner's details answer says whether the edit and withdraw calls would accept.
  const canEdit = owner && r.can_edit === true && isFormType(r.form_type);
  const canWithdraw = owner && r.can_withdraw === true;
  return (
    <div className="space-y-4" data-testid="form-details">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
            <FormIcon name={fallback?.icon ?? 'FileText'} />
          </span>
          <div className="min-w-0">
            <p className="font-mono text-sm text-gray-600">{r.request_id}</p>
            <p className="text-sm text-gray-600">
              Submitted {formatDateTime(r.created_at)}
              {fallback && ` · Submission #${fallback.submissionNumber} of ${fallback.totalSubmissions}`}
            </p>
          </div>
        </div>
        <StatusBadge status={displayStatus(r.status)} />
      </div>

      {isLeaveType(r.form_type) && <LeaveBalanceTiles userId={r.employee_user_id} />}
      {typeof r.holiday_note === 'string' && (
        <p
          className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm break-words text-amber-900"
          data-testid="holiday-note"
        >
          {r.holiday_note}
        </p>
      )}

      <div className="grid gap-4 md:grid-cols-[minmax(0,15rem)_minmax(0,1fr)]">
        <div className="space-y-3">
          <ApprovalSteps record={r} />
          <RejectionReasonBox record={r} />
          <NextStageBox record={r} />
          <DelegationNotes record={r} />
        </div>
        <div className="min-w-0 space-y-3">
          <RecordFields record={r} />
          {itLifecycleOf(r.form_type) === 'incident' && owner && <ItIncidentResolution record={r} onChanged={reload} />}
          {itLifecycleOf(r.form_type) === 'password-reset' && <PasswordResetNewPassword record={r} onChanged={reload} />}
          {r.form_type === 'meeting-room' && <MeetingRoomCalendar record={r} />}
          {(canEdit || canWithdraw) && (
            <div className="flex flex-wrap items-start gap-2">
              {canEdit && (
                <Button
                  variant="secondary"
                  size="sm"
                  icon={<Pencil className="h-4 w-4" aria-hidden="true" />}
                  onClick={() => setEditing(true)}
                >
                  Edit request
                </Button>
              )}
              {canWithdraw && <WithdrawControl record={r} onDone={() => q.refetch()} />}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

export function FormDetailsModal({ open, onClose, submission, siblings }: FormDetailsModalProps) {
  const user = useCurrentUser();
  const [selected, setSelected] = useState<number | null>(submission?.id ?? null);
  useEffect(() => {
    if (open) setSelected(submission?.id ?? null);
  }, [open, submission?.id]);

  const current = siblings.find((s) => s.id === selected) ?? submission ?? undefined;
  const isOwnerOf = (r: FormRecord) => String(r.employee_user_id) === String(user.id);

  return (
    <Dialog
      open={open && submission !== null}
      onClose={onClose}
      size="xl"
      title={`${current?.title ?? 'Request'} Details`}
      description={current ? `${current.category} · ${current.request_id}` : undefined}
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <div className="grid gap-5 lg:grid-cols-[13rem_minmax(0,1fr)]">
        <nav aria-label="Your Submissions" className="lg:border-r lg:border-gray-200 lg:pr-4">
          <h3 className="mb-2 text-sm font-semibold text-gray-900">Your Submissions</h3>
          {/* On narrow screens the submissions wrap onto more lines: none is cut off at the edge. */}
          <ul className="flex flex-wrap gap-2 pb-1 lg:block lg:space-y-1">
            {siblings.map((s) => (
              <li key={s.id} className="shrink-0">
                <button
                  type="button"
                  aria-current={s.id === selected ? 'true' : undefined}
                  onClick={() => setSelected(s.id)}
                  className={cn(
                    'flex w-full items-center justify-between gap-2 rounded-md px-2.5 py-1.5 text-left text-sm',
                    s.id === selected
                      ? 'bg-indigo-50 font-medium text-indigo-800 ring-1 ring-indigo-200'
                      : 'text-gray-700 hover:bg-gray-50',
                  )}
                >
                  <span>
                    #{s.submissionNumber}
                    <span className="ml-1.5 text-xs text-gray-600">{formatDate(s.created_at)}</span>
                  </span>
                  <StatusBadge status={displayStatus(s.status)} className="hidden sm:inline-flex" />
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {selected !== null && <Details key={selected} id={selected} fallback={current} isOwnerOf={isOwnerOf} />}
      </div>
    </Dialog>
  );
}
