// @vitest-environment happy-dom
// Unit tests of the API client: headers, JSON bodies, query strings and ApiError messages.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, TOKEN_KEY, buildUrl, forgetStoredToken, setUnauthorizedHandler } from './client';

function answer(status: number, body: unknown) {
  return new Response(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('api client', () => {
  const fetchMock = vi.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(null);
  });

  it('sends JSON bodies with the session cookie only (a token left in storage is neither sent nor kept)', async () => {
    localStorage.setItem(TOKEN_KEY, 'tok-123');
    sessionStorage.setItem(TOKEN_KEY, 'tok-123');
    forgetStoredToken();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStorage.getItem(TOKEN_KEY)).toBeNull();
    localStorage.setItem(TOKEN_KEY, 'tok-123');
    fetchMock.mockResolvedValue(answer(200, { ok: true }));
    await expect(api.post('/api/things', { a: 1 })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/things');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  it('sends no Authorization header without a stored token', async () => {
    fetchMock.mockResolvedValue(answer(200, []));
    await api.get('/api/list', { query: { employee_id: 'EMP-1', skip: undefined } });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/list?employee_id=EMP-1');
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect(init.headers).not.toHaveProperty('Authorization');
  });

  it("asks for records without the owner's reset password (this web reads it on demand through the reveal call)", async () => {
    fetchMock.mockResolvedValue(answer(200, {}));
    await api.get('/api/forms/user-forms', { query: { employee_id: 'EMP-1' } });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'X-AdminEase-New-Password': 'omit' });
  });

  it('throws ApiError with the status and the body error message', async () => {
    fetchMock.mockResolvedValue(answer(409, { error: 'Already decided' }));
    const error = await api.post('/api/x', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'Already decided', body: { error: 'Already decided' } });
  });

  it('falls back to a status message when the body has no error', async () => {
    fetchMock.mockResolvedValue(answer(502, '<html>bad gateway</html>'.repeat(20)));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 502, message: 'HTTP error! status: 502' });
  });

  it('reports a 401 to the unauthorized handler unless it is expected', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    fetchMock.mockImplementation(async () => answer(401, { error: 'Not signed in' }));
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
    await expect(api.get('/api/auth/me', { expectUnauthorized: true })).rejects.toMatchObject({ status: 401 });
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('returns undefined for an empty answer', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    await expect(api.post('/api/auth/logout')).resolves.toBeUndefined();
  });

  it('builds query strings onto paths that already have one', () => {
    expect(buildUrl('/a?x=1', { y: 2, z: null })).toBe('/a?x=1&y=2');
    expect(buildUrl('/a', {})).toBe('/a');
  });
});
