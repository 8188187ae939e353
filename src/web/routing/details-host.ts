// Which part of a dashboard shows the details of a request opened by its URL (/requests/<id>): the person's own
// request opens the employee's details; on an approver dashboard a request of the dashboard's stage opens that
// dashboard's details (with its decisions), any other one (a report's request) the 'Your team' details.
import { hasStage } from '../../domain/approvals';
import type { Stage } from '../../domain/forms';
import type { DashboardKind } from '../../domain/roles';

export type DetailsHost = 'own' | 'dashboard' | 'team';

const DASHBOARD_STAGE: Partial<Record<DashboardKind, Stage>> = {
  hr: 'hr',
  finance: 'finance',
  facilities_desk: 'facilities_desk',
  facilities_manager: 'facilities_manager',
  it: 'it_helpdesk',
};

export function detailsHost(
  dashboard: DashboardKind,
  viewerId: number | string,
  record: { form_type: string; employee_user_id?: number | string | null },
): DetailsHost {
  if (dashboard === 'employee' || String(record.employee_user_id ?? '') === String(viewerId)) return 'own';
  const stage = DASHBOARD_STAGE[dashboard];
  if (stage && hasStage(record.form_type, stage)) return 'dashboard';
  return 'team';
}
