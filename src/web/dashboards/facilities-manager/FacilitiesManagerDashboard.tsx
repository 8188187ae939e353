// Facilities manager dashboard: the desk's queue table with Desk Approval and Manager Status
// columns; Approve and Reject only when the desk approved and the manager is still pending. Tiles come from
// the queue's summary, the status filter shows each option's count; after a decision the queue is reloaded.
import { useMemo } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../../routing/hooks';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';
import { type QueueEnvelope, type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import {
  STATUS_FILTERS,
  type StatusFilterValue,
  matchesStatus,
  statusCounts,
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
  loadHttp: 'Failed to load forms from facilities manager service',
  loadOther: 'Failed to load facilities manager data',
  refreshHttp: 'Failed to load forms from facilities manager service',
  refreshOther: 'Failed to load facilities manager data',
};

async function loadQueue(): Promise<QueueEnvelope> {
  const res = await approvalsApi.facilitiesManagerQueue();
  if (!res || res.success === false) throw new Error('The facilities manager service reported no success');
  return res;
}

// The spec's columns (Date among them) stay longest; Department and Details drop first on a narrow table.
const COLUMNS: QueueColumn[] = [
  employeeColumn(),
  departmentColumn('5xl'),
  formTypeColumn(),
  detailsColumn('6xl'),
  createdColumn('Date', '4xl'),
  decisionColumn(
    'Desk Approval',
    (r) => r.facilities_desk_approval,
    (r) => r.facilities_desk_signature,
  ),
  decisionColumn(
    'Manager Status',
    (r) => r.stage_state,
    (r) => r.facilities_manager_signature,
  ),
];

const notActionable = (rec: QueueRecord) =>
  rec.stage_state === 'Pending' ? <span className="text-xs text-gray-500">Awaiting desk</span> : null;

export function FacilitiesManagerDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'facilities_manager', user.id], loadQueue, MESSAGES);
  const rows = useMemo(() => queue.data?.forms ?? [], [queue.data]);
  const summary = queue.data?.summary;
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('status', 'Pending', STATUS_FILTERS);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'dashboard');
  // After a facilities manager decision the whole queue is reloaded (not updated row by row).
  const flow = useDecisionFlow({
    role: 'facilities_manager',
    user,
    failureStyle: 'update-status',
    onDecided: async () => {
      await queue.refresh();
    },
  });
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="facilities-manager">
      <QueuePanel
        title="Facilities approvals"
        description="Second-level decision on meeting rooms and facility access, after the facilities desk has approved."
        queue={queue}
        totalLabel="Total Requests"
        tiles={{
          pending: summary?.total_pending ?? 0,
          approved: summary?.total_approved ?? 0,
          rejected: summary?.total_rejected ?? 0,
          total: rows.length,
        }}
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
        notActionable={notActionable}
      />
      <TeamApprovals embedded />
      <OtherRequests />
      <DetailsModal
        role="facilities_manager"
        target={details}
        onClose={() => setDetails(null)}
        onApprove={flow.approve}
        onReject={flow.reject}
      />
      {flow.dialog}
    </DashboardLayout>
  );
}
