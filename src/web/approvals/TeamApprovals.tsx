// The line manager's approvals (approver-side §2.1): the team's requests with Refresh, status filter (default
// Pending), tiles, form-type chips, the table with Manager Approval, View Only IT rows, details and rejection
// dialogs, bulk decisions, and the acknowledgement of IT items when their details are opened. The line manager
// dashboard is this panel; other approvers who also manage people get it as a 'Your team' section.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MANAGER_CHIP_TYPES, isAcknowledged } from '../../domain/approvals';
import { isWithdrawn } from '../../domain/status';
import { useCurrentUser } from '../auth/AuthProvider';
import { Chips, Table, TBody, THead, Td, Th, TableMessageRow, Tr } from '../ui';
import { formatDate } from '../format';
import { type QueueRecord, approvalsApi } from './api';
import { DetailsModal } from './DetailsModal';
import { DecidedLabel, FormIcon, formLabel } from './labels';
import {
  ApprovalPanel, BulkBar, chipLabel, LoadingRow, QueueError, RowCheckbox, SelectAllCheckbox, StatusFilter, type StatusFilterValue, SummaryTiles,
  matchesStatus, replaceRows, tilesFromRows, useApprovalQueue, useDecisionFlow, useSelection,
} from './queue-kit';
import { RowActions } from './RowActions';

/** Delay before the list reloads after an acknowledgement (approver-side §9). */
export const ACK_REFRESH_MS = 500;

const MESSAGES = {
  loadHttp: 'Failed to load forms from manager service',
  loadOther: 'Failed to load manager data',
  refreshHttp: 'Failed to refresh forms from webhook',
  refreshOther: 'Failed to refresh data',
};

type TypeFilter = 'all' | (typeof MANAGER_CHIP_TYPES)[number];

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
  const rows = queue.data ?? [];
  const [status, setStatus] = useState<StatusFilterValue>('Pending');
  const [type, setType] = useState<TypeFilter>('all');
  const [details, setDetails] = useState<QueueRecord | null>(null);
  const acknowledged = useRef(new Set<string>());
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

  // Tiles exclude it-incident and password-reset (approver-side §4).
  const tiles = useMemo(() => tilesFromRows(rows.filter((r) => !r.view_only)), [rows]);
  const chipItems = useMemo(
    () => [
      { id: 'all' as TypeFilter, label: chipLabel('All Forms', rows.length, type === 'all') },
      ...MANAGER_CHIP_TYPES.map((t) => ({ t, n: rows.filter((r) => r.form_type === t).length }))
        // Inside another dashboard, only the types the team actually has.
        .filter(({ n }) => !embedded || n > 0)
        .map(({ t, n }) => ({ id: t as TypeFilter, label: chipLabel(formLabel(t), n, type === t) })),
    ],
    [rows, type, embedded],
  );
  const visible = rows.filter((r) => (type === 'all' || r.form_type === type) && matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  function openDetails(rec: QueueRecord) {
    setDetails(rec);
    // A withdrawn item waits on nobody: opening it acknowledges nothing.
    if (rec.view_only && !isAcknowledged(rec) && !isWithdrawn(rec) && !acknowledged.current.has(rec.request_id)) {
      acknowledged.current.add(rec.request_id);
      approvalsApi
        .acknowledge(user, rec)
        .then(() => {
          onTeamChange?.(); // e.g. an acknowledged password reset reaches the IT desk
          timers.current.push(window.setTimeout(() => void queue.refresh(), ACK_REFRESH_MS));
        })
        .catch((err) => {
          acknowledged.current.delete(rec.request_id);
          console.warn('Acknowledgement failed', err);
        });
    }
  }

  if (embedded) {
    if (queue.error) console.warn(queue.error);
    if (queue.isLoading || rows.length === 0) return null;
  }

  return (
    <>
      <ApprovalPanel
        id={embedded ? 'team-approval-panel' : 'approval-panel'}
        title={embedded ? 'Your team' : 'Team approvals'}
        description={
          embedded
            ? 'Requests from the people who report to you, waiting for your decision as their line manager.'
            : 'Requests from the people who report to you. IT incidents and password resets are view only.'
        }
        onRefresh={() => void queue.refresh()}
        refreshing={queue.refreshing}
      >
        {!embedded && <QueueError message={queue.error} onDismiss={queue.data ? queue.dismissError : undefined} />}
        <SummaryTiles tiles={tiles} totalLabel="Total Forms" />
        <div className="flex flex-wrap items-end justify-between gap-3">
          <Chips
            label="Form type"
            items={chipItems}
            value={type}
            onChange={(t) => {
              setType(t);
              setStatus('All'); // choosing a type resets the status filter to All
            }}
          />
          <StatusFilter value={status} onChange={setStatus} />
        </div>
        <BulkBar selection={selection} onApprove={flow.approveMany} onReject={flow.rejectMany} />
        <Table caption="Team requests" data-testid={embedded ? 'team-approval-table' : 'approval-table'}>
          <THead>
            <tr>
              <Th className="w-8"><SelectAllCheckbox selection={selection} /></Th>
              <Th>Form</Th>
              <Th>Employee</Th>
              <Th className="hidden @5xl:table-cell">Department</Th>
              <Th>Created</Th>
              <Th>Manager Approval</Th>
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
                  <Td className="hidden @5xl:table-cell">{rec.department}</Td>
                  <Td className="whitespace-nowrap">{formatDate(rec.created_at)}</Td>
                  <Td><DecidedLabel value={String(rec.stage_state ?? rec.line_manager_approval ?? 'Pending')} signer={rec.line_manager_signature} /></Td>
                  <Td align="right">
                    <RowActions rec={rec} busy={flow.busy.has(rec.request_id)} onView={openDetails} onApprove={flow.approve} onReject={flow.reject} />
                  </Td>
                </Tr>
              ))
            )}
          </TBody>
        </Table>
      </ApprovalPanel>
      <DetailsModal role="manager" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </>
  );
}
