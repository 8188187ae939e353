// The line manager's approvals: the team's requests with Refresh, status filter (default
// Pending), tiles, form-type chips, the table with Manager Approval, View Only IT rows, details and rejection
// dialogs, bulk decisions, and the acknowledgement of IT items when their details are opened. The line manager
// dashboard is this panel; other approvers who also manage people get it as a 'Your team' section.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MANAGER_CHIP_TYPES, isAcknowledged } from '../../domain/approvals';
import { isWithdrawn } from '../../domain/status';
import { useCurrentUser } from '../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../routing/hooks';
import { Chips, type TabItem } from '../ui';
import { type QueueRecord, approvalsApi } from './api';
import { DetailsModal } from './DetailsModal';
import { formLabel } from './labels';
import {
  chipLabel,
  STATUS_FILTERS,
  type StatusFilterValue,
  matchesStatus,
  replaceRows,
  statusCounts,
  tilesFromRows,
  useApprovalQueue,
  useDecisionFlow,
  useSelection,
} from './queue-kit';
import { type QueueColumn, QueuePanel, createdColumn, decisionColumn, departmentColumn, employeeColumn } from './QueueTable';

/** Delay before the list reloads after the manager acknowledged an IT item. */
export const ACK_REFRESH_MS = 500;

const MESSAGES = {
  loadHttp: 'Failed to load forms from manager service',
  loadOther: 'Failed to load manager data',
  refreshHttp: 'Failed to refresh forms from webhook',
  refreshOther: 'Failed to refresh data',
};

/** 'all' or one of MANAGER_CHIP_TYPES (the registry's chip types). */
type TypeFilter = string;

export interface TeamApprovalsProps {
  /**
   * Shown inside another approver's dashboard (HR, finance, facilities) for people who also manage a team:
   * titled 'Your team', rendered only when the team has requests, and load failures are only logged.
   */
  embedded?: boolean;
  /** Called after a team decision or acknowledgement changed something (the host dashboard refreshes its own lists). */
  onTeamChange?: () => void;
}

export function TeamApprovals({ embedded = false, onTeamChange }: TeamApprovalsProps) {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'manager', user.id], () => approvalsApi.managerQueue(user), MESSAGES);
  const rows = useMemo(() => queue.data ?? [], [queue.data]);
  // Filters in the URL; inside another dashboard under their own names, beside the dashboard's own filters.
  const [status, setStatus] = useSearchParamState<StatusFilterValue>(embedded ? 'team_status' : 'status', 'Pending', STATUS_FILTERS);
  // The spec's chips, then one for each other type on the list (a team's expense claim, training request, ...), so the
  // chips add up to All Forms.
  const otherTypes = useMemo(
    () => [...new Set(rows.map((r) => r.form_type))].filter((t) => !MANAGER_CHIP_TYPES.includes(t)).sort(),
    [rows],
  );
  const [type, setType] = useSearchParamState<TypeFilter>(embedded ? 'team_type' : 'type', 'all', [
    'all',
    ...MANAGER_CHIP_TYPES,
    ...otherTypes,
  ]);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'team');
  const acknowledged = useRef(new Set<string>());
  /** What opening each view-only IT item did about its acknowledgement, shown in its details. */
  const [ackState, setAckState] = useState<Record<string, AckState>>({});
  const timers = useRef<number[]>([]);
  useEffect(() => () => timers.current.forEach((id) => window.clearTimeout(id)), []);

  const qc = useQueryClient();
  const flow = useDecisionFlow({
    role: 'manager',
    user,
    onDecided: (recs) => {
      queue.setData((d) => replaceRows(d, recs));
      // A team decision can move a request into the dashboard's own queue (e.g. a leave request reaching HR).
      if (embedded) void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'approvals' && q.queryKey[1] !== 'manager' });
      onTeamChange?.();
    },
  });

  // Tiles, the status filter's counts and All Forms count the same rows (view-only IT items included: Pending until
  // acknowledged), so Total Forms equals All Forms and the Pending tile equals 'Pending (n)'.
  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const chipItems = useMemo(
    (): TabItem<TypeFilter>[] => [
      { id: 'all', label: chipLabel('All Forms', rows.length, type === 'all') },
      ...MANAGER_CHIP_TYPES.map((t) => ({ t, n: rows.filter((r) => r.form_type === t).length }))
        // Inside another dashboard, only the types the team actually has.
        .filter(({ n }) => !embedded || n > 0)
        .map(({ t, n }) => ({ id: t, label: chipLabel(formLabel(t), n, type === t) })),
      ...otherTypes.map((t) => ({ id: t, label: chipLabel(formLabel(t), rows.filter((r) => r.form_type === t).length, type === t) })),
    ],
    [rows, type, embedded, otherTypes],
  );
  const columns = useMemo(
    (): QueueColumn[] => [
      employeeColumn(),
      departmentColumn('4xl'),
      createdColumn('Created', '2xl'),
      decisionColumn(
        'Manager Approval',
        (r) => r.stage_state ?? r.line_manager_approval,
        (r) => r.line_manager_signature,
        (r) => (r.view_only && (isAcknowledged(r) || ackState[r.request_id] === 'done') ? 'Acknowledged' : undefined),
      ),
    ],
    [ackState],
  );
  const visible = rows.filter((r) => (type === 'all' || r.form_type === type) && matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  // Opening a view-only IT item acknowledges it, however it was opened: a click in the list, a notification or a
  // direct link to /requests/<id> (the details then come from the URL; the row, with view_only, once the list loaded).
  useEffect(() => {
    if (details) acknowledgeOnOpen(details);
    // Once per request: the set of started acknowledgements guards repeats.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [details?.request_id, details?.view_only]);

  function acknowledgeOnOpen(rec: QueueRecord) {
    // A withdrawn item waits on nobody: opening it acknowledges nothing.
    if (rec.view_only && !isAcknowledged(rec) && !isWithdrawn(rec) && !acknowledged.current.has(rec.request_id)) {
      acknowledged.current.add(rec.request_id);
      const id = rec.request_id;
      setAckState((s) => ({ ...s, [id]: 'saving' }));
      approvalsApi
        .acknowledge(user, rec)
        .then(() => {
          setAckState((s) => ({ ...s, [id]: 'done' }));
          onTeamChange?.(); // e.g. an acknowledged password reset reaches the IT desk
          timers.current.push(window.setTimeout(() => void queue.refresh(), ACK_REFRESH_MS));
        })
        .catch((err) => {
          acknowledged.current.delete(rec.request_id);
          setAckState((s) => ({ ...s, [id]: 'failed' }));
          console.warn('Acknowledgement failed', err);
        });
    }
  }

  function openDetails(rec: QueueRecord) {
    setDetails(rec);
    acknowledgeOnOpen(rec);
  }

  if (embedded) {
    if (queue.error) console.warn(queue.error);
    if (queue.isLoading || rows.length === 0) return null;
  }

  return (
    <>
      <QueuePanel
        id={embedded ? 'team-approval-panel' : 'approval-panel'}
        title={embedded ? 'Your team' : 'Team approvals'}
        description={
          embedded
            ? 'Requests from the people who report to you, waiting for your decision as their line manager.'
            : 'Requests from the people who report to you. IT incidents and password resets are view only.'
        }
        queue={queue}
        showError={!embedded}
        tiles={tiles}
        totalLabel="Total Forms"
        status={status}
        onStatus={setStatus}
        counts={counts}
        chips={
          <Chips
            label="Form type"
            items={chipItems}
            value={type}
            onChange={(t) => {
              setType(t);
              setStatus('All'); // choosing a type resets the status filter to All
            }}
          />
        }
        visible={visible}
        selection={selection}
        flow={flow}
        caption="Team requests"
        testId={embedded ? 'team-approval-table' : 'approval-table'}
        lead="form"
        columns={columns}
        onView={openDetails}
      />
      <DetailsModal
        role="manager"
        target={details}
        onClose={() => setDetails(null)}
        onApprove={flow.approve}
        onReject={flow.reject}
        notice={details?.view_only ? <AcknowledgementNotice rec={details} state={ackState[details.request_id]} /> : undefined}
      />
      {flow.dialog}
    </>
  );
}

type AckState = 'saving' | 'done' | 'failed';

/** Says what opening a view-only IT item did: it acknowledges the item for IT Support (withdrawn items wait on nobody). */
export function AcknowledgementNotice({ rec, state }: { rec: QueueRecord; state?: AckState }) {
  if (isWithdrawn(rec)) return null;
  const done = state === 'done' || (state === undefined && isAcknowledged(rec));
  const what = formLabel(rec.form_type);
  if (done)
    return (
      <p role="status" data-testid="acknowledgement" className="rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-800">
        <span className="font-semibold">Acknowledged.</span> You have seen this {what}; IT Support handles it from here. No decision is
        needed from you.
      </p>
    );
  if (state === 'failed')
    return (
      <p role="alert" data-testid="acknowledgement" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
        Your acknowledgement could not be saved. Close and open this {what} again to retry.
      </p>
    );
  return (
    <p role="status" data-testid="acknowledgement" className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm text-gray-700">
      Acknowledging this {what}…
    </p>
  );
}
