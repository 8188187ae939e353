// Employee side of a password reset: the new password IT set, shown only to the employee who asked for it.
// The password is fetched on request (POST /api/password-reset/reveal-password; each reveal is logged and the
// first one completes the reset), kept only in this component's memory, and hidden again on demand. Once the
// employee confirms they saved it, the server erases it ('I Have Saved It'); it is also erased after a time limit.
import { useState } from 'react';
import { Check, Copy, Eye, EyeOff, KeyRound } from 'lucide-react';
import { hasNewPassword, itSupportStatusOf } from '../../../domain/it';
import { useCurrentUser } from '../../auth/AuthProvider';
import { formatDate } from '../../format';
import { Button, useToast } from '../../ui';
import { type RevealedPassword, confirmPasswordSaved, revealNewPassword, serverError } from '../api';

export interface PasswordResetNewPasswordProps {
  /** The password-reset record as the employee's form lists return it (request_id, employee_id, has_new_password, ...). */
  record: Record<string, unknown>;
  /** Called after the first reveal completed the reset (refresh lists: status becomes Completed). */
  onChanged?: (revealed: RevealedPassword) => void;
}

export function PasswordResetNewPassword({ record, onChanged }: PasswordResetNewPasswordProps) {
  const user = useCurrentUser();
  const toast = useToast();
  const [revealed, setRevealed] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [erasedNow, setErasedNow] = useState(false);

  const owner =
    (record.employee_user_id !== undefined && String(record.employee_user_id) === String(user.id)) ||
    (typeof record.employee_id === 'string' && record.employee_id === user.profile?.employee_code);
  // Nobody but the requesting employee is shown anything about the password itself.
  if (!owner) return null;

  const requestId = String(record.request_id ?? record.form_id ?? '');
  const set = hasNewPassword(record);
  const erased = erasedNow || typeof record.new_password_erased_at === 'string';

  async function reveal() {
    setLoading(true);
    try {
      const res = await revealNewPassword(requestId);
      setRevealed(res.new_password);
      if (itSupportStatusOf(record) !== res.it_support_status) onChanged?.(res);
    } catch (err) {
      const message = serverError(err);
      toast.error(
        message === null
          ? 'Failed to load the new password. Please try again.'
          : `Failed to load the new password: ${message || 'Unknown error'}`,
      );
    } finally {
      setLoading(false);
    }
  }

  async function confirmSaved() {
    setSaving(true);
    try {
      await confirmPasswordSaved(requestId);
      setRevealed(null);
      setErasedNow(true);
      toast.success('Thank you. The new password has been erased from AdminEase.');
    } catch (err) {
      const message = serverError(err);
      toast.error(message === null ? 'Failed to confirm. Please try again.' : `Failed to confirm: ${message || 'Unknown error'}`);
    } finally {
      setSaving(false);
    }
  }

  async function copy() {
    if (revealed === null) return;
    try {
      await navigator.clipboard.writeText(revealed);
      toast.success('New password copied to the clipboard.');
    } catch {
      toast.error('Could not copy; select the password and copy it yourself.');
    }
  }

  return (
    <section
      aria-label="New Password"
      className="rounded-xl border border-indigo-200 bg-indigo-50/60 p-4"
      data-testid="password-reset-new-password"
    >
      <h3 className="mb-2 flex items-center gap-2 text-base font-semibold text-indigo-950">
        <KeyRound className="h-4 w-4" aria-hidden="true" /> New Password
      </h3>
      {!set ? (
        <p className="text-sm text-gray-700">
          {itSupportStatusOf(record) === 'Pending Manager'
            ? 'Waiting for your line manager to acknowledge the request; IT Support will then set a new password.'
            : 'IT Support has not set a new password yet.'}
        </p>
      ) : (
        <div className="space-y-2">
          <p className="text-xs text-gray-600">
            Set by {typeof record.it_helpdesk_reset_by === 'string' ? record.it_helpdesk_reset_by : 'IT Support'}
            {typeof record.it_helpdesk_date === 'string' ? ` on ${formatDate(record.it_helpdesk_date)}` : ''}
            {typeof record.system_for_reset === 'string' ? ` for ${record.system_for_reset}` : ''}.
          </p>
          {erased ? (
            <p className="text-sm text-gray-700" data-testid="password-erased">
              {erasedNow || record.new_password_erased_reason === 'owner_confirmed'
                ? 'You confirmed you saved this password, so it is no longer stored.'
                : 'This password is no longer stored: it was not collected in time.'}{' '}
              Submit a new password reset request if you need another one.
            </p>
          ) : revealed === null ? (
            <Button size="sm" onClick={() => void reveal()} loading={loading} icon={<Eye className="h-4 w-4" aria-hidden="true" />}>
              Show New Password
            </Button>
          ) : (
            <div className="flex flex-wrap items-center gap-2">
              <code
                className="rounded border border-green-200 bg-green-50 px-2 py-1 font-mono text-sm text-gray-900 select-all"
                data-testid="revealed-password"
              >
                {revealed}
              </code>
              <Button size="sm" variant="secondary" onClick={() => void copy()} icon={<Copy className="h-4 w-4" aria-hidden="true" />}>
                Copy
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setRevealed(null)} icon={<EyeOff className="h-4 w-4" aria-hidden="true" />}>
                Hide
              </Button>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => void confirmSaved()}
                loading={saving}
                icon={<Check className="h-4 w-4" aria-hidden="true" />}
              >
                I Have Saved It
              </Button>
            </div>
          )}
          {!erased && (
            <p className="text-xs text-gray-500">
              Only you can see this password; each time it is shown is recorded. It is erased once you confirm you saved it, or after a few
              days. Change it after you sign in.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
