// Building blocks every approver dashboard shares: loading a queue with the spec's load/refresh error texts,
// the decision flow (approve, reject with the dialog, bulk, failure texts), row selection, the status
// filter, the summary tiles and the approval panel the chat's 'Go to Approval Panel' scrolls to.
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { CheckCheck, RefreshCw, X } from 'lucide-react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';
import { displayName, type User } from '../api/types';
import { Button, Card, ErrorBanner, Select, StatTile, useToast } from '../ui';
import { type BulkResult, type Decision, type QueueRecord, type QueueRole, approvalsApi } from './api';
import { RejectionDialog, type RejectionTarget } from './RejectionDialog';

// ---- loading ------------------------------------------------------------------------------------

export interface QueueMessages {
  /** The queue call answered an error status. */
  loadHttp: string;
  /** The call failed otherwise (network, bad answer). */
  loadOther: string;
  refreshHttp: string;
  refreshOther: string;
}

/** A queue loaded once per session (and on Refresh), with local updates and the spec's banner texts. */
export function useApprovalQueue<D>(key: readonly unknown[], fetcher: () => Promise<D>, messages: QueueMessages) {
  const qc = useQueryClient();
  const q = useQuery({ queryKey: key, queryFn: fetcher, staleTime: Infinity, gcTime: Infinity, retry: false });
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  const refresh = useCallback(async () => {
    setRefreshing(true);
    setRefreshError(null);
    const r = await q.refetch();
    setRefreshing(false);
    if (r.isError) setRefreshError(r.error instanceof ApiError ? messages.refreshHttp : messages.refreshOther);
    return !r.isError;
  }, [q, messages.refreshHttp, messages.refreshOther]);

  const setData = useCallback((fn: (d: D) => D) => qc.setQueryData<D>(key, (old) => (old === undefined ? old : fn(old))), [qc, key]);

  const loadError = q.isError && q.data === undefined ? (q.error instanceof ApiError ? messages.loadHttp : messages.loadOther) : null;
  return {
    data: q.data,
    isLoading: q.isPending,
    error: loadError ?? refreshError,
    dismissError: () => setRefreshError(null),
    refresh,
    refreshing: refreshing || (q.isFetching && !q.isPending),
    setData,
  };
}

/** Replaces rows by request id with the server's records (the local update after decisions). */
export function replaceRows(rows: QueueRecord[], updated: QueueRecord[]): QueueRecord[] {
  const by = new Map(updated.map((r) => [r.request_id, r]));
  return rows.map((r) => (by.has(r.request_id) ? { ...r, ...by.get(r.request_id)! } : r));
}

// ---- deciding -----------------------------------------------------------------------------------

export interface DecisionFlowOptions {
  role: QueueRole;
  user: User;
  /** Called with the decided records (after single or bulk decisions). */
  onDecided: (records: QueueRecord[]) => void | Promise<void>;
  /** Failure text style: manager/HR/desk 'Failed to approve request: …', finance and facilities manager 'Failed to update form status'. */
  failureStyle?: 'per-action' | 'update-status';
  /** HR may reject without a reason. */
  reasonRequired?: boolean;
}

export function useDecisionFlow({ role, user, onDecided, failureStyle = 'per-action', reasonRequired = true }: DecisionFlowOptions) {
  const toast = useToast();
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState<{ records: QueueRecord[]; target: RejectionTarget } | null>(null);

  const mark = (ids: string[], on: boolean) =>
    setBusy((prev) => {
      const next = new Set(prev);
      for (const id of ids)
        if (on) next.add(id);
        else next.delete(id);
      return next;
    });

  const failure = (decision: Decision, err: unknown) => {
    const detail = err instanceof Error && err.message ? err.message : '';
    if (failureStyle === 'update-status') {
      toast.error(
        detail ? (
          <>
            <strong>Failed to update form status</strong>
            <br />
            {detail}
          </>
        ) : (
          'Failed to update form status'
        ),
      );
    } else {
      const base = decision === 'Approved' ? 'Failed to approve request' : 'Failed to reject request';
      toast.error(detail ? `${base}: ${detail}` : base);
    }
  };

  async function decideOne(rec: QueueRecord, decision: Decision, reason = '') {
    mark([rec.request_id], true);
    try {
      const res = await approvalsApi.decide(role, user, rec, decision, reason);
      await onDecided([res.form]);
      toast.success(`${rec.request_id} ${decision === 'Approved' ? 'approved' : 'rejected'}`);
      return true;
    } catch (err) {
      failure(decision, err);
      return false;
    } finally {
      mark([rec.request_id], false);
    }
  }

  async function decideMany(records: QueueRecord[], decision: Decision, reason = '') {
    const ids = records.map((r) => r.request_id);
    mark(ids, true);
    try {
      const res = await approvalsApi.bulk(
        role,
        records.map((r) => ({
          form_id: r.request_id,
          decision,
          reason,
          version: r.version,
          // The generic queue names the stage decided (a request may wait on the caller at one of several).
          ...(role === 'other' && typeof r.stage === 'string' ? { stage: r.stage } : {}),
        })),
      );
      const ok = res.results.filter((r): r is BulkResult & { record: QueueRecord } => r.ok && Boolean(r.record));
      await onDecided(ok.map((r) => r.record));
      const verb = decision === 'Approved' ? 'approved' : 'rejected';
      if (res.failed === 0) toast.success(`${res.succeeded} request${res.succeeded === 1 ? '' : 's'} ${verb}`);
      else {
        const failed = res.results.filter((r) => !r.ok);
        toast.error(
          <>
            <strong>
              {res.succeeded} {verb}, {res.failed} not decided
            </strong>
            <ul className="mt-1 list-disc pl-4">
              {failed.slice(0, 5).map((f) => (
                <li key={f.form_id}>
                  {f.form_id}: {f.error}
                </li>
              ))}
            </ul>
          </>,
        );
      }
      return res;
    } catch (err) {
      failure(decision, err);
      return null;
    } finally {
      mark(ids, false);
    }
  }

  const approve = (rec: QueueRecord) => void decideOne(rec, 'Approved');
  const reject = (rec: QueueRecord) =>
    setRejecting({ records: [rec], target: { formType: rec.form_type, employeeName: rec.employee_name, requestId: rec.request_id } });
  const approveMany = (records: QueueRecord[]) => decideMany(records, 'Approved');
  const rejectMany = (records: QueueRecord[]) => {
    const types = new Set(records.map((r) => r.form_type));
    setRejecting({
      records,
      target: { formType: types.size === 1 ? records[0].form_type : 'multiple', employeeName: '', requestId: '', count: records.length },
    });
  };

  const [dialogBusy, setDialogBusy] = useState(false);
  const dialog = (
    <RejectionDialog
      target={rejecting?.target ?? null}
      reasonRequired={reasonRequired}
      busy={dialogBusy}
      onCancel={() => setRejecting(null)}
      onConfirm={async (reason) => {
        if (!rejecting) return;
        setDialogBusy(true);
        const recs = rejecting.records;
        if (recs.length === 1) await decideOne(recs[0], 'Rejected', reason);
        else await decideMany(recs, 'Rejected', reason);
        setDialogBusy(false);
        setRejecting(null);
      }}
    />
  );

  return { approve, reject, approveMany, rejectMany, busy, dialog, signerName: displayName(user) };
}

// ---- selection ----------------------------------------------------------------------------------

export function useSelection(rows: QueueRecord[]) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const selectable = useMemo(() => rows.filter((r) => r.actionable), [rows]);
  // Only rows that are still on screen and decidable stay selected.
  const live = useMemo(() => {
    const ids = new Set(selectable.map((r) => r.request_id));
    return new Set([...selected].filter((id) => ids.has(id)));
  }, [selected, selectable]);
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allSelected = selectable.length > 0 && selectable.every((r) => live.has(r.request_id));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(selectable.map((r) => r.request_id)));
  return {
    selected: live,
    selectedRows: selectable.filter((r) => live.has(r.request_id)),
    toggle,
    toggleAll,
    allSelected,
    anySelectable: selectable.length > 0,
    clear: () => setSelected(new Set()),
  };
}

export function RowCheckbox({ rec, selection }: { rec: QueueRecord; selection: ReturnType<typeof useSelection> }) {
  if (!rec.actionable) return <span className="inline-block w-4" aria-hidden="true" />;
  return (
    <input
      type="checkbox"
      className="h-4 w-4 rounded border-gray-300 text-indigo-600 focus:ring-indigo-600"
      checked={selection.selected.has(rec.request_id)}
      onChange={() => selection.toggle(rec.request_id)}
      aria-label={`Select ${rec.request_id}`}
    />
  );
}

export function SelectAllCheckbox({ selection }: { selection: ReturnType<typeof useSelection> }) {
  return (
    <input
      type="checkbox"
      className="h-4 w-4 rounded border-gray-300 text-indigo-600 focus:ring-indigo-600 disabled:opacity-40"
      checked={selection.allSelected}
      disabled={!selection.anySelectable}
      onChange={selection.toggleAll}
      aria-label="Select all decidable requests shown"
    />
  );
}

export function BulkBar({
  selection,
  onApprove,
  onReject,
}: {
  selection: ReturnType<typeof useSelection>;
  onApprove: (rows: QueueRecord[]) => unknown;
  onReject: (rows: QueueRecord[]) => unknown;
}) {
  const n = selection.selectedRows.length;
  if (n === 0) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm"
      role="region"
      aria-label="Bulk actions"
      data-testid="bulk-bar"
    >
      <span className="font-medium text-indigo-900">{n} selected</span>
      <Button
        size="sm"
        icon={<CheckCheck className="h-4 w-4" aria-hidden="true" />}
        onClick={async () => {
          await onApprove(selection.selectedRows);
          selection.clear();
        }}
      >
        Approve selected
      </Button>
      <Button size="sm" variant="danger" onClick={() => onReject(selection.selectedRows)}>
        Reject selected
      </Button>
      <Button size="sm" variant="ghost" icon={<X className="h-4 w-4" aria-hidden="true" />} onClick={selection.clear}>
        Clear
      </Button>
    </div>
  );
}

// ---- layout pieces ------------------------------------------------------------------------------

export type StatusFilterValue = 'All' | 'Pending' | 'Approved' | 'Rejected';
export const STATUS_FILTERS: StatusFilterValue[] = ['All', 'Pending', 'Approved', 'Rejected'];

export function StatusFilter({
  value,
  onChange,
  counts,
}: {
  value: StatusFilterValue;
  onChange: (v: StatusFilterValue) => void;
  /** Rows per option, shown as 'Pending (n)': the same numbers as the tiles. */
  counts?: Record<StatusFilterValue, number>;
}) {
  return (
    <Select
      label="Status"
      value={value}
      onChange={(e) => onChange(e.target.value as StatusFilterValue)}
      wrapperClassName="w-40"
      data-testid="status-filter"
    >
      {STATUS_FILTERS.map((s) => (
        <option key={s} value={s}>
          {counts ? `${s} (${counts[s]})` : s}
        </option>
      ))}
    </Select>
  );
}

/** Does a row's state (Pending / Approved / Rejected / Closed) pass the status filter? */
export function matchesStatus(state: string | undefined, filter: StatusFilterValue): boolean {
  if (filter === 'All') return true;
  return (state || 'Pending') === filter;
}

export interface Tiles {
  pending: number;
  approved: number;
  rejected: number;
  total: number;
}

export function SummaryTiles({ tiles, totalLabel }: { tiles: Tiles; totalLabel: string }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="summary-tiles">
      <StatTile label="Pending" value={tiles.pending} tone="warning" />
      <StatTile label="Approved" value={tiles.approved} tone="success" />
      <StatTile label="Rejected" value={tiles.rejected} tone="danger" />
      <StatTile label={totalLabel} value={tiles.total} />
    </div>
  );
}

/** Counts of rows by their state (for the dashboards whose tiles come from the list); Total is every row. */
export function tilesFromRows(rows: readonly QueueRecord[]): Tiles {
  const c = statusCounts(rows);
  return { pending: c.Pending, approved: c.Approved, rejected: c.Rejected, total: c.All };
}

/** Rows passing each status filter option: the one definition behind the tiles and the filter's counts. */
export function statusCounts(rows: readonly QueueRecord[]): Record<StatusFilterValue, number> {
  const c = { All: 0, Pending: 0, Approved: 0, Rejected: 0 };
  for (const r of rows) for (const f of STATUS_FILTERS) if (matchesStatus(r.stage_state, f)) c[f] += 1;
  return c;
}

/** The dashboard's approval section: the element the chat's 'Go to Approval Panel' scrolls to and highlights. */
export function ApprovalPanel({
  id = 'approval-panel',
  title,
  description,
  onRefresh,
  refreshing,
  children,
}: {
  /** 'approval-panel' for the dashboard's own decisions (the chat scrolls there); another id for extra sections. */
  id?: string;
  title: string;
  description?: ReactNode;
  onRefresh: () => void;
  refreshing: boolean;
  children: ReactNode;
}) {
  return (
    <Card
      id={id}
      data-approval-panel={id === 'approval-panel' ? '' : undefined}
      aria-labelledby={`${id}-heading`}
      className="scroll-mt-24 transition-shadow"
    >
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
        <div className="min-w-0">
          <h2 id={`${id}-heading`} className="text-base font-semibold text-gray-900">
            {title}
          </h2>
          {description && <p className="mt-0.5 text-sm text-gray-600">{description}</p>}
        </div>
        <Button
          variant="secondary"
          size="sm"
          onClick={onRefresh}
          loading={refreshing}
          icon={<RefreshCw className="h-4 w-4" aria-hidden="true" />}
        >
          Refresh
        </Button>
      </div>
      {/* A size container: columns hide by the panel's width, which the assistant column narrows. */}
      <div className="@container space-y-4 p-4 sm:p-5">{children}</div>
    </Card>
  );
}

export function QueueError({ message, onDismiss }: { message: string | null; onDismiss?: () => void }) {
  if (!message) return null;
  return <ErrorBanner onDismiss={onDismiss}>{message}</ErrorBanner>;
}

export function LoadingRow({ colSpan }: { colSpan: number }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-gray-600" role="status">
        Loading…
      </td>
    </tr>
  );
}

/**
 * A chip label with its count. The count is drawn here (not with the chip's own count prop) so that the
 * selected chip's count keeps a readable contrast on the accent colour.
 */
export function chipLabel(text: string, count: number, selected: boolean): ReactNode {
  return (
    <>
      {text}
      <span
        className={
          selected
            ? 'rounded-full bg-indigo-900 px-1.5 text-xs text-white tabular-nums'
            : 'rounded-full bg-gray-100 px-1.5 text-xs text-gray-700 tabular-nums'
        }
      >
        {count}
      </span>
    </>
  );
}
