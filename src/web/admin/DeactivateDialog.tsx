// Deactivate (offboard) a person: every stage waiting on them goes to a named person, and their own pending
// requests are withdrawn or kept. They can no longer sign in; nothing is deleted.
import { useState } from 'react';
import { Input } from '../ui';
import { type AdminPerson, adminApi } from './api';
import { FormDialog, useAdminMutation } from './parts';

export function DeactivateDialog({ person, onClose, onDone }: { person: AdminPerson; onClose: () => void; onDone: () => void }) {
  const [reassignTo, setReassignTo] = useState(person.manager ?? '');
  const [pending, setPending] = useState<'withdraw' | 'keep'>('keep');
  const [touched, setTouched] = useState(false);
  const run = useAdminMutation(
    () => adminApi.deactivate(person.employee_code, { reassign_to: reassignTo.trim(), pending_requests: pending }),
    { onDone },
  );
  const missing = touched && reassignTo.trim() === '';

  const name = `${person.first_name} ${person.last_name}`;
  return (
    <FormDialog
      formId="deactivate-form"
      title={`Deactivate ${name}`}
      description="They can no longer sign in and their sessions end at once. Their history keeps their name."
      submitLabel="Deactivate"
      danger
      errorTitle="Not deactivated"
      mutation={run}
      validate={() => {
        setTouched(true);
        return reassignTo.trim() !== '';
      }}
      onClose={onClose}
    >
      <Input
        label="Reassign their approvals and team to"
        required
        value={reassignTo}
        onChange={(e) => setReassignTo(e.target.value)}
        placeholder="e-mail or employee code"
        hint="Every request stage waiting on them, and the people who report to them, move to this person."
        error={missing ? 'Name the person who takes over' : undefined}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-700">Their own pending requests</legend>
        <label className="flex items-start gap-2 text-sm text-gray-800">
          <input type="radio" name="pending" className="mt-0.5" checked={pending === 'keep'} onChange={() => setPending('keep')} />
          <span>Keep them: they continue through their approvals.</span>
        </label>
        <label className="flex items-start gap-2 text-sm text-gray-800">
          <input type="radio" name="pending" className="mt-0.5" checked={pending === 'withdraw'} onChange={() => setPending('withdraw')} />
          <span>Withdraw them.</span>
        </label>
      </fieldset>
    </FormDialog>
  );
}
