// @vitest-environment happy-dom
// The confirmation page of an e-mail's Approve / Reject link against a mocked API: opening it only checks the link;
// a refused link says why and offers no decision; a rejection asks for the reason before it is sent.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { EmailLinkView } from '../../domain/email';
import { EmailActionPage } from './EmailActionPage';

type Route = () => { status: number; body?: unknown };
let routes: Record<string, Route>;
const calls: { url: string; body: unknown }[] = [];

const view: EmailLinkView = {
  decision: 'Rejected',
  stage: 'line_manager',
  stage_label: 'Line Manager Approval',
  approver_name: 'Priya Sharma',
  request: {
    request_id: 'PC-000061',
    form_type: 'petty-cash',
    type_label: 'Petty Cash',
    employee_name: 'Alex Johnson',
    amount: 'USD $42.50',
    dates: { label: 'Expected settlement date', text: '3 Feb 2027' },
    purpose: 'Team lunch',
    status: 'Pending',
    path: '/requests/PC-000061',
  },
  expires_at: '2027-01-01T10:00:00.000Z',
};

beforeEach(() => {
  calls.length = 0;
  routes = {};
  window.history.replaceState(null, '', '/email-action?token=abc.r.sig');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      calls.push({ url: key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const { status, body } = routes[key]?.() ?? { status: 404, body: { error: `No route ${key}` } };
      return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('the e-mail action page', () => {
  it('explains a refused link and offers no decision', async () => {
    routes['POST /api/email-actions/check'] = () => ({
      status: 409,
      body: { error: 'This link was already used (the request was approved with it).', code: 'used' },
    });
    render(<EmailActionPage />);
    expect((await screen.findByRole('alert')).textContent).toContain('This link was already used');
    expect(screen.queryByRole('button', { name: /request$/ })).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(['POST /api/email-actions/check']);
    expect(calls[0].body).toEqual({ token: 'abc.r.sig' });
  });

  it('asks for the reason of a rejection, then records it', async () => {
    routes['POST /api/email-actions/check'] = () => ({ status: 200, body: view });
    routes['POST /api/email-actions/decide'] = () => ({
      status: 200,
      body: { success: true, decision: 'Rejected', message: 'Petty Cash PC-000061 rejected. Thank you.' },
    });
    render(<EmailActionPage />);
    expect(await screen.findByRole('heading', { name: 'Reject Petty Cash PC-000061?' })).toBeTruthy();
    expect(screen.getByText('USD $42.50')).toBeTruthy();
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Reject request' });
    expect(button.disabled).toBe(true);
    expect(calls.some((c) => c.url === 'POST /api/email-actions/decide')).toBe(false);
    fireEvent.change(screen.getByLabelText(/Reason for the rejection/), { target: { value: 'No receipt attached' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(await screen.findByText('Petty Cash PC-000061 rejected. Thank you.')).toBeTruthy();
    expect(calls.find((c) => c.url === 'POST /api/email-actions/decide')?.body).toEqual({
      token: 'abc.r.sig',
      reason: 'No receipt attached',
    });
  });
});
