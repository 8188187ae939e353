// @vitest-environment happy-dom
// The form-type editor: names follow labels, the field and chain editors' own checks put their message on the
// control they are about and send nothing, a clean draft sends the payload, and the server's refusal lands
// beside the control it names.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client';
import { ToastProvider } from '../../ui';
import {
  type TypeDraft,
  draftOf,
  emptyDraft,
  serverError,
  nameFromLabel,
  newField,
  newStage,
  payloadOf,
  slugFromTitle,
  validateDraft,
} from './draft';
import { FormTypeDialog } from './FormTypeDialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

type Call = { url: string; method: string; body: unknown };

function fakeFetch(answer: (c: Call) => { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const c = { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(init.body as string) : undefined };
    calls.push(c);
    const a = answer(c);
    return new Response(a.body === undefined ? '' : JSON.stringify(a.body), { status: a.status });
  });
  return calls;
}

function wrap(children: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>,
  );
}

const groups = { groups: [{ name: 'travel_desk', title: 'Travel desk' }] };

function draft(patch: Partial<TypeDraft> = {}): TypeDraft {
  const d = emptyDraft();
  d.title = 'Conference travel';
  d.form_type = 'conference-travel';
  d.description = 'Travel to a conference';
  d.fields = [
    { ...newField(), label: 'Conference', name: 'conference' },
    { ...newField(), label: 'Cost', name: 'cost', type: 'money', min: '0' },
    { ...newField(), label: 'Class', name: 'class', type: 'choice', options: 'Economy\nBusiness', required: false },
  ];
  d.chain = [
    newStage('line_manager'),
    { ...newStage('group'), group: 'finance', conditional: true, field: 'cost', op: '>', value: '5000' },
  ];
  return { ...d, ...patch };
}

describe('draft rules', () => {
  it('derives field names from labels and type ids from titles', () => {
    expect(nameFromLabel('Amount (USD)')).toBe('amount_usd');
    expect(nameFromLabel('  Café visits 2027 ')).toBe('cafe_visits_2027');
    expect(slugFromTitle('Conference Travel 2027')).toBe('conference-travel');
  });

  it('accepts a clean draft and builds the API payload', () => {
    const d = draft();
    expect(validateDraft(d, true)).toEqual({});
    expect(payloadOf(d)).toEqual({
      form_type: 'conference-travel',
      title: 'Conference travel',
      category: 'Other',
      icon: 'FileText',
      description: 'Travel to a conference',
      enabled: true,
      fields: [
        { name: 'conference', label: 'Conference', type: 'text', required: true },
        { name: 'cost', label: 'Cost', type: 'money', required: true, min: 0 },
        { name: 'class', label: 'Class', type: 'choice', required: false, options: ['Economy', 'Business'] },
      ],
      chain: [{ approver: 'line_manager' }, { approver: 'group:finance', when: { field: 'cost', op: '>', value: 5000 } }],
    });
  });

  it('names each mistake at its place', () => {
    const d = draft({ title: ' ', form_type: 'Bad Id' });
    d.fields = [
      { ...newField(), label: '', name: '' },
      { ...newField(), label: 'Cost', name: 'cost', type: 'number', min: '10', max: '5' },
      { ...newField(), label: 'Cost', name: 'cost', type: 'choice', options: 'Only one' },
    ];
    d.chain = [
      { ...newStage('group'), group: '' },
      { ...newStage('person'), person: '' },
      { ...newStage('line_manager'), conditional: true, field: 'class', op: '>', value: 'x' },
      { ...newStage('line_manager'), conditional: true, field: 'cost', op: '>', value: 'lots' },
    ];
    const e = validateDraft(d, true);
    expect(e).toMatchObject({
      title: 'Title is required',
      form_type: expect.stringContaining('lower-case letters and dashes'),
      'fields.0.label': 'Label is required',
      'fields.1.max': 'Maximum cannot be less than the minimum',
      'fields.2.name': expect.stringContaining('already has the name cost'),
      'fields.2.options': 'A choice needs at least two options, one a line',
      'chain.0.approver': 'Choose a group',
      'chain.1.approver': 'Choose a person',
      'chain.2.field': 'Choose the field the condition is about',
      'chain.3.value': 'The value must be a number',
    });
  });

  it('refuses an order on a choice, an empty chain and, on a type in use, a new required field', () => {
    const d = draft();
    d.chain = [{ ...newStage('line_manager'), conditional: true, field: 'class', op: '>', value: 'Business' }];
    expect(validateDraft(d, false)['chain.0.op']).toBe('Class can only be compared with "is" or "is not"');
    expect(validateDraft(draft({ chain: [], fields: [] }), false)).toMatchObject({
      chain: 'Add at least one approval stage',
      fields: 'Add at least one field',
    });
    const used = draft();
    used.fields = used.fields.map((f) => ({ ...f, stored: true }));
    used.fields.push({ ...newField(), label: 'Hotel', name: 'hotel', required: true });
    expect(validateDraft(used, false, true)).toEqual({ 'fields.3.required': 'Requests exist already: a new field must be optional' });
  });

  it('places a server refusal by its path, its validation prefix or what it names', () => {
    const err = (body: unknown, msg = 'x') => new ApiError(400, msg, body);
    const place = (e: unknown) => serverError(e, draft()).place;
    expect(place(err({ error: 'x', field: 'fields[1].options' }))).toBe('fields.1.options');
    expect(place(err({ error: 'x', path: ['chain', 2, 'when', 'value'] }))).toBe('chain.2.value');
    expect(place(err({ error: 'x', path: 'chain.0.approver' }))).toBe('chain.0.approver');
    expect(place(err({ error: 'x', field: 'form_type' }))).toBe('form_type');
    expect(serverError(err({}, 'body/fields/1/label Label is required'))).toEqual({
      place: 'fields.1.label',
      message: 'Label is required',
    });
    expect(place(err({}, 'Unknown group: finance'))).toBe('chain.1.approver');
    expect(place(err({}, 'A required field (conference) cannot be added: requests exist; add it as optional'))).toBe('fields.0.required');
    expect(place(err({}, 'The condition on Cost needs a number'))).toBe('chain.1.value');
    expect(place(err({}, 'Form type conference-travel already exists'))).toBe('form_type');
    expect(place(err({}, 'Something else'))).toBe('');
    expect(serverError(new Error('network'))).toEqual({ place: '', message: 'network' });
  });
});

describe('FormTypeDialog', () => {
  it('shows the checks beside their controls and sends nothing until they pass', async () => {
    const calls = fakeFetch((c) => (c.url.startsWith('/api/admin/groups') ? { status: 200, body: groups } : { status: 201, body: {} }));
    wrap(<FormTypeDialog formType={null} onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create form type' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Label is required')).toBeTruthy();
    expect(screen.getByLabelText(/^Title/).getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    // Typing a label names the field; the type id follows the title.
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Team offsite' } });
    expect(screen.getByLabelText<HTMLInputElement>(/^Form type id/).value).toBe('team-offsite');
    fireEvent.change(screen.getByLabelText(/^Label/), { target: { value: 'Venue name' } });
    expect(screen.getByLabelText<HTMLInputElement>(/^Name/).value).toBe('venue_name');
    expect(screen.queryByText('Title is required')).toBeNull();

    // A choice without options, and a group stage without a group.
    fireEvent.change(screen.getByLabelText(/^Type/), { target: { value: 'choice' } });
    fireEvent.change(screen.getByLabelText(/^Approved by/), { target: { value: 'group' } });
    fireEvent.change(screen.getByLabelText(/^Description/), { target: { value: 'An away day' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create form type' }));
    expect(await screen.findByText('A choice needs at least two options, one a line')).toBeTruthy();
    expect(screen.getByText('Choose a group')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    // The administrator's own groups are offered beside the built-in ones.
    expect(within(screen.getByLabelText(/^Group/)).getByRole('option', { name: 'Travel desk' })).toBeTruthy();
  });

  it('adds, reorders and removes fields and stages, then sends the payload; the server refusal shows by its field', async () => {
    const calls = fakeFetch((c) => {
      if (c.url.startsWith('/api/admin/groups')) return { status: 200, body: groups };
      if (c.method === 'POST') return { status: 400, body: { error: 'Unknown group: travel_desk', field: 'chain.1.approver' } };
      return { status: 200, body: {} };
    });
    wrap(<FormTypeDialog formType={null} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Team offsite' } });
    fireEvent.change(screen.getByLabelText(/^Description/), { target: { value: 'An away day' } });
    fireEvent.change(screen.getByLabelText(/^Label/), { target: { value: 'Venue' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const second = screen.getByRole('listitem', { name: 'Field 2' });
    fireEvent.change(within(second).getByLabelText(/^Label/), { target: { value: 'Budget' } });
    fireEvent.change(within(screen.getByRole('listitem', { name: 'Field 2 (Budget)' })).getByLabelText(/^Type/), {
      target: { value: 'money' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Move Field 2 (Budget) up' }));
    expect(screen.getAllByRole('listitem', { name: /^Field \d/ }).map((li) => li.getAttribute('aria-label'))).toEqual([
      'Field 1 (Budget)',
      'Field 2 (Venue)',
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Field 3' }));

    fireEvent.click(screen.getByRole('button', { name: 'Add stage' }));
    const stage2 = screen.getByRole('listitem', { name: 'Stage 2' });
    fireEvent.change(within(stage2).getByLabelText(/^Approved by/), { target: { value: 'group' } });
    await waitFor(() => expect(within(stage2).getByRole('option', { name: 'Travel desk' })).toBeTruthy());
    fireEvent.change(within(stage2).getByLabelText(/^Group/), { target: { value: 'travel_desk' } });
    fireEvent.click(within(stage2).getByLabelText(/Only when/));
    fireEvent.change(within(stage2).getByLabelText(/^Field/), { target: { value: 'budget' } });
    fireEvent.change(within(stage2).getByLabelText(/^Operator/), { target: { value: '>=' } });
    fireEvent.change(within(stage2).getByLabelText(/^Value/), { target: { value: '2500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create form type' }));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe('/api/admin/form-types');
    expect(post.body).toMatchObject({
      form_type: 'team-offsite',
      fields: [
        { name: 'budget', label: 'Budget', type: 'money', required: true },
        { name: 'venue', label: 'Venue', type: 'text', required: true },
      ],
      chain: [{ approver: 'line_manager' }, { approver: 'group:travel_desk', when: { field: 'budget', op: '>=', value: 2500 } }],
    });
    // The refusal: at the top and beside the group it names.
    const msgs = await screen.findAllByText('Unknown group: travel_desk');
    expect(msgs.length).toBe(2);
    expect(within(screen.getByRole('listitem', { name: 'Stage 2' })).getByText('Unknown group: travel_desk')).toBeTruthy();
  });

  it('puts a validation refusal without a path field beside the control its message names', async () => {
    fakeFetch((c) => {
      if (c.url.startsWith('/api/admin/groups')) return { status: 200, body: groups };
      return { status: 400, body: { error: 'body/fields/0/label Label is too long' } };
    });
    wrap(<FormTypeDialog formType={null} onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Team offsite' } });
    fireEvent.change(screen.getByLabelText(/^Description/), { target: { value: 'An away day' } });
    fireEvent.change(screen.getByLabelText(/^Label/), { target: { value: 'Venue' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create form type' }));
    expect(await screen.findAllByText('Label is too long')).toHaveLength(2);
    expect(screen.getByLabelText(/^Label/).getAttribute('aria-invalid')).toBe('true');
  });

  it('edits a type in use: stored fields keep their name and type, and the save is a PUT of the whole type', async () => {
    const stored = {
      form_type: 'team-offsite',
      title: 'Team offsite',
      category: 'Other',
      icon: 'Bus',
      description: 'An away day',
      enabled: true,
      version: 3,
      in_use: 4,
      fields: [{ name: 'venue', label: 'Venue', type: 'text', required: true }],
      chain: [{ approver: 'person:EMP-1002' }],
    };
    const calls = fakeFetch((c) => {
      if (c.url.startsWith('/api/admin/groups')) return { status: 200, body: groups };
      if (c.method === 'PUT') return { status: 200, body: { ...stored, version: 4 } };
      return { status: 200, body: stored };
    });
    wrap(<FormTypeDialog formType="team-offsite" onClose={() => {}} />);
    expect(await screen.findByText(/changes apply to requests submitted from now on/)).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>(/^Name/).disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove Field 1 (Venue)' }).disabled).toBe(true);
    expect(screen.getByTestId('chosen-person').textContent).toContain('EMP-1002');
    fireEvent.click(screen.getByRole('button', { name: 'Add field' }));
    fireEvent.change(within(screen.getByRole('listitem', { name: 'Field 2' })).getByLabelText(/^Label/), { target: { value: 'Notes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.url).toBe('/api/admin/form-types/team-offsite');
    expect(put.body).toMatchObject({
      fields: [
        { name: 'venue', required: true },
        { name: 'notes', label: 'Notes', required: false },
      ],
      chain: [{ approver: 'person:EMP-1002' }],
    });
  });
});

describe("a built-in chain through the editor's draft", () => {
  it("keeps the requester's HR contact (and every other stage) unchanged from the API's type to the payload", () => {
    const chain = [
      { approver: 'line_manager' },
      { approver: 'hr_contact' },
      { approver: 'group:finance' },
      { approver: 'managers_manager' },
      { approver: 'person:E042' },
    ];
    const type = {
      form_type: 'leave-request',
      title: 'Leave Request',
      category: 'Human Resources' as const,
      description: 'Time off.',
      enabled: true,
      icon: 'Calendar',
      keywords: [],
      fields: [{ name: 'reason', label: 'Reason', type: 'text' as const, required: true }],
      chain,
      builtin: true,
    };
    expect(payloadOf(draftOf(type, false)).chain).toEqual(chain);
  });
});
