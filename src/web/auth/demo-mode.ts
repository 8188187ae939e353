// What the server tells every screen before anyone signs in (GET /api/auth/config, public): whether it runs in
// demo mode (the Demo banner and the sign-in screen's Demo Credentials panel appear only then) and the
// organisation's time zone, in which the web counts 'today' like the server does. Until the answer arrives, and
// when the server cannot tell, nothing demo-related is shown and the default business zone applies.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { businessTimeZone, isValidTimeZone, setBusinessTimeZone } from '../../domain/business-time';

export interface AuthConfig {
  demo?: boolean;
  /** The organisation's IANA time zone (ADMINEASE_TIMEZONE). */
  time_zone?: string;
  /** Single sign-on: the provider's name for 'Sign in with <name>', null when not configured. */
  sso_provider?: string | null;
}

export const AUTH_CONFIG_QUERY_KEY = ['auth-config'] as const;

/** Reads the server's configuration and adopts its business time zone (when this browser knows the zone). */
export async function fetchAuthConfig(): Promise<AuthConfig> {
  const config = await api.get<AuthConfig>('/api/auth/config', { expectUnauthorized: true });
  if (typeof config?.time_zone === 'string' && isValidTimeZone(config.time_zone)) setBusinessTimeZone(config.time_zone);
  return config;
}

function useAuthConfig() {
  return useQuery({ queryKey: AUTH_CONFIG_QUERY_KEY, queryFn: fetchAuthConfig, staleTime: Infinity, retry: false });
}

/** The single sign-on provider's name, or null when the server offers none. */
export function useSsoProvider(): string | null {
  const name = useAuthConfig().data?.sso_provider;
  return typeof name === 'string' && name ? name : null;
}

export function useDemoMode(): boolean {
  return useAuthConfig().data?.demo === true;
}

/** The organisation's time zone: the server's once it has answered (components re-render when it arrives). */
export function useBusinessTimeZone(): string {
  useAuthConfig();
  return businessTimeZone();
}
