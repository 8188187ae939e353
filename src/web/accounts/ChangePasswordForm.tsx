// Changing one's own password: the current one, the new one twice, the strength rules shown while typing. Used in
// the dialog opened from the user menu and on the screen shown before the dashboard when an administrator asked
// for a new password. On success every other session of the person has ended (the server does that).
import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { api } from '../api/client';
import type { User } from '../api/types';
import { Button, ErrorBanner, Input } from '../ui';
import { NewPasswordFields, newPasswordProblem, useNewPassword } from './NewPasswordFields';
import { errorText } from './PasswordRules';

export function ChangePasswordForm({ user, onDone, onCancel }: { user: User; onDone: () => void; onCancel?: () => void }) {
  const [current, setCurrent] = useState('');
  const fresh = useNewPassword();
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const owner = { email: user.email, first_name: user.profile?.first_name, last_name: user.profile?.last_name };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (!current || !fresh.password) return setError('Please fill in all fields');
    const problem = newPasswordProblem(fresh, owner, 'new password');
    if (problem) return setError(problem);
    setError(null);
    setSaving(true);
    try {
      await api.post('/api/auth/change-password', { current_password: current, new_password: fresh.password });
      onDone();
    } catch (e) {
      setError(errorText(e, 'Your password could not be changed. Please try again.'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password" className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      {/* Lets password managers tie the new password to the account. */}
      <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
      <Input
        label="Current password"
        type="password"
        autoComplete="current-password"
        value={current}
        onChange={(e) => setCurrent(e.target.value)}
        disabled={saving}
      />
      <NewPasswordFields {...fresh} owner={owner} disabled={saving} confirmLabel="Confirm new password" />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="secondary" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={saving} icon={<KeyRound className="h-4 w-4" aria-hidden="true" />}>
          Change password
        </Button>
      </div>
    </form>
  );
}
