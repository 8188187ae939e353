// @vitest-environment happy-dom
// The employee's form components against a mocked API: submit forms (states, messages, payloads), the list's
// loading and empty texts, the details modal (chain, reason, next stage, failure text) and the catalogue's empty state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ReactNode } from 'react';
import type { User } from '../api/types';
import { AuthProvider } from '../auth/AuthProvider';
import { ToastProvider } from '../ui';
import { FORM_TYPES } from '../../domain/forms';
import { Catalogue } from './Catalogue';
import { FacilityAccessForm, facilityAccessProblem } from './FacilityAccessForm';
import { FormDetailsModal } from './FormDetailsModal';
import { PasswordResetForm } from './PasswordResetForm';
import { PurchaseRequisitionForm } from './PurchaseRequisitionForm';
import { flattenUserForms } from './submissions';
import type { FormRecord } from './types';
import { NO_FORMS_MATCH, NO_FORMS_YET, YourFormsList } from './YourFormsList';

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

type Route = (body: any) => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>;
let routes: Record<string, Route>;
let calls: Array<{ key: string; body: any }>;

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  localStorage.clear();
  calls = [];
  routes = { 'GET /api/auth/me': () => ({ status: 200, body: { user: alex } }) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ key, body });
      const route = routes[key];
      if (!route) return json(404, { error: `No route ${key}` });
      const r = await route(body);
      return json(r.status, r.body);
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function renderSignedIn(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>{ui}</AuthProvider>
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.queryByText('Loading AdminEase')).toBeNull());
  return view;
}

const record = (over: Partial<FormRecord>): FormRecord => ({
  id: 1,
  request_id: 'PR-000001',
  form_type: 'purchase-requisition',
  status: 'Pending',
  created_at: '2027-01-10T09:00:00Z',
  employee_id: 'EMP-1001',
  employee_user_id: 15,
  employee_name: 'Alex Johnson',
  ...over,
});

describe('FacilityAccessForm', () => {
  it('enables Submit only when all three fields are filled, sends the spec payload and clears on success', async () => {
    let resolve!: (v: { status: number; body: unknown }) => void;
    routes['POST /api/forms/facility-access'] = () =>
      new Promise((r) => {
        resolve = r;
      });
    await renderSignedIn(<FacilityAccessForm />);
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Submit Request' });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Request type/), { target: { value: 'New Access Card' } });
    fireEvent.change(screen.getByLabelText(/Facilities requested/), { target: { value: 'Floor 4' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Justification/), { target: { value: 'Lost my card' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    resolve({ status: 201, body: { request_id: 'FA-000070', success: true, message: 'Form submitted successfully!' } });
    expect(await screen.findByText('Form submitted successfully!')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/forms/facility-access')?.body).toEqual({
      employee_id: 'EMP-1001',
      employee_name: 'Alex Johnson',
      department: 'Engineering',
      manager: 'Priya Sharma',
      access_request_type: 'New Access Card',
      facilities_requested: 'Floor 4',
      justification: 'Lost my card',
    });
    expect(screen.getByLabelText<HTMLInputElement>(/Facilities requested/).value).toBe('');
    expect(screen.getByLabelText<HTMLTextAreaElement>(/Justification/).value).toBe('');
  });

  it('shows the spec error text on failure and keeps the values', async () => {
    routes['POST /api/forms/facility-access'] = () => ({ status: 500, body: { error: 'Internal server error' } });
    await renderSignedIn(<FacilityAccessForm />);
    fireEvent.change(screen.getByLabelText(/Request type/), { target: { value: 'Other' } });
    fireEvent.change(screen.getByLabelText(/Facilities requested/), { target: { value: 'Roof' } });
    fireEvent.change(screen.getByLabelText(/Justification/), { target: { value: 'Photos' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Error submitting form. Please try again.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>(/Facilities requested/).value).toBe('Roof');
  });
});

describe('FacilityAccessForm: the server schema', () => {
  it("refuses what the server's schema refuses, with the server's message, and sends nothing", async () => {
    routes['POST /api/forms/facility-access'] = () => ({ status: 201, body: { request_id: 'FA-000071', success: true } });
    await renderSignedIn(<FacilityAccessForm />);
    const facilities = screen.getByLabelText<HTMLInputElement>(/Facilities requested/);
    // The input's limit is the registry's (the server's); a value past it (pasted by a script) is refused before sending.
    expect(facilities.maxLength).toBe(200);
    fireEvent.change(screen.getByLabelText(/Request type/), { target: { value: 'Other' } });
    fireEvent.change(facilities, { target: { value: 'x'.repeat(201) } });
    fireEvent.change(screen.getByLabelText(/Justification/), { target: { value: 'Photos' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    const expected = facilityAccessProblem({
      access_request_type: 'Other',
      facilities_requested: 'x'.repeat(201),
      justification: 'Photos',
    });
    expect(expected).toBe('Facilities requested is too long (at most 200 characters)');
    expect(await screen.findByText(expected!)).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/forms/facility-access')).toBe(false);
  });
});

describe('PasswordResetForm', () => {
  it('asks for a system and a reason, then posts a real request', async () => {
    routes['POST /api/forms/password-reset'] = () => ({ status: 201, body: { request_id: 'PWD-000071', success: true } });
    await renderSignedIn(<PasswordResetForm />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Please select a system')).toBeTruthy();
    expect(screen.getByText('Please select a reason for reset')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/forms/password-reset')).toBe(false);
    fireEvent.change(screen.getByLabelText(/System/), { target: { value: 'ERP' } });
    fireEvent.change(screen.getByLabelText(/Reason for reset/), { target: { value: 'Forgotten Password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Request' }));
    expect(await screen.findByText('Password reset request submitted successfully!')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/forms/password-reset')?.body).toMatchObject({
      system_for_reset: 'ERP',
      reset_reason: 'Forgotten Password',
    });
  });
});

describe('PurchaseRequisitionForm', () => {
  async function fill() {
    fireEvent.change(screen.getByLabelText(/Item description/), { target: { value: 'Chairs' } });
    fireEvent.change(screen.getByLabelText(/Purpose of purchase/), { target: { value: 'New hires' } });
    fireEvent.change(screen.getByLabelText(/Quantity/), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText(/Unit cost/), { target: { value: '19.99' } });
  }

  it('computes the estimated total on each change, keeps it editable, sends integers and decimals', async () => {
    routes['POST /api/purchase-requisition/submit'] = () => ({
      status: 201,
      body: { request_id: 'PR-000072', message: 'Purchase requisition submitted successfully!' },
    });
    const onSuccess = vi.fn();
    await renderSignedIn(<PurchaseRequisitionForm onSuccess={onSuccess} />);
    await fill();
    const total = screen.getByLabelText<HTMLInputElement>(/Estimated total/);
    expect(total.value).toBe('59.97');
    fireEvent.change(screen.getByLabelText(/Quantity/), { target: { value: '2' } });
    expect(total.value).toBe('39.98');
    fireEvent.change(total, { target: { value: '40.00' } });
    expect(total.value).toBe('40.00');
    // The server's rule, checked on the client with the server's schema: the total must be quantity x unit cost.
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Estimated total must equal quantity x unit cost')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/purchase-requisition/submit')).toBe(false);
    fireEvent.change(total, { target: { value: '39.98' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledWith('Purchase requisition submitted successfully!', 'PR-000072'));
    expect(calls.find((c) => c.key === 'POST /api/purchase-requisition/submit')?.body).toEqual({
      employee_id: 'EMP-1001',
      employee_name: 'Alex Johnson',
      department: 'Engineering',
      manager: 'Priya Sharma',
      item_description: 'Chairs',
      quantity: 2,
      unit_cost: 19.99,
      estimated_total: 39.98,
      purpose_of_purchase: 'New hires',
    });
  });

  it('validates before sending: required fields and a whole quantity of at least 1', async () => {
    await renderSignedIn(<PurchaseRequisitionForm onSuccess={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Item description is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/Quantity/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Quantity must be at least 1')).toBeTruthy();
    // The server's messages for the other fields too ('Unit cost (USD) ...' as the registry labels it).
    fireEvent.change(screen.getByLabelText(/Unit cost/), { target: { value: '1.234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Unit cost (USD) must have at most 2 decimals')).toBeTruthy();
    expect(calls.some((c) => c.key === 'POST /api/purchase-requisition/submit')).toBe(false);
  });

  it("shows 'Error: ' plus the server text, or the network failure text", async () => {
    routes['POST /api/purchase-requisition/submit'] = () => ({
      status: 400,
      body: { error: 'Estimated total must equal quantity x unit cost' },
    });
    await renderSignedIn(<PurchaseRequisitionForm onSuccess={() => undefined} />);
    await fill();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Error: Estimated total must equal quantity x unit cost')).toBeTruthy();
    routes['POST /api/purchase-requisition/submit'] = () => {
      throw new TypeError('Failed to fetch');
    };
    fireEvent.click(screen.getByRole('button', { name: 'Submit Requisition' }));
    expect(await screen.findByText('Failed to submit purchase requisition. Please try again.')).toBeTruthy();
  });
});

describe('YourFormsList', () => {
  const subs = flattenUserForms({
    'leave-request': [
      record({ id: 2, request_id: 'LR-000002', form_type: 'leave-request', status: 'Approved', created_at: '2027-01-05T09:00:00Z' }),
      record({ id: 3, request_id: 'LR-000003', form_type: 'leave-request', created_at: '2027-02-05T09:00:00Z' }),
    ],
    'purchase-requisition': [record({})],
  });

  it("shows 'Loading your forms...' and both empty texts", async () => {
    const { rerender } = await renderSignedIn(<YourFormsList submissions={[]} loading onViewDetails={() => undefined} />);
    expect(screen.getByText('Loading your forms...')).toBeTruthy();
    rerender(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <YourFormsList submissions={[]} onViewDetails={() => undefined} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(screen.getByText('No Forms Found')).toBeTruthy();
    expect(screen.getByText(NO_FORMS_YET)).toBeTruthy();
    rerender(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <YourFormsList submissions={subs} status="Rejected" onViewDetails={() => undefined} />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(screen.getByText(NO_FORMS_MATCH)).toBeTruthy();
  });

  it("an error state does not also say 'You haven't submitted any forms yet'", async () => {
    await renderSignedIn(<YourFormsList submissions={[]} error="Your forms could not be loaded." onViewDetails={() => undefined} />);
    expect(screen.getByText('Your forms could not be loaded.')).toBeTruthy();
    expect(screen.queryByText(NO_FORMS_YET)).toBeNull();
    expect(screen.queryByText('No Forms Found')).toBeNull();
  });

  it("lists newest first with '#n of total' and opens details", async () => {
    const onView = vi.fn();
    await renderSignedIn(<YourFormsList submissions={subs} onViewDetails={onView} />);
    const rows = screen.getAllByTestId('form-row');
    expect(rows.map((r) => r.getAttribute('data-request-id'))).toEqual(['LR-000003', 'PR-000001', 'LR-000002']);
    expect(within(rows[0]).getByText('#2 of 2')).toBeTruthy();
    expect(within(rows[2]).getByText('#1 of 2')).toBeTruthy();
    fireEvent.click(within(rows[1]).getByRole('button', { name: /View Details/ }));
    expect(onView.mock.calls[0][0].request_id).toBe('PR-000001');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Finance' } });
    expect(screen.getAllByTestId('form-row')).toHaveLength(1);
  });
});

describe('FormDetailsModal', () => {
  const sub = flattenUserForms({ 'purchase-requisition': [record({})] })[0];

  it('shows the chain, the rejection reason, the next stage and the details card', async () => {
    routes['GET /api/forms/details/1'] = () => ({
      status: 200,
      body: record({
        status: 'Rejected',
        line_manager_approval: 'Approved',
        line_manager_signature: 'Priya Sharma',
        line_manager_date: '2027-01-11',
        finance_approval: 'Rejected',
        finance_rejected_reason: 'Budget frozen',
        item_description: 'Chairs',
        quantity: 2,
        unit_cost: 20,
        estimated_total: 40,
        purpose_of_purchase: 'New hires',
      }),
    });
    await renderSignedIn(<FormDetailsModal open submission={sub} siblings={[sub]} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Purchase Requisition Details' });
    await within(dialog).findByText('Budget frozen');
    const steps = within(dialog).getAllByTestId('approval-step');
    expect(steps.map((s) => [s.textContent?.includes('Line Manager'), s.getAttribute('data-colour')])).toEqual([
      [true, 'green'],
      [false, 'red'],
    ]);
    expect(within(dialog).getByText('Rejection Reason')).toBeTruthy();
    expect(within(dialog).getByTestId('next-stage').textContent).toBe('Processing');
    expect(within(dialog).getByText('USD $40.00')).toBeTruthy();
    expect(within(dialog).getByRole('navigation', { name: 'Your Submissions' }).textContent).toContain('#1');
    // a decided request offers no withdrawal
    expect(within(dialog).queryByRole('button', { name: 'Withdraw request' })).toBeNull();
  });

  it("shows Edit and Withdraw as the server's details answer says: once a stage is decided, withdraw only", async () => {
    // waiting on its second stage (the manager approved): the server refuses an edit and allows a withdrawal
    routes['GET /api/forms/details/1'] = () => ({
      status: 200,
      body: record({
        line_manager_approval: 'Approved',
        finance_approval: 'Pending',
        status: 'Pending',
        can_edit: false,
        can_withdraw: true,
      }),
    });
    await renderSignedIn(<FormDetailsModal open submission={sub} siblings={[sub]} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Purchase Requisition Details' });
    expect(await within(dialog).findByRole('button', { name: 'Withdraw request' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Edit request' })).toBeNull();
  });

  it("shows '❌ Error' and 'Failed to load form details' when the details cannot be loaded", async () => {
    routes['GET /api/forms/details/1'] = () => ({ status: 500, body: { error: 'Internal server error' } });
    await renderSignedIn(<FormDetailsModal open submission={sub} siblings={[sub]} onClose={() => undefined} />);
    expect(await screen.findByText('❌ Error')).toBeTruthy();
    expect(screen.getByText('Failed to load form details')).toBeTruthy();
  });

  it('lets the owner withdraw a pending request after confirming: one POST to its withdraw endpoint, then it reads Withdrawn', async () => {
    // the server's record: pending until the withdrawal arrives, Cancelled after it
    let withdrawn = false;
    const pending = { line_manager_approval: 'Pending', finance_approval: 'Pending' };
    routes['GET /api/forms/details/1'] = () => ({
      status: 200,
      body: record({ ...pending, status: withdrawn ? 'Cancelled' : 'Pending', can_edit: !withdrawn, can_withdraw: !withdrawn }),
    });
    routes['POST /api/forms/purchase-requisition/PR-000001/withdraw'] = () => {
      withdrawn = true;
      return { status: 200, body: record({ ...pending, status: 'Cancelled' }) };
    };
    await renderSignedIn(<FormDetailsModal open submission={sub} siblings={[sub]} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Purchase Requisition Details' });
    const details = await within(dialog).findByTestId('form-details');
    expect(within(details).getByTestId('next-stage').textContent).toBe('Awaiting Manager Approval');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Withdraw request' }));
    // asking first: 'Keep it' sends nothing
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw request' }));
    expect(within(dialog).getByRole('group', { name: 'Confirm withdrawal' }).textContent).toContain('Withdraw PR-000001?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await screen.findByText('PR-000001 withdrawn')).toBeTruthy();
    const posts = calls.filter((c) => c.key.startsWith('POST '));
    expect(posts).toEqual([{ key: 'POST /api/forms/purchase-requisition/PR-000001/withdraw', body: {} }]);
    // the details reload and show the withdrawn request, with nothing left to withdraw
    await waitFor(() => expect(within(dialog).getByTestId('next-stage').textContent).toBe('Withdrawn'));
    expect(within(dialog).getAllByText('Cancelled').length).toBeGreaterThan(0);
    expect(within(dialog).queryByRole('button', { name: 'Withdraw request' })).toBeNull();
    expect(within(dialog).queryByRole('group', { name: 'Confirm withdrawal' })).toBeNull();
  });
});

describe('Catalogue', () => {
  it("counts the available forms and shows 'No Forms Found' for a search without results", async () => {
    await renderSignedIn(<Catalogue onOpen={() => undefined} onClose={() => undefined} />);
    expect(screen.getByTestId('catalogue-count').textContent).toBe(`${FORM_TYPES.length} forms available`);
    expect(screen.queryByText('Coming soon')).toBeNull();
    fireEvent.change(screen.getByLabelText('Search forms'), { target: { value: 'qwertyuiop' } });
    expect(screen.getByText('No Forms Found')).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filter criteria.')).toBeTruthy();
  });

  it('opens every form type, and says who really decides each', async () => {
    const onOpen = vi.fn();
    await renderSignedIn(<Catalogue onOpen={onOpen} onClose={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Purchase Requisition Form: open the form' }));
    expect(onOpen.mock.calls[0][0].id).toBe('FIN-PR-08');
    const leave = screen.getByRole('button', { name: 'Leave Request Form: open the form' });
    expect(within(leave).getByTestId('approval-chain').textContent).toBe('Line Manager → HR');
    fireEvent.click(leave);
    expect(onOpen.mock.calls[1][0].formType).toBe('leave-request');
    expect(screen.getAllByRole('button', { name: /: open the form$/ })).toHaveLength(FORM_TYPES.length);
    // The spec's facility access text names Line Manager and Security Officer; the registry's chain decides.
    const facility = screen.getByRole('button', { name: 'Facility Access Booking Form: open the form' });
    expect(within(facility).getByTestId('approval-chain').textContent).toBe('Facilities Desk → Facilities Manager');
  });
});
