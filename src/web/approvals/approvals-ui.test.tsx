// @vitest-environment happy-dom
// The rejection dialog (quick reasons, 'n/300', 300 max, trimmed non-empty, Ctrl/Cmd+Enter, HR may send
// none), the generic details rows, and the queue helpers (status filter, tiles, local row replacement).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QUICK_REJECTION_REASONS } from '../../domain/approvals';
import { RejectionDialog } from './RejectionDialog';
import { genericRows } from './DetailsModal';
import { matchesStatus, replaceRows, tilesFromRows } from './queue-kit';
import type { QueueRecord } from './api';

afterEach(cleanup);

const target = { formType: 'petty-cash', employeeName: 'Maria Garcia', requestId: 'PC-000015' };

describe('RejectionDialog', () => {
  it('names the form type, employee and request, counts n/300 and needs a trimmed reason', () => {
    const onConfirm = vi.fn();
    render(<RejectionDialog target={target} onCancel={() => undefined} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('dialog', { name: 'Reject Request' });
    expect(dialog.textContent).toContain('petty-cash');
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
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe(pick);
    expect(screen.getByTestId('reason-counter').textContent).toBe(`${pick.length}/300`);
  });

  it('keeps at most 300 characters and submits with Ctrl+Enter or Cmd+Enter', () => {
    const onConfirm = vi.fn();
    render(<RejectionDialog target={{ ...target, formType: 'leave-request' }} onCancel={() => undefined} onConfirm={onConfirm} />);
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
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

describe('generic details', () => {
  it('lists remaining fields by name, humanised, hiding ids, signatures, approvals and empty values; booleans Yes/No', () => {
    const rows = genericRows({
      id: 1, request_id: 'NDA-000001', employee_id: 'EMP-1', form_type: 'nda-request', counterparty: 'Contoso', purpose: 'Bid',
      effective_date: '2031-01-01', employee_signature: 'Alex', employee_signature_date: '2031-01-01', line_manager_approval: 'Pending',
      line_manager_date: null, line_manager_acknowledgement: true, it_clearance: false, finance_confirmation: 'x', notes: '', urgent: true,
      line_manager_rejected_reason: '',
    });
    expect(rows).toEqual([['Counterparty', 'Contoso'], ['Effective Date', '2031-01-01'], ['Purpose', 'Bid'], ['Urgent', 'Yes']]);
  });
});

describe('queue helpers', () => {
  const rec = (id: string, state: string, extra: Partial<QueueRecord> = {}) =>
    ({ request_id: id, stage_state: state, form_type: 'petty-cash', status: 'Pending' } as unknown as QueueRecord & typeof extra);
  it('filters by the row state and counts tiles from the rows', () => {
    const rows = [rec('A', 'Pending'), rec('B', 'Approved'), rec('C', 'Rejected'), rec('D', 'Closed')];
    expect(rows.filter((r) => matchesStatus(r.stage_state, 'Pending')).map((r) => r.request_id)).toEqual(['A']);
    expect(rows.filter((r) => matchesStatus(r.stage_state, 'All'))).toHaveLength(4);
    expect(tilesFromRows(rows)).toEqual({ pending: 1, approved: 1, rejected: 1, total: 4 });
  });
  it('replaces decided rows in place (the local update after a decision)', () => {
    const rows = [rec('A', 'Pending'), rec('B', 'Pending')];
    const next = replaceRows(rows, [{ ...rec('B', 'Approved'), line_manager_signature: 'Priya Sharma' } as QueueRecord]);
    expect(next.map((r) => [r.request_id, r.stage_state])).toEqual([['A', 'Pending'], ['B', 'Approved']]);
    expect(next[1].line_manager_signature).toBe('Priya Sharma');
    expect(tilesFromRows(next)).toEqual({ pending: 1, approved: 1, rejected: 0, total: 2 });
  });
});
