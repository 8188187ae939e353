// The status line under a submit form: the success message (with the new request id) or the error message.
import { CheckCircle2, XCircle } from 'lucide-react';

export type SubmitState =
  { kind: 'idle' } | { kind: 'submitting' } | { kind: 'success'; message: string; requestId?: string } | { kind: 'error'; message: string };

export function FormStatus({ state }: { state: SubmitState }) {
  if (state.kind === 'success') {
    return (
      <div role="status" className="flex items-start gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800">
        <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span>
          {state.message}
          {state.requestId && <span className="block text-xs text-green-700">Request {state.requestId} is now Pending.</span>}
        </span>
      </div>
    );
  }
  if (state.kind === 'error') {
    return (
      <div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        <XCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="whitespace-pre-line">{state.message}</span>
      </div>
    );
  }
  return null;
}
