// The administrator's 'Overdue' tab: every approval step across the company waiting longer than its form type's
// first limit (GET /api/admin/overdue), longest first, with whom it waits on and any escalation.
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, TBody, THead, Table, Td, Th, Tr } from '../ui';
import { Loaded, Section } from '../admin/parts';
import { waitingLabel } from '../../domain/reminders';
import { overdueItems } from './api';

export function OverdueScreen() {
  const overdue = useQuery({ queryKey: ['admin', 'overdue'], queryFn: overdueItems });
  const shown = { ...overdue, data: overdue.data?.items };
  return (
    <Section
      title="Overdue approvals"
      description="Steps waiting longer than their form type's reminder limit (working days). After the second limit they escalate to the approver's manager."
      actions={
        <Button size="sm" variant="secondary" onClick={() => void overdue.refetch()} loading={overdue.isFetching && !overdue.isPending}>
          Refresh
        </Button>
      }
    >
      <Loaded
        query={shown}
        what="overdue approvals"
        empty={{ title: 'Nothing is overdue', description: 'Every waiting step is within its limits.' }}
      >
        {(rows) => (
          <Table cards caption="Overdue approvals" data-testid="overdue-table">
            <THead>
              <tr>
                <Th>Request</Th>
                <Th>Employee</Th>
                <Th>Step</Th>
                <Th>Waiting on</Th>
                <Th>Waiting</Th>
                <Th showFrom="3xl">Escalated to</Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((r) => (
                <Tr key={`${r.form_id}-${r.stage}`} data-request-id={r.form_id}>
                  <Td>
                    <span className="block font-medium text-gray-900">{r.title}</span>
                    <span className="block font-mono text-xs text-gray-500">{r.form_id}</span>
                  </Td>
                  <Td label="Employee">
                    <span className="block">{r.employee_name}</span>
                    <span className="block text-xs text-gray-500">{r.department}</span>
                  </Td>
                  <Td label="Step">{r.stage_label}</Td>
                  <Td label="Waiting on">{r.waiting_on}</Td>
                  <Td label="Waiting">
                    <Badge tone={r.waiting_days >= r.escalate_after_days ? 'danger' : 'warning'}>{waitingLabel(r.waiting_days)}</Badge>
                  </Td>
                  <Td label="Escalated to" showFrom="3xl">
                    {r.escalated_to ?? '—'}
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
    </Section>
  );
}
