// @vitest-environment happy-dom
// The rejection dialog (quick reasons, 'n/300', 300 max, trimmed non-empty, Ctrl/Cmd+Enter, HR may send
// none), the generic details rows, the queue helpers (status filter, tiles, local row replacement) and the queue table.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QUICK_REJECTION_REASONS } from '../../domain/approvals';
import { RejectionDialog } from './RejectionDialog';
import { genericRows } from '../forms/details';
import type { FormRecord } from '../forms/types';
import { matchesStatus, replaceRows, statusCounts, tilesFromRows } from './queue-kit';
import type { QueueRecord } from './api';
import { AcknowledgementNotice } from './TeamApprovals';
import { amountText, facilitiesDetails } from './labels';
import { QueueTable, createdColumn, departmentColumn, employeeColumn } from './QueueTable';

afterEach(cleanup);

const target = { formType: 'petty-cash', employeeName: 'Maria Garcia', requestId: 'PC-000015' };

describe('RejectionDialog', () => {
  it('names the form type, employee and request, counts n/300 and needs a trimmed reason', () => {
    const onConfirm = vi.fn();
    render(<RejectionDialog target={target} onCancel={() => undefined} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('dialog', { name: 'Reject Request' });
    expect(dialog.textContent).toContain('Petty Cash'); // the form's readable name, never its code
    expect(dialog.textContent).not.toContain('petty-cash');
    expect(dialog.textContent).toContain('Maria Garcia');
    expect(dialog.textContent).toContain('PC-000015');
    expect(screen.getByTestId('reason-counter').textContent).toBe('0/300');
    const confirm = screen.getByRole('button', { name: 'Reject' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    const box = screen.getByRole('textbox');
    fireEvent.change(box, { target: { value: '    ' } });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: '  Over the limit  ' } });
    expect(screen.getByTestId('reason-counter').textContent).toBe('18/300');
    fireEvent.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith('Over the limit');
  });

  it('offers the five quick reasons of the form type; choosing one fills the reason', () => {
    render(<RejectionDialog target={target} onCancel={() => undefined} onConfirm={() => undefined} />);
    for (const r of QUICK_REJECTION_REASONS['petty-cash']) expect(screen.getByRole('button', { name: r })).toBeTruthy();
    const pick = QUICK_REJECTION_REASONS['petty-cash'][1];
    fireEvent.click(screen.getByRole('button', { name: pick }));
    expect(screen.getByRole<HTMLTextAreaElement>('textbox').value).toBe(pick);
    expect(screen.getByTestId('reason-counter').textContent).toBe(`${pick.length}/300`);
  });

  it('keeps at most 300 characters and submits with Ctrl+Enter or Cmd+Enter', () => {
    const onConfirm = vi.fn();
    render(<RejectionDialog target={{ ...target, formType: 'leave-request' }} onCancel={() => undefined} onConfirm={onConfirm} />);
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    expect(box.maxLength).toBe(300);
    fireEvent.change(box, { target: { value: 'x'.repeat(350) } });
    expect(box.value).toHaveLength(300);
    expect(screen.getByTestId('reason-counter').textContent).toBe('300/300');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(box, { key: 'Enter', metaKey: true });
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('lets HR reject without a reason (an empty string is sent)', () => {
    const onConfirm = vi.fn();
    render(<RejectionDialog target={target} reasonRequired={false} onCancel={() => undefined} onConfirm={onConfirm} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(onConfirm).toHaveBeenCalledWith('');
  });

  it('bulk mode names how many requests are rejected', () => {
    render(<RejectionDialog target={{ ...target, count: 3 }} onCancel={() => undefined} onConfirm={() => undefined} />);
    expect(screen.getByRole('dialog', { name: 'Reject 3 requests' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reject 3' })).toBeTruthy();
  });

  it('Cancel closes without a reason', () => {
    const onCancel = vi.fn();
    render(<RejectionDialog target={target} onCancel={onCancel} onConfirm={() => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });
});

describe('generic details (the shared renderer the approver side uses)', () => {
  it('lists remaining fields by name, humanised, hiding ids, signatures, approvals and empty values; booleans Yes/No', () => {
    const rows = genericRows({
      id: 1,
      request_id: 'NDA-000001',
      employee_id: 'EMP-1',
      form_type: 'nda-request',
      counterparty: 'Contoso',
      purpose: 'Bid',
      effective_date: '2031-01-01',
      employee_signature: 'Alex',
      employee_signature_date: '2031-01-01',
      line_manager_approval: 'Pending',
      line_manager_date: null,
      line_manager_acknowledgement: true,
      it_clearance: false,
      finance_confirmation: 'x',
      notes: '',
      urgent: true,
      line_manager_rejected_reason: '',
      line_manager_on_behalf_of: 'Someone',
      waiting_days: 3,
    } as unknown as FormRecord).map((r) => [r.label, r.value]);
    expect(rows).toEqual([
      ['Counterparty', 'Contoso'],
      ['Effective Date', '1 Jan 2031'], // dates in the app's format, never ISO
      ['Purpose', 'Bid'],
      ['Urgent', 'Yes'],
    ]);
  });
});

describe('queue helpers', () => {
  const rec = (id: string, state: string) =>
    ({ request_id: id, stage_state: state, form_type: 'petty-cash', status: 'Pending' }) as unknown as QueueRecord;
  it('filters by the row state and counts tiles from the rows', () => {
    const rows = [rec('A', 'Pending'), rec('B', 'Approved'), rec('C', 'Rejected'), rec('D', 'Closed')];
    expect(rows.filter((r) => matchesStatus(r.stage_state, 'Pending')).map((r) => r.request_id)).toEqual(['A']);
    expect(rows.filter((r) => matchesStatus(r.stage_state, 'All'))).toHaveLength(4);
    expect(tilesFromRows(rows)).toEqual({ pending: 1, approved: 1, rejected: 1, total: 4 });
  });
  it('tiles, the status filter counts and All Forms are one number each (view-only rows included)', () => {
    const rows = [
      rec('A', 'Pending'),
      rec('B', 'Approved'),
      { ...rec('C', 'Pending'), form_type: 'it-incident', view_only: true },
      { ...rec('D', 'Closed'), form_type: 'password-reset', view_only: true },
      rec('E', ''),
    ] as QueueRecord[];
    const tiles = tilesFromRows(rows);
    const counts = statusCounts(rows);
    expect(tiles).toEqual({ pending: 3, approved: 1, rejected: 0, total: 5 });
    expect(tiles.pending).toBe(counts.Pending);
    expect(tiles.pending).toBe(rows.filter((r) => matchesStatus(r.stage_state, 'Pending')).length);
    expect(tiles.approved).toBe(counts.Approved);
    expect(tiles.rejected).toBe(counts.Rejected);
    expect(tiles.total).toBe(counts.All);
  });
  it('replaces decided rows in place (the local update after a decision)', () => {
    const rows = [rec('A', 'Pending'), rec('B', 'Pending')];
    const next = replaceRows(rows, [{ ...rec('B', 'Approved'), line_manager_signature: 'Priya Sharma' }]);
    expect(next.map((r) => [r.request_id, r.stage_state])).toEqual([
      ['A', 'Pending'],
      ['B', 'Approved'],
    ]);
    expect(next[1].line_manager_signature).toBe('Priya Sharma');
    expect(tilesFromRows(next)).toEqual({ pending: 1, approved: 1, rejected: 0, total: 2 });
  });
});

describe('acknowledgement of view-only IT items', () => {
  const it_ = (extra: Record<string, unknown>) =>
    ({ request_id: 'IT-1', form_type: 'it-incident', status: 'Open', view_only: true, ...extra }) as unknown as QueueRecord;
  it("says 'Acknowledged' once opening it acknowledged it, or when it already was", () => {
    const { rerender } = render(<AcknowledgementNotice rec={it_({})} state="saving" />);
    expect(screen.getByTestId('acknowledgement').textContent).toContain('Acknowledging this IT Incident');
    rerender(<AcknowledgementNotice rec={it_({})} state="done" />);
    expect(screen.getByTestId('acknowledgement').textContent).toContain('Acknowledged.');
    rerender(<AcknowledgementNotice rec={it_({ line_manager_acknowledgement: true })} />);
    expect(screen.getByTestId('acknowledgement').textContent).toContain('Acknowledged.');
    rerender(<AcknowledgementNotice rec={it_({})} state="failed" />);
    expect(screen.getByRole('alert').textContent).toContain('could not be saved');
    rerender(<AcknowledgementNotice rec={it_({ status: 'Cancelled' })} state="done" />);
    expect(screen.queryByTestId('acknowledgement')).toBeNull();
  });
});

describe('amounts', () => {
  it("shows every amount in the one money format ('USD $1,234.50')", () => {
    expect(amountText({ form_type: 'petty-cash', amount_requested: 1234.5 } as unknown as QueueRecord)).toBe('USD $1,234.50');
    expect(amountText({ form_type: 'purchase-requisition', quantity: 3, unit_cost: 1500 } as unknown as QueueRecord)).toMatch(
      /^USD \$4,500\.00$/,
    );
  });
});

describe('QueueTable', () => {
  const row = (id: string, formType: string, actionable: boolean): QueueRecord =>
    ({
      request_id: id,
      form_type: formType,
      employee_name: 'Maria Garcia',
      department: 'Engineering',
      created_at: '2026-11-02T09:00:00Z',
      stage_state: actionable ? 'Pending' : 'Approved',
      actionable,
    }) as unknown as QueueRecord;
  const selection = { selected: new Set<string>(), toggle: vi.fn(), toggleAll: vi.fn(), allSelected: false, anySelectable: true } as never;

  it('draws the lead column, the configured columns with their priorities, and actions only where the caller may decide', () => {
    const onApprove = vi.fn();
    render(
      <QueueTable
        caption="Team requests"
        lead="form"
        columns={[employeeColumn(), departmentColumn('4xl'), createdColumn('Created', '2xl')]}
        rows={[row('LR-000001', 'leave-request', true), row('TR-000002', 'travel-request', false)]}
        loading={false}
        selection={selection}
        busy={new Set()}
        onView={() => undefined}
        onApprove={onApprove}
        onReject={() => undefined}
      />,
    );
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(1)).toEqual(['Form', 'Employee', 'Department', 'Created', 'Actions']);
    expect(screen.getByRole('columnheader', { name: 'Department' }).className).toContain('@4xl:table-cell');
    const table = screen.getByRole('table');
    expect(table.textContent).toContain('Leave Request');
    expect(table.textContent).not.toContain('leave-request');
    expect(table.textContent).toContain('2 Nov 2026');
    // The decidable row has its checkbox (marked selectable for the card's first line) and Approve; the other neither.
    expect(screen.getByRole('checkbox', { name: 'Select LR-000001' })).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: 'Select TR-000002' })).toBeNull();
    expect(document.querySelectorAll('td[data-cell="select"][data-selectable]')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Approve LR-000001' }));
    expect(onApprove).toHaveBeenCalledWith(expect.objectContaining({ request_id: 'LR-000001' }));
    expect(screen.queryByRole('button', { name: 'Approve TR-000002' })).toBeNull();
  });
});

describe('facilities Details cell', () => {
  it("shows another type's own details (its card's first values), not the access request's fields", () => {
    const rec = {
      request_id: 'MR-000001',
      form_type: 'maintenance-request',
      location: 'Floor 3 kitchen',
      issue_description: 'The tap leaks',
      urgency: 'High',
    } as unknown as QueueRecord;
    render(<>{facilitiesDetails(rec)}</>);
    expect(screen.getByText('Floor 3 kitchen')).toBeTruthy();
    expect(screen.getByText('The tap leaks · High')).toBeTruthy();
    expect(screen.queryByText('Access')).toBeNull();
  });
});
