// The administrator's reminder limits per form type (working days): after the first a waiting step reminds its
// approvers daily, after the second it escalates. Defaults 2 and 5.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, TBody, THead, Table, Td, Th, Tr, useToast } from '../ui';
import { Loaded, Section } from '../admin/parts';
import { type ReminderSetting, reminderSettings, saveReminderSetting } from './api';

export function ReminderSettings() {
  const settings = useQuery({ queryKey: ['admin', 'reminder-settings'], queryFn: reminderSettings });
  const shown = { ...settings, data: settings.data?.form_types };
  return (
    <Section
      title="Reminder limits"
      description="Working days a step may wait before its approvers are reminded (daily), and before it escalates."
    >
      <Loaded query={shown} what="reminder limits" empty={{ title: 'No form types' }}>
        {(rows) => (
          <Table cards caption="Reminder limits" data-testid="reminder-settings">
            <THead>
              <tr>
                <Th>Form type</Th>
                <Th>Remind after</Th>
                <Th>Escalate after</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((r) => (
                <SettingRow key={r.form_type} row={r} />
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
    </Section>
  );
}

function SettingRow({ row }: { row: ReminderSetting }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [remind, setRemind] = useState(String(row.remind_after_days));
  const [escalate, setEscalate] = useState(String(row.escalate_after_days));
  const save = useMutation({
    mutationFn: () => saveReminderSetting(row.form_type, Number(remind), Number(escalate)),
    onSuccess: () => {
      toast.success(`${row.title}: limits saved`);
      void qc.invalidateQueries({ queryKey: ['admin', 'reminder-settings'] });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : 'Not saved'),
  });
  const changed = remind !== String(row.remind_after_days) || escalate !== String(row.escalate_after_days);
  return (
    <Tr>
      <Td>
        <span className="font-medium text-gray-900">{row.title}</span>
        {row.custom && <span className="ml-2 text-xs text-gray-500">custom</span>}
      </Td>
      <Td label="Remind after">
        <Input
          label={`Remind after (${row.title})`}
          hideLabel
          type="number"
          min={1}
          max={60}
          value={remind}
          onChange={(e) => setRemind(e.target.value)}
          className="w-20"
        />
      </Td>
      <Td label="Escalate after">
        <Input
          label={`Escalate after (${row.title})`}
          hideLabel
          type="number"
          min={2}
          max={120}
          value={escalate}
          onChange={(e) => setEscalate(e.target.value)}
          className="w-20"
        />
      </Td>
      <Td align="right" actions>
        <Button size="sm" variant="secondary" disabled={!changed} loading={save.isPending} onClick={() => save.mutate()}>
          Save
        </Button>
      </Td>
    </Tr>
  );
}
