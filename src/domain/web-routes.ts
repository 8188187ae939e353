// The web app's URLs, one per screen: the web's router reads them, the server serves the page for them (SPA
// fallback) and builds the links of its e-mails with them. The spec's current-form values map onto /forms/<value>.
//
//   /                          the signed-in person's dashboard (filters as search params, e.g. ?status=Pending)
//   /forms                     the catalogue (current form 'all-forms')
//   /forms/<value>             the screen of a current-form value (a submit form or a history screen)
//   /forms/<value>/new         the same screen with a new form started
//   /requests/<request_id>     one request's details, over the dashboard that shows it
//   /?form=<value>[&new=1]     the old URLs: redirected to the routes above
//   /set-password?token=...    an invitation's or the first-run set-up's page (signed in or not)
//   /email-action?token=...    an approver's Approve / Reject link from an e-mail: the confirmation page (signed in or not)

export const CATALOGUE_VALUE = 'all-forms';

/** The route patterns (react-router syntax) of the signed-in screens; parseWebPath reads the same paths. */
export const CLIENT_ROUTE_PATTERNS = ['/', '/forms', '/forms/:form', '/forms/:form/new', '/requests/:requestId'] as const;

/** A current-form value as a path segment: lower-case words and dashes (anything else is not a route). */
const FORM_VALUE = /^[a-z][a-z0-9-]{0,63}$/;
/** A human request id (LR-000123) or a numeric id: letters, digits, dash and underscore, as the API takes them. */
const REQUEST_ID = /^[A-Za-z0-9_-]{1,40}$/;

/** Where a path leads: the current-form value (null: the dashboard), whether a new form starts, the request shown. */
export interface WebRoute {
  form: string | null;
  startNew: boolean;
  requestId: string | null;
}

export function isFormValue(value: string): boolean {
  return FORM_VALUE.test(value);
}

export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value);
}

/** The path of a request's details. */
export function requestPath(requestId: string | number): string {
  return `/requests/${encodeURIComponent(String(requestId))}`;
}

/** The path of a current-form value: none or empty is the dashboard, 'all-forms' the catalogue. */
export function formPath(value: string | null | undefined, options: { new?: boolean } = {}): string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'none') return '/';
  if (v === CATALOGUE_VALUE) return '/forms';
  if (!isFormValue(v)) return '/forms'; // unknown values fall back to the catalogue
  return `/forms/${v}${options.new ? '/new' : ''}`;
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The route of a path, or null when the path is not one of the web app's screens. */
export function parseWebPath(pathname: string): WebRoute | null {
  const parts = pathname.split('/').filter((p) => p !== '');
  const none: WebRoute = { form: null, startNew: false, requestId: null };
  if (parts.length === 0) return none;
  const [head, second, third] = parts.map(decode);
  if (head === 'forms') {
    if (parts.length === 1) return { ...none, form: CATALOGUE_VALUE };
    if (second === null || !isFormValue(second)) return null;
    if (parts.length === 2) return { ...none, form: second };
    if (parts.length === 3 && third === 'new') return { ...none, form: second, startNew: true };
    return null;
  }
  if (head === 'requests' && parts.length === 2 && second !== null && isRequestId(second)) return { ...none, requestId: second };
  return null;
}

/** The page of an invitation link or the first-run set-up link. */
export const SET_PASSWORD_PATH = '/set-password';

/** The confirmation page of an approver's Approve / Reject link from an e-mail. */
export const EMAIL_ACTION_PATH = '/email-action';

/** Whether the server answers a GET of this path with the web app's page. */
export function isClientRoute(pathname: string): boolean {
  return pathname === SET_PASSWORD_PATH || pathname === EMAIL_ACTION_PATH || parseWebPath(pathname) !== null;
}

/**
 * The new URL of an old '?form=<value>[&new=1]' address (the other search params kept), or null when the search
 * has no form value.
 */
export function legacyFormRedirect(search: string): string | null {
  const params = new URLSearchParams(search);
  const value = params.get('form');
  if (value === null) return null;
  const startNew = params.get('new') === '1';
  params.delete('form');
  params.delete('new');
  const rest = params.toString();
  return formPath(value, { new: startNew }) + (rest ? `?${rest}` : '');
}
