// Facility Access Booking Form (FAC-AC-15): request type, facilities requested, justification. The submit button
// stays disabled until all three are filled; on success the form clears and says 'Form submitted successfully!'.
// Before sending, the values are checked with the server's own schema (the registry's formSchema), so a value the
// server would refuse is refused here with the server's message and nothing is sent.
import { useState, type FormEvent } from 'react';
import { ACCESS_REQUEST_TYPES, firstIssueMessage, formSchema, formTypeDef, textMaxLength } from '../../domain/forms';
import { useCurrentUser } from '../auth/AuthProvider';
import { Button, Input, Select, Textarea } from '../ui';
import { useSubmitForm } from './api';
import { identityPayload } from './identity';
import { FormStatus, type SubmitState } from './FormStatus';

export const FACILITY_SUCCESS = 'Form submitted successfully!';
export const FACILITY_ERROR = 'Error submitting form. Please try again.';

const EMPTY = { access_request_type: '', facilities_requested: '', justification: '' };

/** The longest text each field takes, from the registry (the server's limits). */
function maxOf(name: keyof typeof EMPTY): number {
  const fd = formTypeDef('facility-access')?.fields.find((f) => f.name === name);
  return fd ? textMaxLength(fd) : 200;
}

/** The server's message for values its schema refuses, or null when they pass. */
export function facilityAccessProblem(values: typeof EMPTY): string | null {
  const r = formSchema('facility-access').safeParse(values);
  return r.success ? null : firstIssueMessage(r.error);
}

export function FacilityAccessForm({ onSubmitted }: { onSubmitted?: () => void }) {
  const user = useCurrentUser();
  const [values, setValues] = useState(EMPTY);
  const [state, setState] = useState<SubmitState>({ kind: 'idle' });
  const submit = useSubmitForm(() => '/api/forms/facility-access');
  const complete = values.access_request_type !== '' && values.facilities_requested.trim() !== '' && values.justification.trim() !== '';
  const submitting = state.kind === 'submitting';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!complete || submitting) return;
    if (!user.profile?.employee_code) {
      setState({ kind: 'error', message: FACILITY_ERROR });
      return;
    }
    const problem = facilityAccessProblem(values);
    if (problem) {
      setState({ kind: 'error', message: problem });
      return;
    }
    setState({ kind: 'submitting' });
    try {
      const r = await submit.mutateAsync({ ...identityPayload(user, { department: 'Unknown', manager: 'N/A' }), ...values });
      setValues(EMPTY);
      setState({ kind: 'success', message: FACILITY_SUCCESS, requestId: r.request_id });
      onSubmitted?.();
    } catch {
      setState({ kind: 'error', message: FACILITY_ERROR });
    }
  }

  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    if (state.kind !== 'submitting') setState({ kind: 'idle' });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Facility Access Booking Form" noValidate>
      <Select label="Request type" required value={values.access_request_type} onChange={set('access_request_type')} disabled={submitting}>
        <option value="">Select request type</option>
        {ACCESS_REQUEST_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </Select>
      <Input
        label="Facilities requested"
        required
        maxLength={maxOf('facilities_requested')}
        placeholder="e.g. Server room, Lab 3, Floor 4"
        value={values.facilities_requested}
        onChange={set('facilities_requested')}
        disabled={submitting}
      />
      <Textarea
        label="Justification"
        required
        maxLength={maxOf('justification')}
        rows={4}
        placeholder="Why do you need this access?"
        value={values.justification}
        onChange={set('justification')}
        disabled={submitting}
      />
      <FormStatus state={state} />
      <div className="flex justify-end">
        <Button type="submit" disabled={!complete} loading={submitting}>
          {submitting ? 'Submitting...' : 'Submit Request'}
        </Button>
      </div>
    </form>
  );
}
