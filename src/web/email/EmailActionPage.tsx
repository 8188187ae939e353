// /email-action?token=...: the page an approver's Approve / Reject link from an e-mail opens. Opening it changes
// nothing (mail scanners follow links): it checks the link and shows the request and the decision to confirm; a
// rejection asks for the reason (the same 300-character rule as the dashboards). A used, expired, altered or
// outdated link, or a browser signed in as someone else, gets a page that says why. Reached by a plain path check
// in App.tsx, signed in or not.
import { useEffect, useState, type FormEvent } from 'react';
import { CheckCircle2, XCircle } from 'lucide-react';
import { REJECTION_REASON_MAX } from '../../domain/approvals';
import type { EmailLinkView } from '../../domain/email';
import { EMAIL_ACTION_PATH, requestPath } from '../../domain/web-routes';
import { api } from '../api/client';
import { formatDateTime } from '../format';
import { Button, ErrorBanner, Spinner, Textarea } from '../ui';

export { EMAIL_ACTION_PATH };

type LinkView = EmailLinkView;

type PageState =
  | { status: 'checking' }
  | { status: 'refused'; message: string }
  | { status: 'ready'; link: LinkView }
  | { status: 'done'; message: string; decision: 'Approved' | 'Rejected'; requestId: string };

const tokenFromUrl = () => new URLSearchParams(window.location.search).get('token') ?? '';
const messageOf = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

export function EmailActionPage() {
  const [token] = useState(tokenFromUrl);
  const [state, setState] = useState<PageState>({ status: 'checking' });

  useEffect(() => {
    let cancelled = false;
    if (!token) {
      setState({ status: 'refused', message: 'This link is incomplete. Open the whole link from your e-mail.' });
      return;
    }
    api
      .post<LinkView>('/api/email-actions/check', { token }, { expectUnauthorized: true })
      .then((link) => !cancelled && setState({ status: 'ready', link }))
      .catch(
        (e: unknown) =>
          !cancelled && setState({ status: 'refused', message: messageOf(e, 'This link could not be checked. Please try again.') }),
      );
    return () => {
      cancelled = true;
    };
  }, [token]);

  const title =
    state.status === 'ready'
      ? `${state.link.decision === 'Approved' ? 'Approve' : 'Reject'} ${state.link.request.type_label} ${state.link.request.request_id}?`
      : state.status === 'done'
        ? 'Decision recorded'
        : 'Decide from e-mail';

  return (
    <main className="flex min-h-dvh flex-col items-center justify-start bg-gray-50 px-4 py-8 sm:justify-center sm:px-6 sm:py-10">
      <div className="w-full max-w-lg">
        <div className="mb-6 text-center">
          <div
            className="mx-auto flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-600 text-xl font-bold text-white shadow-sm"
            aria-hidden="true"
          >
            A
          </div>
          <h1 className="mt-4 text-xl font-semibold tracking-tight break-words text-gray-900 sm:text-2xl">{title}</h1>
        </div>
        <div className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm sm:p-6">
          {state.status === 'checking' && (
            <p className="flex items-center justify-center gap-2 text-sm text-gray-600" role="status">
              <Spinner size="sm" /> Checking your link…
            </p>
          )}
          {state.status === 'refused' && (
            <div className="space-y-4" data-testid="email-action-refused">
              <ErrorBanner title="This link cannot be used">{state.message}</ErrorBanner>
              <a href="/" className="block text-center text-sm font-medium text-indigo-700 hover:underline">
                Open AdminEase
              </a>
            </div>
          )}
          {state.status === 'ready' && (
            <ConfirmForm
              token={token}
              link={state.link}
              onDone={(message, decision) => setState({ status: 'done', message, decision, requestId: state.link.request.request_id })}
              onRefused={(message) => setState({ status: 'refused', message })}
            />
          )}
          {state.status === 'done' && (
            <div className="space-y-4 text-center" role="status">
              {state.decision === 'Approved' ? (
                <CheckCircle2 className="mx-auto h-10 w-10 text-green-600" aria-hidden="true" />
              ) : (
                <XCircle className="mx-auto h-10 w-10 text-red-600" aria-hidden="true" />
              )}
              <p className="text-sm text-gray-700">{state.message}</p>
              <a href={requestPath(state.requestId)} className="inline-block text-sm font-medium text-indigo-700 hover:underline">
                Open the request in AdminEase
              </a>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}

function Fact({ label, value }: { label: string; value: string | null }) {
  if (!value) return null;
  return (
    <div className="grid grid-cols-1 gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-3">
      <dt className="text-xs font-medium text-gray-500 sm:text-sm">{label}</dt>
      <dd className="text-sm break-words text-gray-900">{value}</dd>
    </div>
  );
}

function ConfirmForm({
  token,
  link,
  onDone,
  onRefused,
}: {
  token: string;
  link: LinkView;
  onDone: (message: string, decision: 'Approved' | 'Rejected') => void;
  onRefused: (message: string) => void;
}) {
  const reject = link.decision === 'Rejected';
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const r = link.request;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (reject && reason.trim() === '') return setError('Please give a reason for the rejection');
    if (reason.trim().length > REJECTION_REASON_MAX)
      return setError(`The rejection reason can have at most ${REJECTION_REASON_MAX} characters`);
    setError(null);
    setSaving(true);
    try {
      const done = await api.post<{ message: string; decision: 'Approved' | 'Rejected' }>(
        '/api/email-actions/decide',
        reject ? { token, reason } : { token },
        { expectUnauthorized: true },
      );
      onDone(done.message, done.decision);
    } catch (e) {
      const status = (e as { status?: number }).status ?? 0;
      const message = messageOf(e, 'The decision could not be recorded. Please try again.');
      // A reason the server refused can be corrected here; any other refusal ends the link's page.
      if (status === 400 && /reason/i.test(message)) setError(message);
      else if (status >= 400 && status < 500) onRefused(message);
      else setError(message);
      setSaving(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={reject ? 'Confirm the rejection' : 'Confirm the approval'} className="space-y-4">
      <p className="text-sm text-gray-700">
        {link.approver_name}, you are about to <strong>{reject ? 'reject' : 'approve'}</strong> {r.employee_name}'s {r.type_label}{' '}
        {r.request_id} ({link.stage_label}).
      </p>
      <dl className="space-y-2 rounded-md border border-gray-200 bg-gray-50 p-3">
        <Fact label="Request" value={`${r.type_label} ${r.request_id}`} />
        <Fact label="Requested by" value={r.employee_name} />
        <Fact label="Amount" value={r.amount} />
        <Fact label={r.dates?.label ?? 'Dates'} value={r.dates?.text ?? null} />
        <Fact label="Purpose" value={r.purpose} />
        <Fact label="Status" value={r.status} />
      </dl>
      {error && <ErrorBanner>{error}</ErrorBanner>}
      {reject && (
        <Textarea
          label="Reason for the rejection"
          required
          value={reason}
          maxLength={REJECTION_REASON_MAX}
          onChange={(e) => setReason(e.target.value)}
          hint={`${reason.length}/${REJECTION_REASON_MAX} characters. The employee sees this reason.`}
        />
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <a
          href={requestPath(r.request_id)}
          className="inline-flex items-center justify-center rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-700 hover:bg-gray-50"
        >
          Open the request instead
        </a>
        <Button
          type="submit"
          variant={reject ? 'danger' : 'primary'}
          loading={saving}
          disabled={saving || (reject && reason.trim() === '')}
        >
          {reject ? 'Reject request' : 'Approve request'}
        </Button>
      </div>
      <p className="text-xs text-gray-500">This link works once, until {formatDateTime(link.expires_at)}.</p>
    </form>
  );
}
