// 'Other requests' on every approver dashboard (issue 20): requests of form types beyond the spec's tables (an
// administrator's types; chains with a manager's manager, a group or a named person) waiting on the caller or decided
// by them. The same panel, table, details modal and decision dialogs as the dashboard's own queue. Shown only
// once it has rows (or could not load); nothing is drawn while it loads or when the caller has none.
import { useMemo, useState } from 'react';
import { useCurrentUser } from '../auth/AuthProvider';
import { useSearchParamState } from '../routing/hooks';
import { type QueueRecord, approvalsApi } from './api';
import { DetailsModal } from './DetailsModal';
import {
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

const MESSAGES = {
  loadHttp: 'Failed to load other requests',
  loadOther: 'Failed to load other requests',
  refreshHttp: 'Failed to refresh other requests',
  refreshOther: 'Failed to refresh data',
};

/** The stage the row waits on or was decided at ('Finance Director'), from the server's label. */
const stageColumn: QueueColumn = {
  header: 'Stage',
  cell: (rec) => <span>{String(rec.stage_label ?? rec.current_stage_label ?? rec.next_stage ?? '')}</span>,
};

const COLUMNS: QueueColumn[] = [
  employeeColumn(),
  departmentColumn('4xl'),
  createdColumn('Created', '2xl'),
  { ...stageColumn, showFrom: '3xl' },
  decisionColumn(
    'Decision',
    (r) => r.stage_state,
    (r) => r.stage_signature ?? r.signer_name,
  ),
];

export function OtherRequests() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'other', user.id], approvalsApi.otherQueue, MESSAGES);
  const rows = useMemo(() => queue.data ?? [], [queue.data]);
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('other_status', 'Pending', STATUS_FILTERS);
  const [details, setDetails] = useState<QueueRecord | null>(null);
  const flow = useDecisionFlow({
    role: 'other',
    user,
    onDecided: (recs) => {
      queue.setData((d) => replaceRows(d, recs));
    },
  });
  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  if (queue.isLoading || (rows.length === 0 && !queue.error)) return null;
  return (
    <>
      <QueuePanel
        id="other-requests"
        title="Other requests"
        description="Requests of your company's own form types that wait on you or that you decided."
        queue={queue}
        tiles={tiles}
        totalLabel="Total Requests"
        status={status}
        onStatus={setStatus}
        counts={counts}
        visible={visible}
        selection={selection}
        flow={flow}
        caption="Other requests"
        testId="other-requests-table"
        lead="form"
        columns={COLUMNS}
        onView={setDetails}
        emptyText={status === 'Pending' ? 'No other requests are waiting for you.' : 'No other requests for this filter.'}
      />
      <DetailsModal role="other" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </>
  );
}
