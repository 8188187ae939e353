// Facilities manager dashboard: the desk's queue table with Desk Approval and Manager Status
// columns; Approve and Reject only when the desk approved and the manager is still pending. Tiles come from
// the queue's summary, the status filter shows each option's count; after a decision the queue is reloaded.
// The page itself is the shared StageDashboard; this file is its configuration.
import { approvalsApi, type QueueEnvelope, type QueueRecord } from '../../approvals/api';
import {
  type QueueColumn,
  createdColumn,
  decisionColumn,
  departmentColumn,
  detailsColumn,
  employeeColumn,
  formTypeColumn,
} from '../../approvals/QueueTable';
import { StageDashboard, type StageDashboardConfig } from '../../approvals/StageDashboard';

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

export const FACILITIES_MANAGER_DASHBOARD: StageDashboardConfig = {
  dashboard: 'facilities-manager',
  role: 'facilities_manager',
  load: loadQueue,
  messages: {
    loadHttp: 'Failed to load forms from facilities manager service',
    loadOther: 'Failed to load facilities manager data',
    refreshHttp: 'Failed to load forms from facilities manager service',
    refreshOther: 'Failed to load facilities manager data',
  },
  title: 'Facilities approvals',
  description: 'Second-level decision on meeting rooms and facility access, after the facilities desk has approved.',
  caption: 'Facilities requests',
  totalLabel: 'Total Requests',
  lead: 'request-id',
  leadIcon: false,
  columns: COLUMNS,
  notActionable,
  // After a facilities manager decision the whole queue is reloaded (not updated row by row).
  afterDecision: 'reload',
  failureStyle: 'update-status',
};

export function FacilitiesManagerDashboard() {
  return <StageDashboard config={FACILITIES_MANAGER_DASHBOARD} />;
}
