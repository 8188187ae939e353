// @vitest-environment happy-dom
// The web side of 'adding a form type is one registry entry' (the server side is src/server/forms/add-a-type.test.ts):
// a type registered here, after the web modules loaded, shows in the catalogue with its real chain, opens a form
// generated from its fields that validates with the server's messages and posts to its route, and gets a type chip
// on the dashboard of the stage it passes (the HR dashboard's chips are read from the registry on each render).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { addDays, businessToday } from '../../domain/business-time';
import { type FormTypeDef, registerFormType } from '../../domain/forms';
import { jsonResponse, renderSignedIn, testUser } from '../test/signed-in';
import { HR_DASHBOARD } from '../dashboards/hr/HrDashboard';
import { screenFor } from '../employee/screens';
import { parseWebPath } from '../../domain/web-routes';
import { Catalogue } from './Catalogue';
import { detailRows } from './details';
import { GeneratedForm } from './GeneratedForm';
import type { FormRecord } from './types';

const SABBATICAL: FormTypeDef = {
  formType: 'sabbatical-request',
  title: 'Sabbatical Request',
  category: 'Human Resources',
  icon: 'Plane',
  idPrefix: 'SAB',
  chain: ['line_manager', 'hr'],
  catalogue: { description: 'Ask for a few months away to study or recharge.', estimatedTime: '5 min', priority: 'low' },
  details: {
    title: 'Sabbatical Details',
    fields: [
      { name: 'sabbatical_start', label: 'Starts', kind: 'date' },
      { name: 'months', label: 'Months', kind: 'number' },
    ],
  },
  keywords: ['sabbatical'],
  fields: [
    { name: 'sabbatical_start', label: 'First day', type: 'date', required: true, question: 'From when?' },
    { name: 'months', label: 'Months', type: 'integer', required: true, question: 'How many months?', min: 1, max: 12 },
    {
      name: 'plan',
      label: 'Plan',
      type: 'longtext',
      required: false,
      question: 'What will you do?',
      help: 'Optional: what you plan to do.',
    },
  ],
};

const alex = testUser();

let posted: unknown[];
const json = jsonResponse;

beforeEach(() => {
  localStorage.clear();
  posted = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      if (key === 'GET /api/auth/me') return json(200, { user: alex });
      if (key === 'POST /api/forms/sabbatical-request') {
        const body = JSON.parse(String(init.body));
        posted.push(body);
        return json(201, {
          ...body,
          request_id: 'SAB-000001',
          status: 'Pending',
          message: 'Request submitted successfully!',
          success: true,
        });
      }
      return json(404, { error: `No route ${key}` });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('a form type registered after the web loaded', () => {
  it('has no HR chip before it is registered', () => {
    expect(HR_DASHBOARD.typeChips!.types()).not.toContain('sabbatical-request');
  });

  it('is offered by the catalogue with its real chain, and opens', async () => {
    registerFormType(SABBATICAL);
    const onOpen = vi.fn();
    await renderSignedIn(<Catalogue onOpen={onOpen} onClose={() => undefined} />);
    const card = screen.getByRole('button', { name: 'Sabbatical Request Form: open the form' });
    expect(within(card).getByTestId('approval-chain').textContent).toBe('Line Manager → HR');
    expect(screen.queryByText('Coming soon')).toBeNull();
    fireEvent.click(card);
    expect(onOpen.mock.calls[0][0].formType).toBe('sabbatical-request');
  });

  it("gets a generated form: its fields, the server's messages, a POST to its route", async () => {
    await renderSignedIn(<GeneratedForm formType="sabbatical-request" />);
    const form = screen.getByRole('form', { name: 'Sabbatical Request form' });
    const months = within(form).getByLabelText<HTMLInputElement>(/^Months/);
    expect([months.type, months.min, months.max, months.required]).toEqual(['number', '1', '12', true]);
    expect(within(form).getByLabelText<HTMLInputElement>(/^First day/).type).toBe('date');
    expect(within(form).getByText('Optional: what you plan to do.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Request' }));
    expect(await within(form).findByText('First day is required')).toBeTruthy();
    expect(posted).toHaveLength(0);
    const start = addDays(businessToday(), 30);
    fireEvent.change(within(form).getByLabelText(/^First day/), { target: { value: start } });
    fireEvent.change(months, { target: { value: '13' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Request' }));
    expect(await within(form).findByText('Months must be at most 12')).toBeTruthy();
    fireEvent.change(months, { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Request SAB-000001 is now Pending.')).toBeTruthy();
    expect(posted).toEqual([{ sabbatical_start: start, months: 3 }]);
  });

  it('is rendered by the details card and gets a chip on the HR dashboard', () => {
    const record: FormRecord = {
      id: 1,
      request_id: 'SAB-000001',
      form_type: 'sabbatical-request',
      status: 'Pending',
      created_at: '2026-11-24T10:00:00Z',
      employee_id: 'EMP-1001',
      employee_user_id: 15,
      sabbatical_start: '2027-03-01',
      months: 3,
    };
    const rows = detailRows(record);
    expect(rows.title).toBe('Sabbatical Details');
    expect(rows.rows.map((r) => r.label)).toEqual(['Starts', 'Months']);
    expect(HR_DASHBOARD.typeChips!.types()).toContain('sabbatical-request');
  });

  it('has the generic history screen at its URL, and its submit form with ?new', () => {
    const route = parseWebPath('/forms/sabbatical-request')!;
    expect(route.form).toBe('sabbatical-request');
    expect(screenFor(route.form)).toEqual({ kind: 'history', history: 'generic', formType: 'sabbatical-request' });
    expect(screenFor(route.form, true)).toEqual({ kind: 'submit', formType: 'sabbatical-request' });
  });
});
