// @vitest-environment happy-dom
// One details renderer for both sides, driven by the registry: for every registry type (and a type registered at
// run time) the employee's details modal, the approver's details modal and, for IT tickets, the IT desk's details
// dialog show the same rows, read from the registry's details card; the approvers' side adds exactly the card's
// rows marked for approvers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { FORM_TYPES, type FieldDef, type FormTypeDef, detailsOf, formTypeDef, registerFormType } from '../../domain/forms';
import { jsonResponse, renderSignedIn, testUser } from '../test/signed-in';
import { DetailsModal } from '../approvals/DetailsModal';
import type { QueueRecord } from '../approvals/api';
import { TicketDetailsDialog } from '../it-desk/TicketDetailsDialog';
import type { ItTicket } from '../it-desk/api';
import { RecordFields } from './FormDetailsModal';
import type { FormRecord } from './types';

const RETREAT: FormTypeDef = {
  formType: 'team-retreat',
  title: 'Team Retreat',
  category: 'Human Resources',
  icon: 'Plane',
  idPrefix: 'RET',
  chain: ['line_manager'],
  catalogue: { description: 'Plan a team retreat.', estimatedTime: '5 min', priority: 'low' },
  details: {
    title: 'Retreat Details',
    fields: [
      { name: 'venue', label: 'Venue' },
      { name: 'budget', label: 'Budget (USD)', kind: 'money' },
      { name: 'venue_confirmed', label: 'Venue confirmed by', audience: 'approver', emptyText: 'Not yet' },
    ],
  },
  keywords: ['retreat'],
  fields: [
    { name: 'venue', label: 'Venue', type: 'text', required: true, question: 'Where?' },
    { name: 'budget', label: 'Budget (USD)', type: 'money', required: true, question: 'How much?' },
  ],
};

const alex = testUser({ role: 'HR Officer', user_type: 'hr' });

function sampleValue(type: string, f?: FieldDef): unknown {
  switch (type) {
    case 'date':
      return '2027-03-01';
    case 'time':
      return '09:30';
    case 'integer':
    case 'number':
      return 3;
    case 'money':
      return 120.5;
    case 'enum':
      return f?.options?.[0] ?? 'Option';
    default:
      return `Sample ${f?.name ?? 'text'}`;
  }
}

/** A record of the type: every field and every details-card field filled (computed rows left to the renderer). */
function sampleRecord(formType: string): FormRecord {
  const def = formTypeDef(formType)!;
  const rec: FormRecord = {
    id: 7,
    request_id: `${def.idPrefix}-000007`,
    form_id: `${def.idPrefix}-000007`,
    form_type: formType,
    status: 'Pending',
    created_at: '2026-11-24T10:00:00Z',
    employee_id: 'EMP-1001',
    employee_user_id: 15,
    employee_name: 'Alex Johnson',
    department: 'Engineering',
    current_stage: def.chain[0],
    extra_note: 'Something the workflow added',
  };
  for (const f of def.fields) rec[f.name] = sampleValue(f.type, f);
  for (const d of detailsOf(formType)?.fields ?? []) {
    if (d.value) continue;
    if (d.emptyText !== undefined) continue; // left blank: the row shows its empty text
    if (rec[d.name] === undefined) rec[d.name] = sampleValue(d.kind === 'long' ? 'text' : (d.kind ?? 'text'), { name: d.name } as FieldDef);
  }
  return rec;
}

let record: FormRecord;
const json = jsonResponse;

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
      if (key === 'GET /api/auth/me') return json(200, { user: alex });
      if (key === 'GET /api/hr/form-details' || key === 'GET /api/it-support/form-details') return json(200, record);
      if (key.startsWith('GET /api/forms/details/')) return json(200, record);
      return json(404, { error: `No route ${key}` });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The [label, value] rows of a details list. */
function rowsOf(dl: HTMLElement): string[][] {
  return within(dl)
    .getAllByRole('term')
    .map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']);
}

async function employeeRows(rec: FormRecord): Promise<string[][]> {
  const view = await renderSignedIn(<RecordFields record={rec} />);
  const rows = rowsOf(view.container.querySelector<HTMLElement>('section dl')!);
  cleanup();
  return rows;
}

async function approverRows(rec: FormRecord): Promise<string[][]> {
  await renderSignedIn(<DetailsModal role="hr" target={rec as unknown as QueueRecord} onClose={() => undefined} />);
  const heading = await screen.findByRole('heading', { name: 'Details' });
  const rows = rowsOf(heading.parentElement!.querySelector('dl')!);
  cleanup();
  return rows;
}

async function itDeskRows(rec: FormRecord): Promise<string[][]> {
  await renderSignedIn(<TicketDetailsDialog ticket={rec as unknown as ItTicket} open onClose={() => undefined} />);
  const dl = await screen.findByTestId('type-details');
  const rows = rowsOf(dl);
  cleanup();
  return rows;
}

/** The labels of the card's approver-only rows. */
const approverOnly = (formType: string) =>
  new Set((detailsOf(formType)?.fields ?? []).filter((f) => f.audience === 'approver').map((f) => f.label));

async function checkType(formType: string) {
  record = sampleRecord(formType);
  const employee = await employeeRows(record);
  const approver = await approverRows(record);
  expect(employee.length, formType).toBeGreaterThan(0);
  // the approvers' rows are the employee's plus the card's approver rows, in the card's order
  const only = approverOnly(formType);
  expect(
    approver.filter(([label]) => !only.has(label)),
    formType,
  ).toEqual(employee);
  expect(approver.filter(([label]) => only.has(label)).length, formType).toBe(only.size);
  if (formTypeDef(formType)!.kind === 'it-ticket') expect(await itDeskRows(record), formType).toEqual(approver);
  // the registry's details labels are what both sides show
  const card = detailsOf(formType);
  if (card) {
    const shown = new Set(approver.map(([label]) => label));
    for (const f of card.fields) expect(shown.has(f.label), `${formType}: ${f.label}`).toBe(true);
  }
}

describe('one details renderer for the employee and approver sides', () => {
  for (const t of FORM_TYPES) {
    it(`${t.formType}: the same rows on both sides, from the registry`, async () => {
      await checkType(t.formType);
    });
  }

  it("keeps the spec's finance labels: petty cash and purchase requisition", async () => {
    record = sampleRecord('petty-cash');
    const petty = (await approverRows(record)).map(([label]) => label);
    expect(petty.slice(0, 3)).toEqual(['Amount Requested (USD)', 'Expected Settlement', 'Purpose']);
    record = sampleRecord('purchase-requisition');
    const pr = (await approverRows(record)).map(([label]) => label);
    expect(pr).toEqual(['Item Description', 'Quantity', 'Unit Cost', 'Estimated Total (USD)', 'Purpose of Purchase']);
  });

  it('renders the details card of a type registered at run time on both sides', async () => {
    registerFormType(RETREAT);
    await checkType('team-retreat');
    record = sampleRecord('team-retreat');
    expect(await approverRows(record)).toEqual([
      ['Venue', 'Sample venue'],
      ['Budget (USD)', 'USD $120.50'],
      ['Venue confirmed by', 'Not yet'],
    ]);
  });
});
