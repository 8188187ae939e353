// @vitest-environment happy-dom
// The form generated from the registry, against a mocked API: fields, labels, required marks, selects, bounds and
// help texts from the registry; client messages equal to the server's (the same zod schema, firstIssueMessage);
// the server's refusal on the form and its field; the leave form's balance and working days; editing with PUT.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { addDays, businessToday, nextWeekdayAfter } from '../../domain/business-time';
import { FORM_TYPES, firstIssueMessage, formSchema, formTypeDef } from '../../domain/forms';
import { HolidayService } from '../../server/calendar/service';
import { workingDays } from '../../server/forms/leave';
import type { User } from '../api/types';
import { renderSignedIn } from '../test/signed-in';
import { GeneratedForm } from './GeneratedForm';
import { fieldOfMessage, initialValues, leaveWorkingDays, moneyText, registryResolver } from './generated';
import type { FormRecord } from './types';

const alex: User = {
  id: 15,
  email: 'alex.johnson@adminease.test',
  role: 'Software Engineer',
  user_type: 'employee',
  department_code: 'ENG',
  department: { department_code: 'ENG', department_name: 'Engineering' },
  profile: { first_name: 'Alex', last_name: 'Johnson', employee_code: 'EMP-1001', employee_id: 'EMP-1001', hr_id: null, manager_id: null },
  firstName: 'Alex',
  lastName: 'Johnson',
  manager_name: 'Priya Sharma',
};

type Route = (body: any, url: string) => { status: number; body?: unknown };
let routes: Record<string, Route>;
let calls: Array<{ key: string; body: any; url: string }>;

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  calls = [];
  routes = {
    'GET /api/auth/me': () => ({ status: 200, body: { user: alex } }),
    'GET /api/forms/employee-leave-balance/15': () => ({
      status: 200,
      body: { annual_leave_total: 12, annual_leave_used: 2.5, unpaid_leave_used: 1, annual_leave_left: 9.5, year: 2026 },
    }),
    'GET /api/calendar/holidays': () => ({ status: 200, body: { year: 2026, years: [], source: 'offline', holidays: [] } }),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body, url });
      const route = routes[key];
      if (!route) return json(404, { error: `No route ${key}` });
      const r = route(body, url);
      return json(r.status, r.body);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const today = businessToday();
const monday = nextWeekdayAfter(addDays(today, 14), 1);
const change = (label: RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
/** What the server answers for these values: its schema's first message. */
const serverMessage = (formType: string, values: Record<string, unknown>) => {
  const r = formSchema(formType).safeParse(values);
  return r.success ? null : firstIssueMessage(r.error);
};

describe('GeneratedForm', () => {
  it('renders every field of the registry with its label, required mark, control type, bounds and help', async () => {
    await renderSignedIn(<GeneratedForm formType="travel-request" />);
    const form = screen.getByRole('form', { name: 'Travel Request form' });
    const def = formTypeDef('travel-request')!;
    for (const fd of def.fields) {
      const control = within(form).getByLabelText<HTMLInputElement>(new RegExp(`^${fd.label.replace(/[()]/g, '\\$&')}`));
      expect(control.required, fd.name).toBe(fd.required);
    }
    expect(screen.getByLabelText<HTMLInputElement>(/^Departure date/).type).toBe('date');
    const cost = screen.getByLabelText<HTMLInputElement>(/^Estimated cost \(USD\)/);
    expect([cost.type, cost.step, cost.min]).toEqual(['number', '0.01', '0']);
    // The registry's help text, and the dates bounded by the server's window (one year back, two ahead).
    expect(screen.getByText('Travel, stay and allowances together; Finance approves it after your line manager.')).toBeTruthy();
    const departure = screen.getByLabelText<HTMLInputElement>(/^Departure date/);
    expect([departure.min, departure.max]).toEqual([today, addDays(today, 731)]); // no trip before today
    // The return date may not come before the departure.
    change(/^Departure date/, monday);
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^Return date/).min).toBe(monday));
    // Choices are selects with the registry's options.
    cleanup();
    await renderSignedIn(<GeneratedForm formType="leave-request" />);
    const leaveType = screen.getByLabelText<HTMLSelectElement>(/^Leave type/);
    expect(leaveType.tagName).toBe('SELECT');
    expect([...leaveType.options].map((o) => o.value).slice(1)).toEqual(formTypeDef('leave-request')!.fields[0].options);
  });

  it("validates with the server's schema: the same messages, nothing sent while invalid", async () => {
    await renderSignedIn(<GeneratedForm formType="travel-request" />);
    submit();
    expect(await screen.findByText('Destination is required')).toBeTruthy();
    expect(screen.getByText('Estimated cost (USD) is required')).toBeTruthy();
    const values = {
      destination: 'Pune',
      departure_date: addDays(monday, 3),
      return_date: monday,
      travel_purpose: 'Client workshop',
      total_estimated_cost: '1200.505',
    };
    for (const [k, v] of Object.entries(values))
      fireEvent.change(screen.getByRole('form').querySelector(`[name="${k}"]`)!, { target: { value: v } });
    submit();
    const money = serverMessage('travel-request', values)!;
    expect(money).toBe('Estimated cost (USD) must have at most 2 decimals');
    expect(await screen.findByText(money)).toBeTruthy();
    change(/^Estimated cost/, '1200.5');
    submit();
    const order = serverMessage('travel-request', { ...values, total_estimated_cost: '1200.5' })!;
    expect(order).toBe('Return date cannot be before departure date');
    // A form-level rule lands on the field it names.
    const returnDate = screen.getByLabelText(/^Return date/);
    await waitFor(() => expect(returnDate.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(order)).toBeTruthy();
    // The server's date rules, for the same today: a trip cannot start before today.
    change(/^Departure date/, addDays(today, -1));
    change(/^Return date/, today);
    submit();
    expect(await screen.findByText(`Departure date cannot be in the past (today is ${today})`)).toBeTruthy();
    expect(calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('submits the parsed values (numbers, two-decimal USD) and shows the success message with the request id', async () => {
    routes['POST /api/forms/travel-request'] = (body) => ({
      status: 201,
      body: { ...body, request_id: 'TR-000041', message: 'Request submitted successfully!', success: true },
    });
    await renderSignedIn(<GeneratedForm formType="travel-request" />);
    change(/^Destination/, 'Pune');
    change(/^Departure date/, monday);
    change(/^Return date/, addDays(monday, 2));
    change(/^Purpose/, 'Client workshop');
    const cost = screen.getByLabelText<HTMLInputElement>(/^Estimated cost/);
    change(/^Estimated cost/, '1200.5');
    fireEvent.blur(cost);
    await waitFor(() => expect(cost.value).toBe('1200.50'));
    submit();
    expect(await screen.findByText('Request submitted successfully!')).toBeTruthy();
    expect(screen.getByText('Request TR-000041 is now Pending.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/forms/travel-request')?.body).toEqual({
      destination: 'Pune',
      departure_date: monday,
      return_date: addDays(monday, 2),
      travel_purpose: 'Client workshop',
      total_estimated_cost: 1200.5,
    });
    // The form is cleared for the next request.
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(/^Destination/).value).toBe(''));
  });

  it('says which company holiday inside a leave is not counted, as the server answers', async () => {
    const note = 'Includes 2 Oct (Gandhi Jayanti), a company holiday: not counted';
    routes['POST /api/forms/leave-request'] = (body) => ({
      status: 201,
      body: { ...body, request_id: 'LR-000042', message: 'Request submitted successfully!', success: true, holiday_note: note },
    });
    await renderSignedIn(<GeneratedForm formType="leave-request" />);
    fireEvent.change(screen.getByLabelText(/^Leave type/), { target: { value: 'Casual' } });
    change(/^Start date/, monday);
    change(/^End date/, addDays(monday, 4));
    change(/^Reason/, 'Family event');
    submit();
    expect(await screen.findByText(`Request submitted successfully! ${note}.`)).toBeTruthy();
  });

  it("shows the server's refusal on the form, and on the field it names", async () => {
    routes['POST /api/forms/leave-request'] = () => ({ status: 400, body: { error: 'These dates overlap your leave request LR-000007' } });
    await renderSignedIn(<GeneratedForm formType="leave-request" />);
    fireEvent.change(screen.getByLabelText(/^Leave type/), { target: { value: 'Casual' } });
    change(/^Start date/, monday);
    change(/^End date/, addDays(monday, 1));
    change(/^Reason/, 'Family event');
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain('These dates overlap your leave request LR-000007');
    expect(screen.getByLabelText(/^Start date/).getAttribute('aria-invalid')).toBeNull();
    // A message that names a field marks that field as well.
    routes['POST /api/forms/leave-request'] = () => ({ status: 400, body: { error: 'Reason is too long (at most 500 characters)' } });
    submit();
    await waitFor(() => expect(screen.getByLabelText(/^Reason/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('Reason is too long (at most 500 characters)').length).toBe(2);
  });

  it('shows the leave balance and the working days of the dates, without weekends and closed holidays', async () => {
    const wednesday = addDays(monday, 2);
    routes['GET /api/calendar/holidays'] = () => ({
      status: 200,
      body: {
        year: Number(monday.slice(0, 4)),
        years: [],
        source: 'offline',
        holidays: [
          { date: wednesday, name: 'Independence Day', type: 'national' },
          // on the calendar but a working day
          { date: addDays(monday, 3), name: 'Holi', type: 'festival' },
        ],
      },
    });
    await renderSignedIn(<GeneratedForm formType="leave-request" />);
    const tiles = await screen.findByTestId('leave-balance');
    await waitFor(() => expect(within(tiles).getByText('9.5')).toBeTruthy());
    expect(screen.getByTestId('leave-working-days').textContent).toMatch(/^Choose the first and last day/);
    change(/^Start date/, monday);
    // Monday to the next Monday: 6 weekdays, minus the closed Wednesday.
    change(/^End date/, addDays(monday, 7));
    await waitFor(() => expect(screen.getByTestId('leave-working-days').textContent).toMatch(/^5 working days/));
  });

  it('edits a pending request with PUT, starting from its stored values; a refusal shows the server message', async () => {
    const stored: FormRecord = {
      id: 9,
      request_id: 'MR-000009',
      form_type: 'meeting-room',
      status: 'Pending',
      created_at: '2026-11-20T09:00:00Z',
      employee_id: 'EMP-1001',
      employee_user_id: 15,
      room_requested: 'Board Room',
      booking_date: monday,
      start_time: '10:00',
      end_time: '11:00',
      participants_count: 6,
    };
    routes['PUT /api/forms/meeting-room/MR-000009'] = (body) => ({ status: 200, body: { ...stored, ...body } });
    const onDone = vi.fn();
    await renderSignedIn(<GeneratedForm formType="meeting-room" record={stored} onDone={onDone} />);
    expect(screen.getByLabelText<HTMLInputElement>(/^Room/).value).toBe('Board Room');
    expect(screen.getByLabelText<HTMLInputElement>(/^Participants/).value).toBe('6');
    change(/^Participants/, '8');
    change(/^End time/, '09:00');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('End time must be after start time')).toBeTruthy();
    change(/^End time/, '11:30');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls.find((c) => c.key === 'PUT /api/forms/meeting-room/MR-000009')?.body).toEqual({
      room_requested: 'Board Room',
      booking_date: monday,
      start_time: '10:00',
      end_time: '11:30',
      participants_count: 8,
    });
    routes['PUT /api/forms/meeting-room/MR-000009'] = () => ({
      status: 409,
      body: { error: 'This request can no longer be edited: a decision has already been made on it' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('This request can no longer be edited: a decision has already been made on it')).toBeTruthy();
  });
});

describe('generated form rules', () => {
  it("the resolver answers the server's first message for every type's empty form", async () => {
    for (const t of FORM_TYPES) {
      const r = await registryResolver(t.formType, () => today)(initialValues(t.formType), undefined, {
        fields: {},
        shouldUseNativeValidation: false,
      });
      const expected = serverMessage(t.formType, {});
      const messages = Object.values(r.errors).map((e) => (e as { message?: string }).message);
      expect(messages, t.formType).toContain(expected);
    }
  });

  it('places form-level messages on the field their text names', () => {
    const leave = formTypeDef('leave-request')!;
    expect(fieldOfMessage(leave, 'End date cannot be before start date')).toBe('end_date');
    expect(fieldOfMessage(leave, 'A leave can be at most 366 days long')).toBeNull();
    expect(fieldOfMessage(formTypeDef('purchase-requisition')!, 'Estimated total must equal quantity x unit cost')).toBe('estimated_total');
  });

  it('money shows two decimals; stored records fill the inputs', () => {
    expect(['12.5', '3', '0.1', '1.234', 'abc'].map(moneyText)).toEqual(['12.50', '3.00', '0.10', '1.234', 'abc']);
    expect(initialValues('petty-cash', { amount_requested: 20 } as unknown as FormRecord).amount_requested).toBe('20.00');
  });

  it("counts a leave's working days as the server does, with the same holiday list", () => {
    const offline = new HolidayService({ country: 'IN' });
    for (const [start, end] of [
      ['2026-08-10', '2026-08-21'], // Independence Day on a Saturday
      ['2026-10-01', '2026-10-31'], // Gandhi Jayanti, Dussehra
      ['2026-12-20', '2027-01-31'], // Christmas, Republic Day, across the year
    ]) {
      const list = [...offline.offline(2026), ...offline.offline(2027)];
      expect(leaveWorkingDays(start, end, list), `${start}..${end}`).toBe(workingDays(start, end));
    }
    expect(leaveWorkingDays('2026-10-05', '2026-10-01', [])).toBeNull();
  });
});
