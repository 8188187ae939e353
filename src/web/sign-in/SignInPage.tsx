// The sign-in screen: email and password form, error banner, and, only while the server runs in demo mode, the
// Demo Credentials panel (a side panel on wide screens, a slide-over drawer opened by a button on phones).
import { useRef, useState, type FormEvent } from 'react';
import { KeyRound, LogIn } from 'lucide-react';
import { FILL_ALL_FIELDS, useAuth } from '../auth/AuthProvider';
import { useDemoMode, useSsoProvider } from '../auth/demo-mode';
import { Button, Dialog, ErrorBanner, Input } from '../ui';
import { DEMO_GROUPS, DEMO_PASSWORD, demoAccountsIn, type DemoAccount } from './demo-accounts';

export function SignInPage() {
  const { login } = useAuth();
  const demo = useDemoMode();
  const ssoProvider = useSsoProvider();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(ssoErrorFromUrl);
  const [loading, setLoading] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const submitRef = useRef<HTMLButtonElement>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (loading) return;
    if (email.trim() === '' || password === '') {
      setError(FILL_ALL_FIELDS);
      return;
    }
    setError(null);
    setLoading(true);
    try {
      await login(email.trim(), password);
      // On success the app replaces this screen with the dashboard.
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setLoading(false);
    }
  }

  function fill(account: DemoAccount) {
    setEmail(account.email);
    setPassword(DEMO_PASSWORD);
    setError(null);
    setDrawerOpen(false);
    submitRef.current?.focus();
  }

  return (
    <div className="flex min-h-dvh flex-col bg-gray-50 lg:flex-row">
      <main className="flex flex-1 flex-col items-center justify-center px-4 py-10 sm:px-6">
        <div className="w-full max-w-sm">
          <div className="mb-8 text-center">
            <div
              className="mx-auto flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-600 text-xl font-bold text-white shadow-sm"
              aria-hidden="true"
            >
              A
            </div>
            <h1 className="mt-4 text-2xl font-semibold tracking-tight text-gray-900">AdminEase</h1>
            <p className="mt-1 text-sm text-gray-600">Sign in to submit forms and manage approvals.</p>
          </div>

          <form
            onSubmit={onSubmit}
            noValidate
            aria-label="Sign in"
            className="space-y-4 rounded-lg border border-gray-200 bg-white p-6 shadow-sm"
          >
            {error && <ErrorBanner>{error}</ErrorBanner>}
            <Input
              label="Email"
              type="email"
              name="email"
              autoComplete="username"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              disabled={loading}
            />
            <Input
              label="Password"
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={loading}
            />
            <Button
              ref={submitRef}
              type="submit"
              loading={loading}
              className="w-full"
              icon={<LogIn className="h-4 w-4" aria-hidden="true" />}
            >
              Sign In
            </Button>
            {ssoProvider && (
              <>
                <p className="text-center text-xs text-gray-500" aria-hidden="true">
                  or
                </p>
                {/* A full navigation: the provider's sign-in page, then back to AdminEase signed in. */}
                <a
                  href="/api/auth/sso/start"
                  className="flex w-full items-center justify-center gap-2 rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50"
                >
                  Sign in with {ssoProvider}
                </a>
              </>
            )}
          </form>

          {demo && (
            <div className="mt-6 text-center lg:hidden">
              <Button
                variant="secondary"
                onClick={() => setDrawerOpen(true)}
                icon={<KeyRound className="h-4 w-4" aria-hidden="true" />}
                aria-haspopup="dialog"
              >
                Demo Credentials
              </Button>
            </div>
          )}
        </div>
      </main>

      {demo && (
        <aside
          aria-labelledby="demo-credentials-heading"
          className="hidden w-[26rem] shrink-0 border-l border-gray-200 bg-white lg:flex lg:max-h-dvh lg:flex-col"
        >
          <div className="border-b border-gray-200 px-6 py-5">
            <h2 id="demo-credentials-heading" className="flex items-center gap-2 text-base font-semibold text-gray-900">
              <KeyRound className="h-4 w-4 text-indigo-600" aria-hidden="true" />
              Demo Credentials
            </h2>
            <PasswordNote />
          </div>
          <div className="flex-1 overflow-y-auto px-6 py-4">
            <DemoAccountList onFill={fill} />
          </div>
        </aside>
      )}

      <Dialog
        open={demo && drawerOpen}
        onClose={() => setDrawerOpen(false)}
        title="Demo Credentials"
        description={<PasswordText />}
        variant="drawer"
      >
        <DemoAccountList onFill={fill} />
      </Dialog>
    </div>
  );
}

/** Why a single sign-on came back refused (`/?sso_error=<reason>`), as the banner's text; null otherwise. */
export const SSO_ERRORS: Record<string, string> = {
  unverified: 'Your sign-in provider has not verified your e-mail address, so AdminEase cannot sign you in with it.',
  unknown: 'No AdminEase account uses the e-mail address of your provider account. Ask your administrator for an invitation.',
  failed: 'Single sign-on did not complete. Please try again.',
};

function ssoErrorFromUrl(): string | null {
  const reason = new URLSearchParams(window.location.search).get('sso_error');
  if (!reason) return null;
  window.history.replaceState(null, '', window.location.pathname); // a reload does not show it again
  return SSO_ERRORS[reason] ?? SSO_ERRORS.failed;
}

function PasswordText() {
  return (
    <>
      Every demo account uses the password <span className="font-mono text-gray-800">{DEMO_PASSWORD}</span>.
    </>
  );
}

function PasswordNote() {
  return (
    <p className="mt-1 text-sm text-gray-600">
      <PasswordText />
    </p>
  );
}

function DemoAccountList({ onFill }: { onFill: (account: DemoAccount) => void }) {
  return (
    <div className="space-y-5">
      {DEMO_GROUPS.map((group) => (
        <section key={group} aria-label={group}>
          <h3 className="mb-2 text-xs font-semibold tracking-wide text-gray-500 uppercase">{group}</h3>
          <ul className="divide-y divide-gray-100 rounded-md border border-gray-200">
            {demoAccountsIn(group).map((account) => (
              <li key={account.email} className="flex items-center gap-3 px-3 py-2.5">
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium text-gray-900">{account.name}</p>
                  <p className="truncate text-xs text-gray-600">{account.role}</p>
                  <p className="truncate font-mono text-xs text-gray-500">{account.email}</p>
                </div>
                <Button variant="secondary" size="sm" onClick={() => onFill(account)} aria-label={`Fill ${account.name}`}>
                  Fill
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
