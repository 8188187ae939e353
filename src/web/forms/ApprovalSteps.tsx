// The 'Approval Status' column of the details modal: one box per step (green approved/completed, red rejected,
// yellow pending, grey 'No Further Action' for a stage never reached) with arrows between them, plus the
// 'Rejection Reason' and 'Next Stage' boxes.
import { ArrowDown, CheckCircle2, Clock, CircleMinus, XCircle } from 'lucide-react';
import { type ApprovalStep, type StepColour, approvalSteps, employeeNextStage, rejectionReasonOf } from '../../domain/status';
import { formatDate } from '../format';
import { cn } from '../ui';
import type { FormRecord } from './types';

const BOX: Record<StepColour, string> = {
  green: 'border-green-200 bg-green-50 text-green-900',
  red: 'border-red-200 bg-red-50 text-red-900',
  yellow: 'border-amber-200 bg-amber-50 text-amber-900',
  grey: 'border-gray-200 bg-gray-50 text-gray-600',
};
const ICON: Record<StepColour, typeof Clock> = { green: CheckCircle2, red: XCircle, yellow: Clock, grey: CircleMinus };

function StepBox({ step }: { step: ApprovalStep }) {
  const Icon = ICON[step.colour];
  return (
    <div className={cn('rounded-md border px-3 py-2', BOX[step.colour])} data-colour={step.colour} data-testid="approval-step">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium">{step.label}</span>
        <span className="inline-flex items-center gap-1 text-sm font-semibold">
          <Icon className="h-4 w-4" aria-hidden="true" />
          {step.value}
        </span>
      </div>
      {(step.signer || step.date) && (
        <p className="mt-0.5 text-xs opacity-80">
          {step.signer ? `by ${step.signer}` : ''}
          {step.signer && step.date ? ' · ' : ''}
          {step.date ? formatDate(step.date) : ''}
        </p>
      )}
    </div>
  );
}

export function ApprovalSteps({ record }: { record: FormRecord }) {
  const steps = approvalSteps(record);
  return (
    <section aria-labelledby="approval-status-heading">
      <h3 id="approval-status-heading" className="mb-2 text-sm font-semibold text-gray-900">
        Approval Status
      </h3>
      <ol className="space-y-0" aria-label="Approval steps">
        {steps.map((s, i) => (
          <li key={s.label}>
            {i > 0 && (
              <div className="flex justify-center py-1 text-gray-400" aria-hidden="true">
                <ArrowDown className="h-4 w-4" />
              </div>
            )}
            <StepBox step={s} />
          </li>
        ))}
      </ol>
    </section>
  );
}

export function RejectionReasonBox({ record }: { record: FormRecord }) {
  const reason = rejectionReasonOf(record);
  if (!reason) return null;
  return (
    <section className="rounded-md border border-red-200 bg-red-50 p-3" aria-labelledby="rejection-reason-heading">
      <h3 id="rejection-reason-heading" className="text-sm font-semibold text-red-900">
        Rejection Reason
      </h3>
      <p className="mt-1 text-sm whitespace-pre-line text-red-800">{reason}</p>
    </section>
  );
}

export function NextStageBox({ record }: { record: FormRecord }) {
  return (
    <section className="rounded-md border border-indigo-200 bg-indigo-50 p-3" aria-labelledby="next-stage-heading">
      <h3 id="next-stage-heading" className="text-sm font-semibold text-indigo-900">
        Next Stage
      </h3>
      <p className="mt-1 text-sm text-indigo-800" data-testid="next-stage">
        {employeeNextStage(record)}
      </p>
    </section>
  );
}
