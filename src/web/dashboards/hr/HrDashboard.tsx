// HR dashboard (approver-side §2.2): leave requests and employee info updates of the employees whose HR
// contact is the signed-in officer, once they reach HR. Status filter (default Pending), tiles, form-type
// buttons with counts (shown only when such forms exist), decisions with local row and tile updates.
import { useMemo, useState } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { Chips, Table, TBody, THead, Td, Th, TableMessageRow, Tr } from '../../ui';
import { formatDate } from '../../format';
import { type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { DecidedLabel, FormIcon, formLabel } from '../../approvals/labels';
import {
  ApprovalPanel, BulkBar, chipLabel, LoadingRow, QueueError, RowCheckbox, SelectAllCheckbox, StatusFilter, type StatusFilterValue, SummaryTiles,
  matchesStatus, replaceRows, tilesFromRows, useApprovalQueue, useDecisionFlow, useSelection,
} from '../../approvals/queue-kit';
import { RowActions } from '../../approvals/RowActions';

const MESSAGES = {
  loadHttp: 'Failed to load forms from HR service',
  loadOther: 'Failed to load HR data',
  refreshHttp: 'Failed to refresh forms from HR service',
  refreshOther: 'Failed to refresh data',
};

type TypeFilter = 'all' | 'leave-request' | 'info-update';

export function HrDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'hr', user.id], () => approvalsApi.hrQueue(user), MESSAGES);
  const rows = queue.data ?? [];
  const [status, setStatus] = useState<StatusFilterValue>('Pending');
  const [type, setType] = useState<TypeFilter>('all');
  const [details, setDetails] = useState<QueueRecord | null>(null);
  // HR may reject without a reason; an empty string is sent then (approver-side §5).
  const flow = useDecisionFlow({ role: 'hr', user, reasonRequired: false, onDecided: (recs) => { queue.setData((d) => replaceRows(d, recs)); } });

  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const leaveCount = rows.filter((r) => r.form_type === 'leave-request').length;
  const infoCount = rows.filter((r) => r.form_type === 'info-update').length;
  const buttons = [
    { id: 'all' as TypeFilter, label: chipLabel('All Forms', rows.length, type === 'all') },
    ...(leaveCount > 0 ? [{ id: 'leave-request' as TypeFilter, label: chipLabel('Leave Request', leaveCount, type === 'leave-request') }] : []),
    ...(infoCount > 0 ? [{ id: 'info-update' as TypeFilter, label: chipLabel('Employee Info Update', infoCount, type === 'info-update') }] : []),
  ];
  const visible = rows.filter((r) => (type === 'all' || r.form_type === type) && matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="hr">
      <ApprovalPanel
        title="HR approvals"
        description="Leave requests (after the line manager approved) and employee information updates of your employees."
        onRefresh={() => void queue.refresh()}
        refreshing={queue.refreshing}
      >
        <QueueError message={queue.error} onDismiss={queue.data ? queue.dismissError : undefined} />
        <SummaryTiles tiles={tiles} totalLabel="Total Forms" />
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Chips
            label="Form type"
            items={buttons}
            value={type}
            onChange={(t) => {
              setType(t);
              setStatus('All');
            }}
          />
          <StatusFilter value={status} onChange={setStatus} />
        </div>
        <BulkBar selection={selection} onApprove={flow.approveMany} onReject={flow.rejectMany} />
        <Table caption="HR requests" data-testid="approval-table">
          <THead>
            <tr>
              <Th className="w-8"><SelectAllCheckbox selection={selection} /></Th>
              <Th>Form</Th>
              <Th>Employee</Th>
              <Th className="hidden @4xl:table-cell">Department</Th>
              <Th>Created</Th>
              <Th>HR Approval</Th>
              <Th align="right"><span className="sr-only">Actions</span></Th>
            </tr>
          </THead>
          <TBody>
            {queue.isLoading ? (
              <LoadingRow colSpan={7} />
            ) : visible.length === 0 ? (
              <TableMessageRow colSpan={7}>No items found for this filter.</TableMessageRow>
            ) : (
              visible.map((rec) => (
                <Tr key={rec.request_id} data-request-id={rec.request_id}>
                  <Td><RowCheckbox rec={rec} selection={selection} /></Td>
                  <Td>
                    <div className="flex items-center gap-2">
                      <span className="text-indigo-600"><FormIcon formType={rec.form_type} /></span>
                      <div>
                        <p className="font-medium text-gray-900">{formLabel(rec.form_type)}</p>
                        <p className="font-mono text-xs text-gray-500">{rec.request_id}</p>
                      </div>
                    </div>
                  </Td>
                  <Td>{rec.employee_name}</Td>
                  <Td className="hidden @4xl:table-cell">{rec.department}</Td>
                  <Td className="whitespace-nowrap">{formatDate(rec.created_at)}</Td>
                  <Td><DecidedLabel value={String(rec.stage_state ?? 'Pending')} signer={rec.hr_signature} /></Td>
                  <Td align="right">
                    <RowActions rec={rec} busy={flow.busy.has(rec.request_id)} onView={setDetails} onApprove={flow.approve} onReject={flow.reject} />
                  </Td>
                </Tr>
              ))
            )}
          </TBody>
        </Table>
      </ApprovalPanel>
      <TeamApprovals embedded />
      <DetailsModal role="hr" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
