// Whether the server runs in demo mode (GET /api/auth/config, public): the Demo banner and the sign-in screen's
// Demo Credentials panel appear only then. Until the answer arrives, and when the server cannot tell, nothing
// demo-related is shown.
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';

export interface AuthConfig {
  demo?: boolean;
}

export const AUTH_CONFIG_QUERY_KEY = ['auth-config'] as const;

export function useDemoMode(): boolean {
  const q = useQuery({
    queryKey: AUTH_CONFIG_QUERY_KEY,
    queryFn: () => api.get<AuthConfig>('/api/auth/config', { expectUnauthorized: true }),
    staleTime: Infinity,
    retry: false,
  });
  return q.data?.demo === true;
}
