// The router hooks the screens use: where the URL leads (current form, new form, request), opening and closing a
// request's details by URL, and filters kept in search params so Back, reload and shared links keep them.
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { dashboardForRole } from '../../domain/roles';
import { type WebRoute, formPath, parseWebPath, requestPath } from '../../domain/web-routes';
import { useCurrentUser } from '../auth/AuthProvider';
import { useFormDetails } from '../forms/api';
import type { FormRecord } from '../forms/types';
import { type DetailsHost, detailsHost } from './details-host';

/** Router state of a details URL opened from a screen: the screen's path, shown under the details. */
interface DetailsState {
  background?: string;
  /** The part of the dashboard the request was opened from (a click in its list): it shows the details. */
  host?: DetailsHost;
}

const NOWHERE: WebRoute = { form: null, startNew: false, requestId: null };

/**
 * The route of the current URL. Under a request's details opened from a screen (a history screen, the catalogue)
 * the form and startNew are that screen's, so it stays visible below the details.
 */
export function useWebRoute(): WebRoute {
  const location = useLocation();
  const state = location.state as DetailsState | null;
  return useMemo(() => {
    const here = parseWebPath(location.pathname) ?? NOWHERE;
    const below = here.requestId && typeof state?.background === 'string' ? parseWebPath(state.background) : null;
    return below ? { ...below, requestId: here.requestId } : here;
  }, [location.pathname, state?.background]);
}

/** Navigates to the screen of a current-form value (the search params, i.e. the filters, are kept). */
export function useOpenForm(): (value: string | null, options?: { new?: boolean }) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return useCallback(
    (value, options = {}) => {
      const pathname = formPath(value, options);
      if (pathname === location.pathname) return;
      void navigate({ pathname, search: location.search });
      window.scrollTo({ top: 0 });
    },
    [navigate, location.pathname, location.search],
  );
}

export interface RequestRoute {
  requestId: string | null;
  /** Opens /requests/<id> over the current screen (a new history entry, so Back closes it), shown by `host`. */
  open: (requestId: string, host?: DetailsHost) => void;
  /** Who shows the open request when it was opened from a list (a link opened directly: the rule decides). */
  host: DetailsHost | null;
  /** Back to the screen it was opened from; for a link opened directly, to the dashboard. */
  close: () => void;
}

export function useRequestRoute(): RequestRoute {
  const navigate = useNavigate();
  const location = useLocation();
  const { requestId } = useWebRoute();
  const state = location.state as DetailsState | null;

  const open = useCallback(
    (id: string, host?: DetailsHost) => {
      const route = parseWebPath(location.pathname);
      // From another request's details (e.g. 'Your Submissions'), replace: Back still returns to the screen below.
      if (route?.requestId) {
        void navigate({ pathname: requestPath(id), search: location.search }, { replace: true, state: { ...state, host } });
        return;
      }
      void navigate(
        { pathname: requestPath(id), search: location.search },
        { state: { background: location.pathname, host } satisfies DetailsState },
      );
    },
    [navigate, location.pathname, location.search, state],
  );

  const close = useCallback(() => {
    if (!parseWebPath(location.pathname)?.requestId) return;
    if (typeof state?.background === 'string') void navigate(-1);
    else void navigate({ pathname: '/', search: location.search }, { replace: true });
  }, [navigate, location.pathname, location.search, state]);

  return { requestId, open, close, host: state?.host ?? null };
}

/** The request a details URL names (GET /api/forms/details/<id>: a request the caller may not see is not found). */
export function useRouteRequest() {
  const { requestId } = useWebRoute();
  return { requestId, query: useFormDetails(requestId) };
}

/** Which part of the signed-in person's dashboard shows the request of the URL (null while unknown or not found). */
export function useRouteDetailsHost(): DetailsHost | null {
  const user = useCurrentUser();
  const { query } = useRouteRequest();
  if (!query.data) return null;
  return detailsHost(dashboardForRole(user.role, user.user_type), user.id, query.data);
}

/**
 * A drop-in for `useState<Row | null>(null)` holding the row whose details are open, kept in the URL: setting a row
 * opens /requests/<id>, null closes it. For a details URL opened directly, the row comes from `rows` or else from the
 * request's own record, when `host` is the part of the dashboard that shows it.
 */
export function useDetailsRoute<Row extends { request_id: string }>(
  rows: readonly Row[],
  host: DetailsHost,
  /** Makes a row of the request's record (default: the record as it is; the details dialogs load the rest). */
  fromRecord: (record: FormRecord) => Row | null = (record) => record as unknown as Row,
): [Row | null, (row: Row | null) => void] {
  const user = useCurrentUser();
  const route = useRequestRoute();
  const { query } = useRouteRequest();
  const dashboard = dashboardForRole(user.role, user.user_type);
  const target = useMemo(() => {
    if (!route.requestId) return null;
    // A row of this list opens at once; every part decides by the same rule, so one request opens in one place.
    const row = rows.find((r) => r.request_id === route.requestId);
    const facts = (row ?? query.data) as { form_type?: unknown; employee_user_id?: number | null } | undefined;
    if (!facts || typeof facts.form_type !== 'string') return null;
    // Opened from a list: that list's part shows it; a link opened directly: the rule decides.
    const shownBy = route.host ?? detailsHost(dashboard, user.id, { form_type: facts.form_type, employee_user_id: facts.employee_user_id });
    if (shownBy !== host) return null;
    return row ?? (query.data ? fromRecord(query.data) : null);
    // fromRecord is a pure conversion: a new function each render must not recompute this
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [route.requestId, route.host, dashboard, user.id, host, rows, query.data]);
  const { open, close } = route;
  const set = useCallback((row: Row | null) => (row ? open(row.request_id, host) : close()), [open, close, host]);
  return [target, set];
}

/**
 * One filter kept in a search param: the value when it is one of `allowed`, else the fallback. Changing it replaces
 * the history entry (a filter is a view of the same screen; Back leaves the screen) and drops the param at its default.
 */
export function useSearchParamState<T extends string>(key: string, fallback: T, allowed?: readonly T[]): [T, (value: T) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get(key);
  const value = raw !== null && (!allowed || (allowed as readonly string[]).includes(raw)) ? (raw as T) : fallback;
  const set = useCallback(
    (next: T) => {
      // From the address as it is now, not as it was at the last render: two filters set in one handler both stay.
      const out = new URLSearchParams(window.location.search);
      if (next === fallback) out.delete(key);
      else out.set(key, next);
      setParams(out, { replace: true, preventScrollReset: true });
    },
    [setParams, key, fallback],
  );
  return [value, set];
}
