// HR dashboard: the HR stage's requests (leave after the line manager approved, employee info updates) of the
// employees whose HR contact is the signed-in officer. Status filter (default Pending), tiles, form-type chips with
// counts (one per registry type with an HR stage, shown only when such forms exist), the queue table, decisions with
// local row and tile updates; HR may reject without a reason. The page itself is the shared StageDashboard; this
// file is its configuration.
import { formTypesWithStage } from '../../../domain/forms';
import { approvalsApi } from '../../approvals/api';
import { type QueueColumn, createdColumn, decisionColumn, departmentColumn, employeeColumn } from '../../approvals/QueueTable';
import { StageDashboard, type StageDashboardConfig } from '../../approvals/StageDashboard';

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

export const HR_DASHBOARD: StageDashboardConfig = {
  dashboard: 'hr',
  role: 'hr',
  load: (user) => approvalsApi.hrQueue(user),
  messages: {
    loadHttp: 'Failed to load forms from HR service',
    loadOther: 'Failed to load HR data',
    refreshHttp: 'Failed to refresh forms from HR service',
    refreshOther: 'Failed to refresh data',
  },
  title: 'HR approvals',
  description: 'Leave requests (after the line manager approved) and employee information updates of your employees.',
  caption: 'HR requests',
  totalLabel: 'Total Forms',
  lead: 'form',
  columns: COLUMNS,
  afterDecision: 'replace',
  reasonRequired: false,
  // The registry's HR-stage types, in registry order ('Leave Request', 'Employee Info Update').
  typeChips: { types: () => formTypesWithStage('hr'), allLabel: 'All Forms' },
};

export function HrDashboard() {
  return <StageDashboard config={HR_DASHBOARD} />;
}
