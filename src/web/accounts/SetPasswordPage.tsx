// /set-password?token=...: the page of an invitation link (the person chooses their password) and of the first-run
// set-up link (creates the first administrator). The link is checked first; a dead one says so. Nothing here needs
// a session. Reached by a plain path check in App.tsx.
import { useEffect, useState, type FormEvent } from 'react';
import { CheckCircle2, KeyRound } from 'lucide-react';
import { api } from '../api/client';
import { SET_PASSWORD_PATH } from '../../domain/web-routes';
import { Button, ErrorBanner, Input, Spinner } from '../ui';
import { NewPasswordFields, newPasswordProblem, useNewPassword } from './NewPasswordFields';
import { errorText } from './PasswordRules';

type LinkInfo = { purpose: 'invite'; email: string; first_name: string; last_name: string } | { purpose: 'setup' };
type PageState =
  { status: 'checking' } | { status: 'dead'; message: string } | { status: 'ready'; link: LinkInfo } | { status: 'done'; email: string };

export { SET_PASSWORD_PATH };

function tokenFromUrl(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

export function SetPasswordPage() {
  const [token] = useState(tokenFromUrl);
  const [state, setState] = useState<PageState>({ status: 'checking' });

  useEffect(() => {
    let cancelled = false;
    if (!token) {
      setState({ status: 'dead', message: 'This link is incomplete. Open the whole link from your invitation.' });
      return;
    }
    api
      .post<LinkInfo>('/api/auth/password-link', { token }, { expectUnauthorized: true })
      .then((link) => !cancelled && setState({ status: 'ready', link }))
      .catch(
        (e: unknown) =>
          !cancelled && setState({ status: 'dead', message: errorText(e, 'This link could not be checked. Please try again.') }),
      );
    return () => {
      cancelled = true;
    };
  }, [token]);

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gray-50 px-4 py-10 sm:px-6">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <div
            className="mx-auto flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-600 text-xl font-bold text-white shadow-sm"
            aria-hidden="true"
          >
            A
          </div>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-gray-900">
            {state.status === 'ready' && state.link.purpose === 'setup' ? 'Set up AdminEase' : 'Set your password'}
          </h1>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-6 shadow-sm">
          {state.status === 'checking' && (
            <p className="flex items-center justify-center gap-2 text-sm text-gray-600" role="status">
              <Spinner size="sm" /> Checking your link…
            </p>
          )}
          {state.status === 'dead' && (
            <div className="space-y-4">
              <ErrorBanner>{state.message}</ErrorBanner>
              <a href="/" className="block text-center text-sm font-medium text-indigo-700 hover:underline">
                Go to sign in
              </a>
            </div>
          )}
          {state.status === 'ready' && (
            <SetPasswordForm token={token} link={state.link} onDone={(email) => setState({ status: 'done', email })} />
          )}
          {state.status === 'done' && (
            <div className="space-y-4 text-center" role="status">
              <CheckCircle2 className="mx-auto h-10 w-10 text-green-600" aria-hidden="true" />
              <p className="text-sm text-gray-700">
                Your password is set. Sign in as <span className="font-medium break-all">{state.email}</span>.
              </p>
              <a
                href="/"
                className="inline-flex items-center justify-center rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
              >
                Go to sign in
              </a>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}

function SetPasswordForm({ token, link, onDone }: { token: string; link: LinkInfo; onDone: (email: string) => void }) {
  const setup = link.purpose === 'setup';
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [email, setEmail] = useState('');
  const [employeeCode, setEmployeeCode] = useState('');
  const fresh = useNewPassword();
  const { password } = fresh;
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const owner = setup ? { email, first_name: firstName, last_name: lastName } : link;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (setup && (!firstName.trim() || !lastName.trim() || !email.trim())) return setError('Please fill in all fields');
    const problem = newPasswordProblem(fresh, owner, 'password');
    if (problem) return setError(problem);
    setError(null);
    setSaving(true);
    try {
      const body = setup
        ? {
            token,
            password,
            first_name: firstName,
            last_name: lastName,
            email: email.trim(),
            ...(employeeCode.trim() ? { employee_code: employeeCode } : {}),
          }
        : { token, password };
      const answer = await api.post<{ email: string }>('/api/auth/set-password', body, { expectUnauthorized: true });
      onDone(answer.email);
    } catch (e) {
      setError(errorText(e, 'The password could not be set. Please try again.'));
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={setup ? 'Create the first administrator' : 'Set your password'} className="space-y-4">
      {error && <ErrorBanner>{error}</ErrorBanner>}
      {setup ? (
        <>
          <p className="text-sm text-gray-600">Create the first administrator. This link works once.</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label="First name"
              autoComplete="given-name"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              disabled={saving}
            />
            <Input
              label="Last name"
              autoComplete="family-name"
              value={lastName}
              onChange={(e) => setLastName(e.target.value)}
              disabled={saving}
            />
          </div>
          <Input
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            disabled={saving}
          />
          <Input
            label="Employee code"
            hint="Optional; ADM-001 when left empty"
            value={employeeCode}
            onChange={(e) => setEmployeeCode(e.target.value)}
            disabled={saving}
          />
        </>
      ) : (
        <p className="text-sm text-gray-600">
          Welcome, {link.first_name}. Choose the password for <span className="font-medium break-all">{link.email}</span>.
          <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
        </p>
      )}
      <NewPasswordFields {...fresh} owner={owner} disabled={saving} confirmLabel="Confirm password" />
      <Button type="submit" loading={saving} className="w-full" icon={<KeyRound className="h-4 w-4" aria-hidden="true" />}>
        {setup ? 'Create administrator' : 'Set password'}
      </Button>
    </form>
  );
}
