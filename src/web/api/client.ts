// The one typed HTTP client of the web app: same-origin JSON calls carried by the httpOnly session cookie (no
// token is kept where page scripts could read it); a non-2xx answer throws ApiError carrying the status and the
// server's `error` message.

/** Where earlier versions kept the access token. The web never stores it now: the httpOnly cookie is enough. */
export const TOKEN_KEY = 'adminease_token';

/** Removes a token an earlier version stored (run once when the app loads). */
export function forgetStoredToken(): void {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      globalThis[name]?.removeItem(TOKEN_KEY);
    } catch {
      // Storage unavailable: nothing stored.
    }
  }
}
forgetStoredToken();

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler | null = null;

/** Called when an authenticated call answers 401 (the session expired or was revoked); the auth provider signs out. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Do not report a 401 to the unauthorized handler (sign-in and session probes expect 401s). */
  expectUnauthorized?: boolean;
}

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
}

function messageFrom(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b.error === 'string' && b.error) return b.error;
    if (typeof b.message === 'string' && b.message) return b.message;
  }
  if (typeof body === 'string' && body.trim() && body.length < 300) return body.trim();
  return `HTTP error! status: ${status}`;
}

/** Calls the API and returns the parsed JSON answer (or undefined for an empty one). */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  // This web reads a reset password only when its owner asks (the reveal call): the records of the owner's own
  // lists and details are asked for without it (the spec's clients, which read it there, send no such header).
  const headers: Record<string, string> = { Accept: 'application/json', 'X-AdminEase-New-Password': 'omit', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const response = await fetch(buildUrl(path, options.query), {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    credentials: 'same-origin',
    signal: options.signal,
  });

  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }

  if (!response.ok) {
    if (response.status === 401 && !options.expectUnauthorized) onUnauthorized?.();
    throw new ApiError(response.status, messageFrom(parsed, response.status), parsed);
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => request<T>(path, { ...options, method: 'DELETE' }),
};
