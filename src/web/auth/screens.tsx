// Full-page states of the app shell: the loading screen while the session initialises and the authentication error screen.
import { Spinner } from '../ui';
import { Button } from '../ui';
import { AlertTriangle } from 'lucide-react';

export function LoadingScreen({
  title = 'Loading AdminEase',
  detail = 'Initializing your workspace',
}: {
  title?: string;
  detail?: string;
}) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gray-50 p-6">
      <div role="status" aria-live="polite" className="flex flex-col items-center text-center">
        <Spinner size="lg" className="text-indigo-600" />
        <h1 className="mt-4 text-lg font-semibold text-gray-900">{title}</h1>
        <p className="mt-1 text-sm text-gray-600">{detail}</p>
      </div>
    </main>
  );
}

export function AuthErrorScreen() {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-gray-50 p-6">
      <div role="alert" className="w-full max-w-md rounded-lg border border-red-200 bg-white p-6 text-center shadow-sm">
        <AlertTriangle className="mx-auto h-8 w-8 text-red-600" aria-hidden="true" />
        <h1 className="mt-3 text-lg font-semibold text-gray-900">Authentication Error</h1>
        <p className="mt-1 text-sm text-gray-600">There was an issue with the authentication system.</p>
        <Button className="mt-5" onClick={() => window.location.reload()}>
          Reload Page
        </Button>
      </div>
    </main>
  );
}
