// Deactivate (offboard) a person: every stage waiting on them goes to a named person, and their own pending
// requests are withdrawn or kept. They can no longer sign in; nothing is deleted.
import { type FormEvent, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, ErrorBanner, Input } from '../ui';
import { type AdminPerson, adminApi, errorText } from './api';

export function DeactivateDialog({ person, onClose, onDone }: { person: AdminPerson; onClose: () => void; onDone: () => void }) {
  const qc = useQueryClient();
  const [reassignTo, setReassignTo] = useState(person.manager ?? '');
  const [pending, setPending] = useState<'withdraw' | 'keep'>('keep');
  const [touched, setTouched] = useState(false);
  const run = useMutation({
    mutationFn: () => adminApi.deactivate(person.employee_code, { reassign_to: reassignTo.trim(), pending_requests: pending }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin'] });
      onDone();
    },
  });
  const missing = touched && reassignTo.trim() === '';

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (reassignTo.trim() === '') return;
    run.mutate();
  }

  const name = `${person.first_name} ${person.last_name}`;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Deactivate ${name}`}
      description="They can no longer sign in and their sessions end at once. Their history keeps their name."
      closeOnBackdrop={!run.isPending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={run.isPending}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form="deactivate-form" loading={run.isPending}>
            Deactivate
          </Button>
        </>
      }
    >
      <form id="deactivate-form" onSubmit={submit} className="space-y-4" noValidate>
        {run.isError && <ErrorBanner title="Not deactivated">{errorText(run.error)}</ErrorBanner>}
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
            <input
              type="radio"
              name="pending"
              className="mt-0.5"
              checked={pending === 'withdraw'}
              onChange={() => setPending('withdraw')}
            />
            <span>Withdraw them.</span>
          </label>
        </fieldset>
      </form>
    </Dialog>
  );
}
