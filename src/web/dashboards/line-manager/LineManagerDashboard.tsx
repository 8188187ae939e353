// Line manager dashboard: the team's approvals (TeamApprovals) in the dashboard shell.
import { DashboardLayout } from '../../shell/DashboardLayout';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';

export { ACK_REFRESH_MS } from '../../approvals/TeamApprovals';

export function LineManagerDashboard() {
  return (
    <DashboardLayout dashboard="line-manager">
      <TeamApprovals />
      <OtherRequests />
    </DashboardLayout>
  );
}
