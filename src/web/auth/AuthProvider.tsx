// Session state of the web app: probes GET /api/auth/me on load, signs in (API + assistant session) and out,
// and shows the loading and authentication-error screens while no decision can be made.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, ApiError, setUnauthorizedHandler } from '../api/client';
import type { ChatSessionLoginResponse, LoginResponse, MeResponse, User } from '../api/types';
import { chatFamilyFor, chatUserIdFor } from './session';
import { clearSessionStorageKeys, setChatSessionId } from './storage';
import { AuthErrorScreen, LoadingScreen } from './screens';
import { showChangesSinceLastLogout } from '../notifications/after-login';

export const INVALID_CREDENTIALS = 'Invalid credentials. Please check your email and password.';
export const LOGIN_FAILED = 'Login failed. Please try again.';
export const FILL_ALL_FIELDS = 'Please fill in all fields';

/** Dispatched on window at logout so audio players and other long-lived parts can stop. */
export const LOGOUT_EVENT = 'adminease:logout';

type AuthState = { status: 'loading' } | { status: 'signedOut' } | { status: 'signedIn'; user: User } | { status: 'error' };

export interface AuthContextValue {
  user: User | null;
  /** Signs in; rejects with an Error whose message is the text to show in the sign-in banner. */
  login: (email: string, password: string) => Promise<User>;
  logout: () => Promise<void>;
  /** Reads the signed-in user again (e.g. once a demanded password change is done). */
  refresh: () => Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return error.body ? error.message : INVALID_CREDENTIALS;
    if (error.status === 400) return error.body ? error.message : FILL_ALL_FIELDS;
    if (error.status === 429) return error.message;
  }
  return LOGIN_FAILED;
}

async function ignoreFailure(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch {
    // Best effort: logout goes on even when one of its steps fails.
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>({ status: 'loading' });
  const queryClient = useQueryClient();

  const signOutLocally = useCallback(() => {
    clearSessionStorageKeys();
    queryClient.clear();
    window.dispatchEvent(new Event(LOGOUT_EVENT));
    setState({ status: 'signedOut' });
  }, [queryClient]);

  useEffect(() => {
    let cancelled = false;
    api
      .get<MeResponse>('/api/auth/me', { expectUnauthorized: true })
      .then((answer) => {
        if (cancelled) return;
        if (answer?.user) setState({ status: 'signedIn', user: answer.user });
        else setState({ status: 'signedOut' });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (error instanceof ApiError && error.status === 401) {
          setState({ status: 'signedOut' });
        } else {
          console.error('Session check failed', error);
          setState({ status: 'error' });
        }
      });
    return () => {
      cancelled = true;
    };
  }, []);

  // Once signed out and the signed-in screens have unmounted, sweep the storage keys again: a request of those screens
  // that was still on its way when logout cleared them (e.g. the chat's greeting marker) may have written one since.
  useEffect(() => {
    if (state.status === 'signedOut') clearSessionStorageKeys();
  }, [state.status]);

  useEffect(() => {
    setUnauthorizedHandler(() => signOutLocally());
    return () => setUnauthorizedHandler(null);
  }, [signOutLocally]);

  const login = useCallback(async (email: string, password: string): Promise<User> => {
    let answer: LoginResponse;
    try {
      answer = await api.post<LoginResponse>('/api/auth/login', { email, password }, { expectUnauthorized: true });
    } catch (error) {
      throw new Error(loginErrorMessage(error));
    }
    if (!answer?.user || !answer.access_token) throw new Error(INVALID_CREDENTIALS);

    const user = answer.user;
    try {
      const session = await api.post<ChatSessionLoginResponse>(
        `/ai/${chatFamilyFor(user)}/session/login`,
        { user_id: chatUserIdFor(user), user_role: user.role },
        { expectUnauthorized: true },
      );
      if (session?.session_id) setChatSessionId(session.session_id);
    } catch (error) {
      // Without an assistant session the sign-in counts as failed: end the API session just opened.
      console.error('Assistant session could not be created', error);
      await ignoreFailure(api.post('/api/auth/logout', {}, { expectUnauthorized: true }));
      clearSessionStorageKeys();
      throw new Error(LOGIN_FAILED);
    }
    void showChangesSinceLastLogout(user.id);
    setState({ status: 'signedIn', user });
    return user;
  }, []);

  const user = state.status === 'signedIn' ? state.user : null;

  const logout = useCallback(async () => {
    if (user) {
      await ignoreFailure(api.post('/api/form-state/save-snapshot', { user_id: user.id }, { expectUnauthorized: true }));
      await ignoreFailure(
        api.post(`/ai/${chatFamilyFor(user)}/session/logout`, { user_id: chatUserIdFor(user) }, { expectUnauthorized: true }),
      );
    }
    await ignoreFailure(api.post('/api/auth/logout', {}, { expectUnauthorized: true }));
    signOutLocally();
  }, [user, signOutLocally]);

  const refresh = useCallback(async () => {
    const answer = await api.get<MeResponse>('/api/auth/me');
    if (answer?.user) setState({ status: 'signedIn', user: answer.user });
  }, []);

  const value = useMemo<AuthContextValue>(() => ({ user, login, logout, refresh }), [user, login, logout, refresh]);

  if (state.status === 'loading') return <LoadingScreen />;
  if (state.status === 'error') return <AuthErrorScreen />;
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}

/** The signed-in user, for components that only render behind sign-in (the dashboards). */
export function useCurrentUser(): User {
  const { user } = useAuth();
  if (!user) throw new Error('useCurrentUser needs a signed-in user');
  return user;
}

/** The auth context or null outside the provider (the chat panel shows 'Initializing chatbot...' then). */
export function useOptionalAuth(): AuthContextValue | null {
  return useContext(AuthContext);
}
