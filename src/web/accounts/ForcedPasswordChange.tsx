// Shown instead of the dashboard while an administrator's demand for a new password stands (the server refuses
// everything else until then).
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import type { User } from '../api/types';
import { useAuth } from '../auth/AuthProvider';
import { Button, ErrorBanner } from '../ui';
import { ChangePasswordForm } from './ChangePasswordForm';

export function ForcedPasswordChange({ user }: { user: User }) {
  const { logout, refresh } = useAuth();
  const [error, setError] = useState<string | null>(null);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gray-50 px-4 py-10 sm:px-6">
      <div className="w-full max-w-md">
        <h1 className="text-center text-2xl font-semibold tracking-tight text-gray-900">Choose a new password</h1>
        <p className="mt-2 text-center text-sm text-gray-600">Your administrator asked you to change your password before you continue.</p>
        <div className="mt-6 rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
          {error && <ErrorBanner>{error}</ErrorBanner>}
          <ChangePasswordForm
            user={user}
            onDone={() => {
              refresh().catch(() => setError('Your password was changed, but the page could not be refreshed. Please reload it.'));
            }}
          />
        </div>
        <div className="mt-4 text-center">
          <Button variant="ghost" onClick={() => void logout()} icon={<LogOut className="h-4 w-4" aria-hidden="true" />}>
            Sign out
          </Button>
        </div>
      </div>
    </main>
  );
}
