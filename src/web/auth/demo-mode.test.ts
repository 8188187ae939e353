// The server's public configuration: the web adopts the organisation's time zone it names, so 'today' in the web
// is the server's business date; an unknown or missing zone leaves the default.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_BUSINESS_TIME_ZONE, businessTimeZone, businessToday, setBusinessTimeZone } from '../../domain/business-time';
import { fetchAuthConfig } from './demo-mode';

function serve(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
});

describe('GET /api/auth/config in the web', () => {
  it("adopts the server's business time zone, so today is the server's date", async () => {
    serve({ demo: false, time_zone: 'America/Los_Angeles', business_date: '2026-11-23' });
    expect(await fetchAuthConfig()).toMatchObject({ demo: false, time_zone: 'America/Los_Angeles' });
    expect(businessTimeZone()).toBe('America/Los_Angeles');
    expect(businessToday(new Date('2026-11-23T19:00:00Z'))).toBe('2026-11-23');
  });

  it('keeps the default zone when the server names none or one this browser does not know', async () => {
    serve({ demo: true });
    await fetchAuthConfig();
    expect(businessTimeZone()).toBe('Asia/Kolkata');
    serve({ demo: true, time_zone: 'Mars/Olympus' });
    await fetchAuthConfig();
    expect(businessTimeZone()).toBe('Asia/Kolkata');
    expect(businessToday(new Date('2026-11-23T19:00:00Z'))).toBe('2026-11-24');
  });
});
