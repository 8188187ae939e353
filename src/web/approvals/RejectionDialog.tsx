// The rejection dialog: names the form type, employee and request id, offers five
// quick-select reasons for the form type, counts 'n/300', takes at most 300 characters, needs a trimmed
// non-empty reason (HR may leave it empty) and submits with Ctrl/Cmd+Enter.
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { REJECTION_REASON_MAX, quickRejectionReasons } from '../../domain/approvals';
import { formTitle } from '../../domain/forms';
import { Button, Dialog, cn } from '../ui';

export interface RejectionTarget {
  /** e.g. 'petty-cash'; for several requests, the type they share or 'multiple'. */
  formType: string;
  employeeName: string;
  requestId: string;
  /** Requests rejected together (bulk); 1 when omitted. */
  count?: number;
}

export interface RejectionDialogProps {
  target: RejectionTarget | null;
  onCancel: () => void;
  /** Receives the trimmed reason. */
  onConfirm: (reason: string) => void | Promise<void>;
  /** HR may reject without a reason (it then sends an empty string). */
  reasonRequired?: boolean;
  busy?: boolean;
}

export function RejectionDialog({ target, onCancel, onConfirm, reasonRequired = true, busy = false }: RejectionDialogProps) {
  const [reason, setReason] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const textId = useId();
  const counterId = useId();

  useEffect(() => {
    if (target) setReason('');
  }, [target]);

  if (!target) return null;
  const trimmed = reason.trim();
  const canSubmit = !busy && (!reasonRequired || trimmed.length > 0) && reason.length <= REJECTION_REASON_MAX;
  const quick = quickRejectionReasons(target.formType);
  const many = (target.count ?? 1) > 1;

  function submit() {
    if (canSubmit) void onConfirm(trimmed);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    }
  }

  return (
    <Dialog
      open
      onClose={onCancel}
      closeOnBackdrop={!busy}
      initialFocus={textRef}
      title={many ? `Reject ${target.count} requests` : 'Reject Request'}
      description={
        many ? (
          <>The same reason is sent with each of the {target.count} selected requests.</>
        ) : (
          <>
            <span className="font-medium text-gray-800">{formTitle(target.formType)}</span> from{' '}
            <span className="font-medium text-gray-800">{target.employeeName}</span> ·{' '}
            <span className="font-mono text-gray-800">{target.requestId}</span>
          </>
        )
      }
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" onClick={submit} disabled={!canSubmit} loading={busy}>
            {many ? `Reject ${target.count}` : 'Reject'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <fieldset>
          <legend className="text-sm font-medium text-gray-700">Quick reasons</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {quick.map((q) => (
              <button
                key={q}
                type="button"
                aria-pressed={reason === q}
                onClick={() => {
                  setReason(q.slice(0, REJECTION_REASON_MAX));
                  textRef.current?.focus();
                }}
                className={cn(
                  'rounded-full px-3 py-1 text-left text-xs font-medium ring-1 ring-inset transition-colors',
                  reason === q ? 'bg-red-50 text-red-800 ring-red-300' : 'bg-white text-gray-700 ring-gray-300 hover:bg-gray-50',
                )}
              >
                {q}
              </button>
            ))}
          </div>
        </fieldset>
        <div className="space-y-1">
          <label htmlFor={textId} className="block text-sm font-medium text-gray-700">
            Reason for rejection
            {reasonRequired && (
              <span className="ml-0.5 text-red-600" aria-hidden="true">
                *
              </span>
            )}
          </label>
          <textarea
            ref={textRef}
            id={textId}
            rows={4}
            maxLength={REJECTION_REASON_MAX}
            value={reason}
            required={reasonRequired}
            aria-describedby={counterId}
            onChange={(e) => setReason(e.target.value.slice(0, REJECTION_REASON_MAX))}
            onKeyDown={onKeyDown}
            placeholder="Explain why, so the employee knows what to change"
            className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm placeholder:text-gray-400 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 focus:outline-none"
          />
          <div className="flex justify-between text-xs text-gray-500">
            <span>Ctrl/Cmd + Enter to submit</span>
            <span id={counterId} aria-live="polite" data-testid="reason-counter">
              {reason.length}/{REJECTION_REASON_MAX}
            </span>
          </div>
        </div>
      </div>
    </Dialog>
  );
}
