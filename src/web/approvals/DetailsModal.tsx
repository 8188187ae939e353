// The approver's details modal: header, approval chain boxes in the chain colours, rejection reason, Next
// Stage, the type-specific details (with the Leave Balance panel for leave), the audit history, and
// Approve/Reject in the footer while the caller can decide (the modal closes first).
import { DelegationNotes } from '../delegation/DelegationNotes';
import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowRight, History } from 'lucide-react';
import type { ReactNode } from 'react';
import { type ApproverRole, formatWait, isViewOnlyForManager, managerItSteps } from '../../domain/approvals';
import { isLeaveType } from '../../domain/forms';
import { type ApprovalStep, type StepColour, approvalSteps, nextStageFor, rejectionReasonOf } from '../../domain/status';
import { ApiError } from '../api/client';
import { formatDate, formatDateTime } from '../format';
import { Button, Dialog, Spinner, StatusBadge, cn } from '../ui';
import { type QueueRecord, type QueueRole, approvalsApi } from './api';
import { FormTypeIcon, formLabel } from './labels';
import { DetailFields } from '../forms/DetailFields';
import type { FormRecord } from '../forms/types';

export interface DetailsModalProps {
  role: QueueRole;
  /** The row whose details are shown; null when closed. */
  target: QueueRecord | null;
  onClose: () => void;
  onApprove?: (rec: QueueRecord) => void;
  onReject?: (rec: QueueRecord) => void;
  /** Shown above the details (e.g. that opening a view-only IT item acknowledged it). */
  notice?: ReactNode;
}

const boxColours: Record<StepColour, string> = {
  green: 'border-green-300 bg-green-50 text-green-800',
  red: 'border-red-300 bg-red-50 text-red-800',
  yellow: 'border-amber-300 bg-amber-50 text-amber-800',
  grey: 'border-gray-200 bg-gray-50 text-gray-500',
};

export function DetailsModal({ role, target, onClose, onApprove, onReject, notice }: DetailsModalProps) {
  const finance = role === 'finance';
  const query = useQuery({
    queryKey: ['approvals', 'details', role, target?.request_id],
    queryFn: () => approvalsApi.details(role, target!),
    enabled: Boolean(target),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  if (!target) return null;
  const rec = query.data;
  const actionable = Boolean(rec?.actionable);

  const title = finance ? `Request Details - ID: ${target.request_id}` : `${formLabel(target.form_type)} · ${target.request_id}`;
  const act = (fn?: (r: QueueRecord) => void) => () => {
    if (!rec || !fn) return;
    onClose(); // approving or rejecting from the modal closes it first
    fn(rec);
  };

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="flex items-center gap-2 py-8 text-sm text-gray-600" role="status">
        <Spinner /> Loading form details...
      </div>
    );
  } else if (query.isError || !rec) {
    const message = query.error instanceof ApiError ? 'Failed to load form details' : 'Error loading form details';
    body = (
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
        <p className="font-semibold">Error</p>
        <p>{finance ? 'Failed to load form details' : message}</p>
      </div>
    );
  } else {
    body = <DetailsBody role={role} rec={rec} />;
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="xl"
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          {actionable && onReject && (
            <Button variant="danger" onClick={act(onReject)}>
              Reject
            </Button>
          )}
          {actionable && onApprove && <Button onClick={act(onApprove)}>Approve</Button>}
        </>
      }
    >
      {notice && <div className="mb-4">{notice}</div>}
      {body}
    </Dialog>
  );
}

function DetailsBody({ role, rec }: { role: QueueRole; rec: QueueRecord }) {
  const viewOnly = role === 'manager' && isViewOnlyForManager(rec.form_type);
  const reason = rejectionReasonOf(rec);
  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-gray-200 bg-gray-50 p-4">
        <div className="flex items-start gap-3">
          <span className="mt-0.5 rounded-md bg-indigo-50 p-2 text-indigo-700">
            <FormTypeIcon formType={rec.form_type} className="h-5 w-5" />
          </span>
          <div>
            <p className="text-sm font-semibold text-gray-900">
              {formLabel(rec.form_type)} <span className="font-mono text-gray-600">#{rec.request_id}</span>
            </p>
            <p className="text-sm text-gray-700">
              {rec.employee_name} · {rec.department}
            </p>
            <p className="text-xs text-gray-500">Submitted {formatDate(rec.created_at, 'Unknown date')}</p>
          </div>
        </div>
        <StatusBadge status={rec.status} />
      </header>

      <section aria-labelledby="chain-heading">
        <h3 id="chain-heading" className="mb-2 text-sm font-semibold text-gray-900">
          Approval Status
        </h3>
        <Chain steps={viewOnly ? managerItSteps(rec) : approvalSteps(rec, { audience: 'approver' })} />
      </section>

      {reason && (
        <section className="rounded-md border border-red-200 bg-red-50 p-3" aria-label="Rejection Reason">
          <p className="text-xs font-semibold tracking-wide text-red-800 uppercase">Rejection Reason</p>
          <p className="mt-1 text-sm text-red-900" data-testid="rejection-reason">
            {reason}
          </p>
        </section>
      )}

      <p className="rounded-md border border-indigo-100 bg-indigo-50/60 px-3 py-2 text-sm text-indigo-900">
        <span className="font-semibold">Next Stage:</span> <span data-testid="next-stage">{nextStageFor(rec)}</span>
      </p>
      <DelegationNotes record={rec} />

      {isLeaveType(rec.form_type) && (role === 'manager' || role === 'hr') && (
        <LeaveBalancePanel role={role} employeeId={rec.employee_id} />
      )}

      <section aria-labelledby="details-heading">
        <h3 id="details-heading" className="mb-2 text-sm font-semibold text-gray-900">
          Details
        </h3>
        <TypeDetails rec={rec} />
      </section>

      <HistorySection requestId={rec.request_id} />
    </div>
  );
}

function Chain({ steps }: { steps: ApprovalStep[] }) {
  if (steps.length === 0) return <p className="text-sm text-gray-500">No approval steps.</p>;
  return (
    <ol className="flex flex-col items-stretch gap-2 sm:flex-row" data-testid="approval-chain">
      {steps.map((s, i) => (
        <li key={s.stage ?? s.label} className="flex flex-col items-center gap-2 sm:flex-row sm:items-stretch">
          <div
            className={cn('min-h-16 min-w-44 self-stretch rounded-lg border px-3 py-2', boxColours[s.colour])}
            data-colour={s.colour}
            data-stage={s.stage}
          >
            <p className="text-xs font-medium opacity-80">{s.label}</p>
            <p className="text-sm font-semibold">{s.value}</p>
            {s.signer && (
              <p className="text-xs opacity-80">
                by {s.signer}
                {s.date ? ` · ${formatDate(s.date)}` : ''}
              </p>
            )}
          </div>
          {i < steps.length - 1 && (
            <>
              <ArrowRight className="hidden h-4 w-4 self-center text-gray-400 sm:block" aria-hidden="true" />
              <ArrowDown className="h-4 w-4 text-gray-400 sm:hidden" aria-hidden="true" />
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

export function LeaveBalancePanel({ role, employeeId }: { role: ApproverRole; employeeId: string }) {
  const q = useQuery({
    queryKey: ['approvals', 'leave-balance', role, employeeId],
    queryFn: () => approvalsApi.leaveBalance(role, employeeId),
    staleTime: 0,
    retry: false,
  });
  if (q.isError) console.warn('Leave balance could not be loaded', q.error);
  const b = q.data;
  const fmt = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? 'N/A' : n.toFixed(1));
  const total = b ? Number(b.annual_leave_total ?? 12) : undefined;
  const used = b ? Number(b.annual_leave_used) : undefined;
  const tiles: Array<[string, string]> = [
    ['Annual Left', q.isPending ? '…' : b ? fmt((total ?? 12) - (used ?? 0)) : 'N/A'],
    ['Annual Used', q.isPending ? '…' : b ? fmt(used) : 'N/A'],
    ['Unpaid', q.isPending ? '…' : b ? fmt(Number(b.unpaid_leave_used)) : 'N/A'],
  ];
  return (
    <section aria-label="Leave Balance" className="rounded-lg border border-gray-200 p-3">
      <h3 className="mb-2 text-sm font-semibold text-gray-900">Leave Balance</h3>
      <dl className="grid grid-cols-3 gap-2" data-testid="leave-balance">
        {tiles.map(([label, value]) => (
          <div key={label} className="rounded-md bg-gray-50 px-3 py-2 text-center">
            <dt className="text-xs text-gray-600">{label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-gray-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The type's details: the one details renderer of both sides (src/web/forms/DetailFields.tsx), approver rows included. */
function TypeDetails({ rec }: { rec: QueueRecord }) {
  return <DetailFields record={rec as unknown as FormRecord} audience="approver" />;
}

function HistorySection({ requestId }: { requestId: string }) {
  const q = useQuery({
    queryKey: ['approvals', 'history', requestId],
    queryFn: () => approvalsApi.history(requestId),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  return (
    <section aria-labelledby="history-heading" className="border-t border-gray-200 pt-4">
      <h3 id="history-heading" className="mb-2 flex items-center gap-1.5 text-sm font-semibold text-gray-900">
        <History className="h-4 w-4 text-gray-500" aria-hidden="true" /> Audit history
      </h3>
      {q.isPending && <p className="text-sm text-gray-500">Loading history…</p>}
      {q.isError && <p className="text-sm text-red-700">The history could not be loaded.</p>}
      {q.data && (
        <ol className="space-y-2" data-testid="audit-history">
          {q.data.events.map((e, i) => (
            <li key={i} className="flex gap-3 text-sm">
              <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-indigo-400" aria-hidden="true" />
              <div className="min-w-0">
                <p className="text-gray-900">{e.summary}</p>
                <p className="text-xs text-gray-500">
                  {formatDateTime(e.created_at)}
                  {e.waited_ms !== null && ` · waited ${formatWait(e.waited_ms)}`}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
