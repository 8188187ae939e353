// Sign-in settings: whether single sign-on is configured (OIDC_* settings of the server) and whether a first
// single sign-on may create an account for a verified e-mail nobody has yet (off unless the administrator turns it on).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBanner, Spinner, useToast } from '../ui';
import { adminApi, errorText } from './api';
import { Section } from './parts';

export function SignInSettingsScreen() {
  const qc = useQueryClient();
  const toast = useToast();
  const sso = useQuery({ queryKey: ['admin', 'sso'], queryFn: adminApi.ssoSetting });
  const save = useMutation({
    mutationFn: (autoCreate: boolean) => adminApi.setSsoAutoCreate(autoCreate),
    onSuccess: (r) => {
      qc.setQueryData(['admin', 'sso'], r);
      toast.success(r.auto_create ? 'Single sign-on can now create accounts' : 'Single sign-on no longer creates accounts');
    },
    onError: (err) => toast.error(errorText(err)),
  });

  return (
    <Section title="Sign-in" description="Single sign-on through your company's identity provider (OpenID Connect).">
      {sso.isPending ? (
        <p className="flex items-center gap-2 text-sm text-gray-600">
          <Spinner /> Loading sign-in settings…
        </p>
      ) : sso.isError ? (
        <ErrorBanner title="Could not load the sign-in settings" onRetry={() => void sso.refetch()}>
          {errorText(sso.error)}
        </ErrorBanner>
      ) : (
        <div className="space-y-3 text-sm text-gray-800">
          <p data-testid="sso-status">
            {sso.data.configured
              ? `Single sign-on is set up with ${sso.data.provider_name ?? 'your identity provider'}: the sign-in page offers it.`
              : 'Single sign-on is not set up on this server (OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; see the README). People sign in with their e-mail and password.'}
          </p>
          <label className="flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 rounded border-gray-300"
              checked={sso.data.auto_create}
              disabled={save.isPending}
              onChange={(e) => save.mutate(e.target.checked)}
            />
            <span>
              Create an account at the first single sign-on of a verified e-mail that has none
              <span className="block text-xs text-gray-500">
                Off: only people already added here can sign in with single sign-on. New accounts get the Employee role.
              </span>
            </span>
          </label>
        </div>
      )}
    </Section>
  );
}
