// @vitest-environment happy-dom
// The out-of-office form starts its period on today's date of the organisation's calendar (the zone the server
// announced), not the browser's: at 00:30 in India a browser in New York (or on UTC) is still on the day before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_BUSINESS_TIME_ZONE, setBusinessTimeZone } from '../../domain/business-time';
import { ToastProvider } from '../ui';
import { OutOfOfficeForm } from './OutOfOfficeForm';

const browserZone = process.env.TZ;

beforeEach(() => {
  process.env.TZ = 'America/New_York'; // the browser's own zone
  vi.useFakeTimers({ toFake: ['Date'] });
  // no period set yet: the form keeps its defaults
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(JSON.stringify({ delegate: null, covering: [] }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setBusinessTimeZone(DEFAULT_BUSINESS_TIME_ZONE);
  if (browserZone === undefined) delete process.env.TZ;
  else process.env.TZ = browserZone;
});

function renderForm() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <OutOfOfficeForm />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return {
    from: async () => (await screen.findByLabelText<HTMLInputElement>(/^From/)).value,
    until: async () => (await screen.findByLabelText<HTMLInputElement>(/^Until/)).value,
  };
}

describe('out-of-office form', () => {
  it("starts from and until on the organisation's today across its midnight", async () => {
    setBusinessTimeZone('Asia/Kolkata');
    for (const [moment, day] of [
      ['2026-11-23T19:00:00Z', '2026-11-24'], // 00:30 in India, 14:00 the day before in New York
      ['2026-11-23T18:28:00Z', '2026-11-23'], // 23:58 in India
    ] as const) {
      vi.setSystemTime(new Date(moment));
      const form = renderForm();
      expect([await form.from(), await form.until()], moment).toEqual([day, day]);
      cleanup();
    }
  });

  it('follows the zone the server announced', async () => {
    setBusinessTimeZone('Pacific/Auckland');
    vi.setSystemTime(new Date('2026-11-23T12:30:00Z')); // 01:30 on the 24th in Auckland
    expect(await renderForm().from()).toBe('2026-11-24');
  });
});
