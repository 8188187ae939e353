// Finance dashboard: petty cash, travel and purchase requisitions. Status filter (default
// Pending, with each option's count), four tiles (Total Requests = rows loaded), 'Loading…', the queue table with
// Amount, Purpose, Manager and Finance Status; Approve/Reject only when the line manager approved and finance is
// pending; otherwise the final label 'by' the finance signer. After a decision the queue and summary reload.
// The page itself is the shared StageDashboard; this file is its configuration.
import { approvalsApi, type QueueEnvelope, type QueueRecord } from '../../approvals/api';
import { DecidedLabel, amountText, purposeOf } from '../../approvals/labels';
import { type QueueColumn, decisionColumn, employeeColumn } from '../../approvals/QueueTable';
import { StageDashboard, type StageDashboardConfig } from '../../approvals/StageDashboard';

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

export const FINANCE_DASHBOARD: StageDashboardConfig = {
  dashboard: 'finance',
  role: 'finance',
  load: loadQueue,
  messages: {
    loadHttp: 'Failed to load forms from finance service',
    loadOther: 'Failed to load finance data',
    refreshHttp: 'Failed to refresh data',
    refreshOther: 'Failed to refresh data',
  },
  title: 'Finance approvals',
  description: 'Petty cash, travel and purchase requests. You can decide once the line manager has approved.',
  caption: 'Finance requests',
  totalLabel: 'Total Requests',
  lead: 'request-id',
  columns: COLUMNS,
  notActionable,
  emptyText: 'No petty cash or travel expense requests found for this filter.',
  afterDecision: 'reload',
  failureStyle: 'update-status',
};

export function FinanceDashboard() {
  return <StageDashboard config={FINANCE_DASHBOARD} />;
}
