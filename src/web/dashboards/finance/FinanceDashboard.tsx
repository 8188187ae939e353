// Finance dashboard (approver-side §2.6): petty cash, travel and purchase requisitions. Status filter (default
// Pending), four tiles (Total Requests = rows loaded), 'Loading…', the table with Amount, Purpose, Manager and
// Finance Status; Approve/Reject only when the line manager approved and finance is pending; otherwise the
// final label 'by' the finance signer. After a decision the queue and summary reload.
import { useState } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { Table, TBody, THead, Td, Th, TableMessageRow, Tr } from '../../ui';
import { type QueueEnvelope, type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { DecidedLabel, DecisionBadge, FormIcon, amountText, formLabel, purposeOf } from '../../approvals/labels';
import {
  ApprovalPanel, BulkBar, LoadingRow, QueueError, RowCheckbox, SelectAllCheckbox, StatusFilter, type StatusFilterValue, SummaryTiles,
  matchesStatus, useApprovalQueue, useDecisionFlow, useSelection,
} from '../../approvals/queue-kit';
import { RowActions } from '../../approvals/RowActions';

const MESSAGES = {
  loadHttp: 'Failed to load forms from finance service',
  loadOther: 'Failed to load finance data',
  refreshHttp: 'Failed to refresh data',
  refreshOther: 'Failed to refresh data',
};

async function loadQueue(): Promise<QueueEnvelope> {
  const res = await approvalsApi.financeQueue();
  // A reload that reports no success is a failure too (approver-side §8).
  if (!res || res.success === false) throw new Error('The finance service reported no success');
  return res;
}

export function FinanceDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'finance', user.id], loadQueue, MESSAGES);
  const rows = queue.data?.forms ?? [];
  const summary = queue.data?.summary;
  const [status, setStatus] = useState<StatusFilterValue>('Pending');
  const [details, setDetails] = useState<QueueRecord | null>(null);
  const flow = useDecisionFlow({ role: 'finance', user, failureStyle: 'update-status', onDecided: async () => { await queue.refresh(); } });
  const visible = rows.filter((r) => matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="finance">
      <ApprovalPanel
        title="Finance approvals"
        description="Petty cash, travel and purchase requests. You can decide once the line manager has approved."
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
        <Table caption="Finance requests" data-testid="approval-table">
          <THead>
            <tr>
              <Th>
                <span className="flex items-center gap-2">
                  <SelectAllCheckbox selection={selection} /> Request ID
                </span>
              </Th>
              <Th>Employee</Th>
              <Th align="right">Amount</Th>
              <Th className="hidden @3xl:table-cell">Purpose</Th>
              <Th className="hidden @5xl:table-cell">Manager</Th>
              <Th>Finance Status</Th>
              <Th align="right"><span className="sr-only">Actions</span></Th>
            </tr>
          </THead>
          <TBody>
            {queue.isLoading ? (
              <LoadingRow colSpan={7} />
            ) : visible.length === 0 ? (
              <TableMessageRow colSpan={7}>No petty cash or travel expense requests found for this filter.</TableMessageRow>
            ) : (
              visible.map((rec) => (
                <Tr key={rec.request_id} data-request-id={rec.request_id}>
                  <Td>
                    <span className="flex items-center gap-2">
                      <RowCheckbox rec={rec} selection={selection} />
                      <span className="text-indigo-600" title={formLabel(rec.form_type)}><FormIcon formType={rec.form_type} /></span>
                      <span className="font-mono text-xs whitespace-nowrap text-gray-700">{rec.request_id}</span>
                    </span>
                  </Td>
                  <Td>
                    <p className="font-medium text-gray-900">{rec.employee_name}</p>
                    <p className="text-xs text-gray-500">{rec.department}</p>
                  </Td>
                  <Td align="right" className="font-medium whitespace-nowrap tabular-nums">{amountText(rec)}</Td>
                  <Td className="hidden max-w-40 truncate @3xl:table-cell @6xl:max-w-64" title={purposeOf(rec)}>{purposeOf(rec)}</Td>
                  <Td className="hidden @5xl:table-cell"><DecisionBadge value={String(rec.line_manager_approval ?? 'Pending')} /></Td>
                  <Td><DecisionBadge value={String(rec.stage_state ?? 'Pending')} /></Td>
                  <Td align="right">
                    <RowActions
                      rec={rec}
                      busy={flow.busy.has(rec.request_id)}
                      onView={setDetails}
                      onApprove={flow.approve}
                      onReject={flow.reject}
                      whenNotActionable={
                        rec.finance_approval === 'Approved' || rec.finance_approval === 'Rejected' ? (
                          <DecidedLabel value={String(rec.finance_approval)} signer={rec.finance_signature} />
                        ) : rec.stage_state === 'Pending' ? (
                          <span className="text-xs text-gray-500">Awaiting manager</span>
                        ) : null
                      }
                    />
                  </Td>
                </Tr>
              ))
            )}
          </TBody>
        </Table>
      </ApprovalPanel>
      <TeamApprovals embedded />
      <DetailsModal role="finance" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
