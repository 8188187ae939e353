// IT support dashboard: the dashboard frame around the IT desk (tickets and password resets),
// and for IT staff who manage people the 'Your team' section the other approver dashboards have.
import { useQueryClient } from '@tanstack/react-query';
import { TeamApprovals } from '../../approvals/TeamApprovals';
import { OtherRequests } from '../../approvals/OtherRequests';
import { ItDesk } from '../../it-desk/ItDesk';
import { IT_QUEUE_KEY } from '../../it-desk/api';
import { DashboardLayout } from '../../shell/DashboardLayout';

export function ItDashboard() {
  const qc = useQueryClient();
  return (
    <DashboardLayout dashboard="it">
      <ItDesk />
      {/* An acknowledged password reset of a report moves to Pending IT Action: the desk reloads. */}
      <TeamApprovals embedded onTeamChange={() => void qc.invalidateQueries({ queryKey: IT_QUEUE_KEY })} />
      <OtherRequests />
    </DashboardLayout>
  );
}
