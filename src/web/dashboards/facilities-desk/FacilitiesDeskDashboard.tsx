// Facilities desk dashboard: first-level decisions on meeting room and facility access
// requests. Status filter (default Pending), tiles computed from the list, the queue table with Details, Date and
// Status, details with the two-step chain, local row and tile updates after a decision, bulk decisions.
import { useMemo } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../../routing/hooks';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';
import { type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
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
} from '../../approvals/queue-kit';
import {
  type QueueColumn,
  QueuePanel,
  createdColumn,
  decisionColumn,
  departmentColumn,
  detailsColumn,
  employeeColumn,
  formTypeColumn,
} from '../../approvals/QueueTable';

const MESSAGES = {
  loadHttp: 'Failed to load forms from facilities service',
  loadOther: 'Failed to load facilities desk data',
  refreshHttp: 'Failed to refresh forms',
  refreshOther: 'Failed to refresh forms',
};

const COLUMNS: QueueColumn[] = [
  employeeColumn(),
  departmentColumn('4xl'),
  formTypeColumn(),
  detailsColumn('4xl'),
  createdColumn('Date'),
  decisionColumn(
    'Status',
    (r) => r.stage_state,
    (r) => r.facilities_desk_signature,
  ),
];

export function FacilitiesDeskDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'facilities_desk', user.id], () => approvalsApi.deskQueue(), MESSAGES);
  const rows = useMemo(() => queue.data ?? [], [queue.data]);
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('status', 'Pending', STATUS_FILTERS);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'dashboard');
  const flow = useDecisionFlow({
    role: 'facilities_desk',
    user,
    onDecided: (recs) => {
      queue.setData((d) => replaceRows(d, recs));
    },
  });
  // The desk's summary tiles are computed here from the list (its queue answer carries no summary).
  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="facilities-desk">
      <QueuePanel
        title="Facilities desk"
        description="First-level decision on meeting room bookings and facility access requests."
        queue={queue}
        tiles={tiles}
        totalLabel="Total Requests"
        status={status}
        onStatus={setStatus}
        counts={counts}
        visible={visible}
        selection={selection}
        flow={flow}
        caption="Facilities requests"
        lead="request-id"
        leadIcon={false}
        columns={COLUMNS}
        onView={setDetails}
      />
      <TeamApprovals embedded />
      <OtherRequests />
      <DetailsModal
        role="facilities_desk"
        target={details}
        onClose={() => setDetails(null)}
        onApprove={flow.approve}
        onReject={flow.reject}
      />
      {flow.dialog}
    </DashboardLayout>
  );
}
