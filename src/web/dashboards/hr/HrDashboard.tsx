// HR dashboard: leave requests and employee info updates of the employees whose HR
// contact is the signed-in officer, once they reach HR. Status filter (default Pending), tiles, form-type
// buttons with counts (shown only when such forms exist), the queue table, decisions with local row and tile updates.
import { useMemo } from 'react';
import { useCurrentUser } from '../../auth/AuthProvider';
import { useDetailsRoute, useSearchParamState } from '../../routing/hooks';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';
import { Chips } from '../../ui';
import { type QueueRecord, approvalsApi } from '../../approvals/api';
import { DetailsModal } from '../../approvals/DetailsModal';
import { formLabel } from '../../approvals/labels';
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
} from '../../approvals/queue-kit';
import { type QueueColumn, QueuePanel, createdColumn, decisionColumn, departmentColumn, employeeColumn } from '../../approvals/QueueTable';

const MESSAGES = {
  loadHttp: 'Failed to load forms from HR service',
  loadOther: 'Failed to load HR data',
  refreshHttp: 'Failed to refresh forms from HR service',
  refreshOther: 'Failed to refresh data',
};

type TypeFilter = string;

const COLUMNS: QueueColumn[] = [
  employeeColumn(),
  departmentColumn('4xl'),
  createdColumn('Created', '2xl'),
  decisionColumn(
    'HR Approval',
    (r) => r.stage_state,
    (r) => r.hr_signature,
  ),
];

export function HrDashboard() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'hr', user.id], () => approvalsApi.hrQueue(user), MESSAGES);
  const rows = useMemo(() => queue.data ?? [], [queue.data]);
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('status', 'Pending', STATUS_FILTERS);
  // Leave and information updates, then any other type an administrator's chain sends to HR: the chips add up to All.
  const otherTypes = useMemo(
    () => [...new Set(rows.map((r) => r.form_type))].filter((t) => t !== 'leave-request' && t !== 'info-update').sort(),
    [rows],
  );
  const [type, setType] = useSearchParamState<TypeFilter>('type', 'all', ['all', 'leave-request', 'info-update', ...otherTypes]);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'dashboard');
  // HR may reject without a reason; an empty string is sent then.
  const flow = useDecisionFlow({
    role: 'hr',
    user,
    reasonRequired: false,
    onDecided: (recs) => {
      queue.setData((d) => replaceRows(d, recs));
    },
  });

  const tiles = useMemo(() => tilesFromRows(rows), [rows]);
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const leaveCount = rows.filter((r) => r.form_type === 'leave-request').length;
  const infoCount = rows.filter((r) => r.form_type === 'info-update').length;
  const buttons = [
    { id: 'all' as TypeFilter, label: chipLabel('All Forms', rows.length, type === 'all') },
    ...(leaveCount > 0
      ? [{ id: 'leave-request' as TypeFilter, label: chipLabel('Leave Request', leaveCount, type === 'leave-request') }]
      : []),
    ...(infoCount > 0
      ? [{ id: 'info-update' as TypeFilter, label: chipLabel('Employee Info Update', infoCount, type === 'info-update') }]
      : []),
    ...otherTypes.map((t) => ({
      id: t,
      label: chipLabel(formLabel(t), rows.filter((r) => r.form_type === t).length, type === t),
    })),
  ];
  const visible = rows.filter((r) => (type === 'all' || r.form_type === type) && matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  return (
    <DashboardLayout dashboard="hr">
      <QueuePanel
        title="HR approvals"
        description="Leave requests (after the line manager approved) and employee information updates of your employees."
        queue={queue}
        tiles={tiles}
        totalLabel="Total Forms"
        status={status}
        onStatus={setStatus}
        counts={counts}
        chips={
          <Chips
            label="Form type"
            items={buttons}
            value={type}
            onChange={(t) => {
              setType(t);
              setStatus('All');
            }}
          />
        }
        visible={visible}
        selection={selection}
        flow={flow}
        caption="HR requests"
        lead="form"
        columns={COLUMNS}
        onView={setDetails}
      />
      <TeamApprovals embedded />
      <OtherRequests />
      <DetailsModal role="hr" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
