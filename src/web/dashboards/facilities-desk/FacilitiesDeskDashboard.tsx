// Facilities desk dashboard: first-level decisions on meeting room and facility access
// requests. Status filter (default Pending), tiles computed from the list (the desk's queue answer carries no
// summary), the queue table with Details, Date and Status, details with the two-step chain, local row and tile
// updates after a decision, bulk decisions. The page itself is the shared StageDashboard; this file is its configuration.
import { approvalsApi } from '../../approvals/api';
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

const COLUMNS: QueueColumn[] = [
  employeeColumn(),
  departmentColumn('4xl'),
  formTypeColumn(),
  detailsColumn('4xl'),
  createdColumn('Date'),
  decisionColumn(
    'Status',
    (r) => r.stage_state,
    (r) => r.facilities_desk_signature,
  ),
];

export const FACILITIES_DESK_DASHBOARD: StageDashboardConfig = {
  dashboard: 'facilities-desk',
  role: 'facilities_desk',
  load: () => approvalsApi.deskQueue(),
  messages: {
    loadHttp: 'Failed to load forms from facilities service',
    loadOther: 'Failed to load facilities desk data',
    refreshHttp: 'Failed to refresh forms',
    refreshOther: 'Failed to refresh forms',
  },
  title: 'Facilities desk',
  description: 'First-level decision on meeting room bookings and facility access requests.',
  caption: 'Facilities requests',
  totalLabel: 'Total Requests',
  lead: 'request-id',
  leadIcon: false,
  columns: COLUMNS,
  afterDecision: 'replace',
};

export function FacilitiesDeskDashboard() {
  return <StageDashboard config={FACILITIES_DESK_DASHBOARD} />;
}
