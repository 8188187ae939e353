// The set-new-password dialog: a masked, required password for a reset that waits for
// IT. The server stores it encrypted and shows it only to the employee who asked.
import { useEffect, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { itAlerts } from '../../domain/it';
import { Button, Dialog, Input, useToast } from '../ui';
import { type ItTicket, savePasswordResetDetails, serverError } from './api';

export interface SetPasswordDialogProps {
  ticket: ItTicket | null;
  open: boolean;
  onClose: () => void;
  officerName: string;
  onSaved: () => void;
}

export function SetPasswordDialog({ ticket, open, onClose, officerName, onSaved }: SetPasswordDialogProps) {
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    // Never keep a typed password beyond the dialog.
    setPassword('');
    setTouched(false);
  }, [open, ticket?.request_id]);

  const blank = password.trim() === '';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!ticket) {
      toast.error(itAlerts.noResetSelected);
      return;
    }
    if (blank) {
      setTouched(true);
      toast.error(itAlerts.passwordRequired);
      return;
    }
    setSaving(true);
    try {
      await savePasswordResetDetails({
        form_id: ticket.request_id,
        it_helpdesk_reset_by: officerName,
        new_password: password,
        version: ticket.version,
      });
      setPassword('');
      toast.success(itAlerts.passwordSaved);
      onSaved();
    } catch (err) {
      const message = serverError(err);
      toast.error(message === null ? itAlerts.passwordSaveNetwork : itAlerts.passwordSaveFailed(message));
    } finally {
      setSaving(false);
    }
  }

  const formId = 'it-set-password-form';
  return (
    <Dialog
      open={open}
      onClose={saving ? () => undefined : onClose}
      closeOnBackdrop={!saving}
      size="lg"
      title={`Set New Password - ${ticket?.employee_name ?? ''}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={saving} disabled={blank} icon={<KeyRound className="h-4 w-4" aria-hidden="true" />}>
            {saving ? 'Saving...' : 'Save Password'}
          </Button>
        </>
      }
    >
      {ticket ? (
        <form id={formId} onSubmit={onSubmit} className="space-y-4" noValidate>
          <dl className="grid gap-x-6 gap-y-2 rounded-lg bg-indigo-50/60 p-4 text-sm sm:grid-cols-2">
            <Info label="Employee" value={ticket.employee_name} />
            <Info label="Department" value={ticket.department} />
            <Info label="System for Reset" value={ticket.system_for_reset || 'N/A'} />
            <Info label="Reset Reason" value={ticket.reset_reason || 'N/A'} />
          </dl>
          <Input
            label="New Password"
            type="password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onBlur={() => setTouched(true)}
            placeholder="Enter the new password for the employee"
            autoComplete="new-password"
            spellCheck={false}
            maxLength={200}
            error={touched && blank ? itAlerts.passwordRequired : undefined}
            hint="Stored encrypted and shown only to the employee who asked for the reset."
          />
        </form>
      ) : (
        <p className="text-sm text-gray-600">{itAlerts.noResetSelected}</p>
      )}
    </Dialog>
  );
}

function Info({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="font-medium text-gray-700">{label}:</dt>
      <dd className="min-w-0 break-words text-gray-900">{value}</dd>
    </div>
  );
}
