// Password Reset Request Form (IT-PWD-16): system and reason. A real request for the IT helpdesk
// (POST /api/forms/password-reset), not a simulation; 'Please select a system' / 'Please select a reason for reset'.
import { useState, type FormEvent } from 'react';
import { PASSWORD_SYSTEMS, RESET_REASONS } from '../../domain/forms';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button, Select } from '../ui';
import { useSubmitForm } from './api';
import { FormStatus, type SubmitState } from './FormStatus';
import { identityPayload } from './identity';

export const RESET_SUCCESS = 'Password reset request submitted successfully!';
export const RESET_ERROR = 'Error submitting form. Please try again.';
export const SYSTEM_REQUIRED = 'Please select a system';
export const REASON_REQUIRED = 'Please select a reason for reset';

export function PasswordResetForm({ onSubmitted }: { onSubmitted?: () => void }) {
  const user = useCurrentUser();
  const [system, setSystem] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ system?: string; reason?: string }>({});
  const [state, setState] = useState<SubmitState>({ kind: 'idle' });
  const submit = useSubmitForm(() => '/api/forms/password-reset');
  const submitting = state.kind === 'submitting';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (submitting) return;
    const next = { system: system ? undefined : SYSTEM_REQUIRED, reason: reason ? undefined : REASON_REQUIRED };
    setErrors(next);
    if (next.system || next.reason) return;
    setState({ kind: 'submitting' });
    try {
      const r = await submit.mutateAsync({
        ...identityPayload(user, { department: 'Unknown', manager: 'N/A' }),
        system_for_reset: system,
        reset_reason: reason,
      });
      setSystem('');
      setReason('');
      setState({ kind: 'success', message: RESET_SUCCESS, requestId: r.request_id });
      onSubmitted?.();
    } catch {
      setState({ kind: 'error', message: RESET_ERROR });
    }
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Password Reset Request Form" noValidate>
      <Select
        label="System"
        required
        value={system}
        error={errors.system}
        disabled={submitting}
        onChange={(e) => {
          setSystem(e.target.value);
          setErrors((x) => ({ ...x, system: undefined }));
        }}
      >
        <option value="">Select a system</option>
        {PASSWORD_SYSTEMS.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </Select>
      <Select
        label="Reason for reset"
        required
        value={reason}
        error={errors.reason}
        disabled={submitting}
        onChange={(e) => {
          setReason(e.target.value);
          setErrors((x) => ({ ...x, reason: undefined }));
        }}
      >
        <option value="">Select a reason</option>
        {RESET_REASONS.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </Select>
      <p className="text-xs text-gray-500">
        The IT helpdesk sets a new password; you will see it in this request's details once it is ready.
      </p>
      <FormStatus state={state} />
      <div className="flex justify-end">
        <Button type="submit" loading={submitting}>
          {submitting ? 'Submitting...' : 'Submit Request'}
        </Button>
      </div>
    </form>
  );
}
