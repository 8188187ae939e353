// Finance dashboard: petty cash, travel and purchase requisitions. Status filter (default
// Pending, with each option's count), four tiles (Total Requests = rows loaded), 'Loading…', the queue table with
// Amount, Purpose, Manager and Finance Status; Approve/Reject only when the line manager approved and finance is
// pending; otherwise the final label 'by' the finance signer. After a decision the queue and summary reload.
import { useMemo } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../../routing/hooks';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';
import { type QueueEnvelope, type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { DecidedLabel, amountText, purposeOf } from '../../approvals/labels';
import {
  STATUS_FILTERS,
  type StatusFilterValue,
  matchesStatus,
  statusCounts,
  useApprovalQueue,
  useDecisionFlow,
  useSelection,
} from '../../approvals/queue-kit';
import { type QueueColumn, QueuePanel, decisionColumn, employeeColumn } from '../../approvals/QueueTable';

const MESSAGES = {
  loadHttp: 'Failed to load forms from finance service',
  loadOther: 'Failed to load finance data',
  refreshHttp: 'Failed to refresh data',
  refreshOther: 'Failed to refresh data',
};

async function loadQueue(): Promise<QueueEnvelope> {
  const res = await approvalsApi.financeQueue();
  // A reload that reports no success is a failure too ('Failed to refresh data' in the red banner).
  if (!res || res.success === false) throw new Error('The finance service reported no success');
  return res;
}

const COLUMNS: QueueColumn[] = [
  employeeColumn({ department: true }),
  {
    header: 'Amount',
    align: 'right',
    className: 'font-medium whitespace-nowrap tabular-nums',
    cell: (rec) => <span>{amountText(rec)}</span>,
  },
  {
    header: 'Purpose',
    // From 56rem: below it the amount, status and the one-line Approve/Reject need the room (a 1280 px window).
    showFrom: '4xl',
    className: 'max-w-40 @6xl:max-w-64',
    title: purposeOf,
    cell: (rec) => <span className="line-clamp-2 [overflow-wrap:anywhere]">{purposeOf(rec)}</span>,
  },
  {
    ...decisionColumn(
      'Manager',
      (r) => r.line_manager_approval,
      () => undefined,
    ),
    showFrom: '4xl',
  },
  decisionColumn(
    'Finance Status',
    (r) => r.stage_state,
    () => undefined,
  ),
];

function notActionable(rec: QueueRecord) {
  if (rec.finance_approval === 'Approved' || rec.finance_approval === 'Rejected')
    return <DecidedLabel value={String(rec.finance_approval)} signer={rec.finance_signature} />;
  if (rec.stage_state === 'Pending') return <span className="text-xs text-gray-500">Awaiting manager</span>;
  return null;
}

export function FinanceDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'finance', user.id], loadQueue, MESSAGES);
  const rows = useMemo(() => queue.data?.forms ?? [], [queue.data]);
  const summary = queue.data?.summary;
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('status', 'Pending', STATUS_FILTERS);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'dashboard');
  const flow = useDecisionFlow({
    role: 'finance',
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
    <DashboardLayout dashboard="finance">
      <QueuePanel
        title="Finance approvals"
        description="Petty cash, travel and purchase requests. You can decide once the line manager has approved."
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
        caption="Finance requests"
        lead="request-id"
        columns={COLUMNS}
        onView={setDetails}
        notActionable={notActionable}
        emptyText="No petty cash or travel expense requests found for this filter."
      />
      <TeamApprovals embedded />
      <OtherRequests />
      <DetailsModal role="finance" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
