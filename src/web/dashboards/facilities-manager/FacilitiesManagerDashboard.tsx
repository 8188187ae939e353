// Facilities manager dashboard (approver-side §2.5): the desk's layout with Desk Approval and Manager Status
// columns; Approve and Reject only when the desk approved and the manager is still pending. Tiles come from
// the queue's summary; after a decision the queue is reloaded.
import { useState } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { type QueueEnvelope, type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { FacilitiesTable } from '../../approvals/FacilitiesTable';
import { DecidedLabel } from '../../approvals/labels';
import {
  ApprovalPanel, BulkBar, QueueError, StatusFilter, type StatusFilterValue, SummaryTiles, matchesStatus, useApprovalQueue, useDecisionFlow, useSelection,
} from '../../approvals/queue-kit';

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

export function FacilitiesManagerDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'facilities_manager', user.id], loadQueue, MESSAGES);
  const rows = queue.data?.forms ?? [];
  const summary = queue.data?.summary;
  const [status, setStatus] = useState<StatusFilterValue>('Pending');
  const [details, setDetails] = useState<QueueRecord | null>(null);
  // After a facilities manager decision the queue is reloaded (approver-side §4).
  const flow = useDecisionFlow({ role: 'facilities_manager', user, failureStyle: 'update-status', onDecided: async () => { await queue.refresh(); } });
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="facilities-manager">
      <ApprovalPanel
        title="Facilities approvals"
        description="Second-level decision on meeting rooms and facility access, after the facilities desk has approved."
        onRefresh={() => void queue.refresh()}
        refreshing={queue.refreshing}
      >
        <QueueError message={queue.error} onDismiss={queue.data ? queue.dismissError : undefined} />
        <SummaryTiles
          totalLabel="Total Requests"
          tiles={{
            pending: summary?.total_pending ?? 0,
            approved: summary?.total_approved ?? 0,
            rejected: summary?.total_rejected ?? 0,
            total: rows.length,
          }}
        />
        <div className="flex flex-wrap items-end justify-end gap-3">
          <StatusFilter value={status} onChange={setStatus} />
        </div>
        <BulkBar selection={selection} onApprove={flow.approveMany} onReject={flow.rejectMany} />
        <FacilitiesTable
          rows={visible}
          loading={queue.isLoading}
          selection={selection}
          busy={flow.busy}
          onView={setDetails}
          onApprove={flow.approve}
          onReject={flow.reject}
          statusColumns={[
            { label: 'Desk Approval', value: (r) => <DecidedLabel value={String(r.facilities_desk_approval ?? 'Pending')} signer={r.facilities_desk_signature} /> },
            { label: 'Manager Status', value: (r) => <DecidedLabel value={String(r.stage_state ?? 'Pending')} signer={r.facilities_manager_signature} /> },
          ]}
          notActionable={(r) => (r.stage_state === 'Pending' ? <span className="text-xs text-gray-500">Awaiting desk</span> : null)}
        />
      </ApprovalPanel>
      <TeamApprovals embedded />
      <DetailsModal role="facilities_manager" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
