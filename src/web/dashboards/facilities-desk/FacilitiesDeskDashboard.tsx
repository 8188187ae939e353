// Facilities desk dashboard (approver-side §2.4): first-level decisions on meeting room and facility access
// requests. Status filter (default Pending), tiles computed from the list, the table with Details, Date and
// Status, details with the two-step chain, local row and tile updates after a decision, bulk decisions.
import { useMemo, useState } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { DecidedLabel } from '../../approvals/labels';
import { FacilitiesTable } from '../../approvals/FacilitiesTable';
import {
  ApprovalPanel, BulkBar, QueueError, StatusFilter, type StatusFilterValue, SummaryTiles,
  matchesStatus, replaceRows, tilesFromRows, useApprovalQueue, useDecisionFlow, useSelection,
} from '../../approvals/queue-kit';

const MESSAGES = {
  loadHttp: 'Failed to load forms from facilities service',
  loadOther: 'Failed to load facilities desk data',
  refreshHttp: 'Failed to refresh forms',
  refreshOther: 'Failed to refresh forms',
};

export function FacilitiesDeskDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'facilities_desk', user.id], () => approvalsApi.deskQueue(), MESSAGES);
  const rows = queue.data ?? [];
  const [status, setStatus] = useState<StatusFilterValue>('Pending');
  const [details, setDetails] = useState<QueueRecord | null>(null);
  const flow = useDecisionFlow({ role: 'facilities_desk', user, onDecided: (recs) => { queue.setData((d) => replaceRows(d, recs)); } });
  // The desk's summary is computed here from the list (approver-side §3).
  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="facilities-desk">
      <ApprovalPanel
        title="Facilities desk"
        description="First-level decision on meeting room bookings and facility access requests."
        onRefresh={() => void queue.refresh()}
        refreshing={queue.refreshing}
      >
        <QueueError message={queue.error} onDismiss={queue.data ? queue.dismissError : undefined} />
        <SummaryTiles tiles={tiles} totalLabel="Total Requests" />
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
          statusColumns={[{ label: 'Status', value: (r) => <DecidedLabel value={String(r.stage_state ?? 'Pending')} signer={r.facilities_desk_signature} /> }]}
        />
      </ApprovalPanel>
      <TeamApprovals embedded />
      <DetailsModal role="facilities_desk" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
