// A form generated from the registry (src/domain/forms.ts): one control per field with its label, required mark,
// bounds and help text; dates with pickers bounded as the server bounds them (a period's last day not before its
// first); amounts in USD with two decimals; choices as selects. Validated on the client with the server's own zod
// schema (registryResolver), so the messages are the server's; a refusal of the server is shown on the form too
// (on its field when the message names one). Submits POST /api/forms/<type>, or edits a pending request with
// PUT /api/forms/<type>/<request_id>. The leave form shows the balance and the working days the dates take.
import { useMemo, useState } from 'react';
import { useForm, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { businessToday } from '../../domain/business-time';
import { type FieldDef, dateInputBounds, formTypeDef, isLeaveType, textMaxLength } from '../../domain/forms';
import { ApiError, api } from '../api/client';
import { useCurrentUser } from '../auth/AuthProvider';
import { useHolidays } from '../calendar/api';
import { Button, Input, Select, Textarea } from '../ui';
import { useQueryClient } from '@tanstack/react-query';
import { FORMS_KEY } from './api';
import { FormStatus, type SubmitState } from './FormStatus';
import { type FormValues, fieldOfMessage, initialValues, leaveWorkingDays, moneyText, registryResolver } from './generated';
import { LeaveBalanceTiles } from './LeaveBalanceTiles';
import type { FormRecord, SubmitResult } from './types';

export const NETWORK_ERROR = 'The request could not be sent. Check your connection and try again.';

export interface GeneratedFormProps {
  formType: string;
  /** A pending request of the person's to edit (PUT); without it the form submits a new request. */
  record?: FormRecord | null;
  /** After a successful submit or edit (the lists reload by themselves). */
  onDone?: (result: FormRecord & Partial<SubmitResult>) => void;
  onCancel?: () => void;
}

function FieldControl({
  fd,
  register,
  error,
  bounds,
  disabled,
  onMoneyBlur,
}: {
  fd: FieldDef;
  register: UseFormRegister<FormValues>;
  error?: string;
  bounds: { min?: string; max?: string };
  disabled: boolean;
  onMoneyBlur: (name: string, value: string) => void;
}) {
  const common = { label: fd.label, required: fd.required, error, disabled, 'data-field': fd.name };
  const reg = register(fd.name);
  switch (fd.type) {
    case 'longtext':
      return <Textarea {...common} {...reg} rows={3} maxLength={textMaxLength(fd)} hint={fd.help} placeholder={fd.question} />;
    case 'enum':
      return (
        <Select {...common} {...reg} hint={fd.help}>
          <option value="">Select {fd.label.toLowerCase()}</option>
          {fd.options?.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </Select>
      );
    case 'date':
      return <Input {...common} {...reg} type="date" min={bounds.min} max={bounds.max} hint={fd.help} />;
    case 'time':
      return <Input {...common} {...reg} type="time" hint={fd.help} />;
    case 'integer':
      return (
        <Input
          {...common}
          {...reg}
          type="number"
          inputMode="numeric"
          step={1}
          min={fd.min}
          max={fd.max}
          hint={fd.help ?? wholeNumberHint(fd)}
        />
      );
    case 'number':
      return <Input {...common} {...reg} type="number" inputMode="decimal" step="any" min={fd.min} max={fd.max} hint={fd.help} />;
    case 'money':
      return (
        <Input
          {...common}
          {...reg}
          type="number"
          inputMode="decimal"
          step={0.01}
          min={fd.min ?? 0}
          hint={fd.help ?? 'US dollars (USD), up to two decimals'}
          onBlur={(e) => {
            void reg.onBlur(e);
            onMoneyBlur(fd.name, e.target.value);
          }}
        />
      );
    default:
      return <Input {...common} {...reg} type="text" maxLength={textMaxLength(fd)} hint={fd.help} placeholder={fd.question} />;
  }
}

function wholeNumberHint(fd: FieldDef): string | undefined {
  if (fd.min !== undefined && fd.max !== undefined) return `A whole number from ${fd.min} to ${fd.max}`;
  if (fd.min !== undefined) return `A whole number, at least ${fd.min}`;
  return undefined;
}

/** The leave form's balance tiles and the working days the chosen dates take. */
export function LeaveSummary({ control, userId }: { control: Control<FormValues>; userId: string | number }) {
  const [start = '', end = ''] = useWatch({ control, name: ['start_date', 'end_date'] });
  const year = Number((start || businessToday()).slice(0, 4));
  const holidays = useHolidays(year);
  const days = leaveWorkingDays(start, end, holidays.data?.holidays ?? []);
  return (
    <section className="space-y-2 rounded-md border border-indigo-100 bg-indigo-50/40 p-3" aria-label="Your leave">
      <LeaveBalanceTiles userId={userId} />
      <p className="text-sm text-gray-800" data-testid="leave-working-days" aria-live="polite">
        {days === null ? (
          'Choose the first and last day to see how many working days the leave takes.'
        ) : holidays.isLoading ? (
          'Counting working days…'
        ) : (
          <>
            <span className="font-semibold tabular-nums">{days}</span> working day{days === 1 ? '' : 's'} (weekends and office holidays are
            not counted)
            {holidays.isError && ' · office holidays could not be loaded; the server counts them when you submit'}
          </>
        )}
      </p>
    </section>
  );
}

export function GeneratedForm({ formType, record, onDone, onCancel }: GeneratedFormProps) {
  const def = formTypeDef(formType);
  const user = useCurrentUser();
  const qc = useQueryClient();
  const editing = Boolean(record);
  const resolver = useMemo(() => registryResolver(formType), [formType]);
  const defaults = useMemo(() => initialValues(formType, record), [formType, record]);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ resolver, defaultValues: defaults, mode: 'onSubmit', reValidateMode: 'onChange' });
  const [state, setState] = useState<SubmitState>({ kind: 'idle' });
  const values = useWatch({ control }) as FormValues;
  const today = businessToday();

  if (!def) return null;

  const onSubmit = handleSubmit(async (parsed) => {
    setState({ kind: 'submitting' });
    try {
      const path = `/api/forms/${encodeURIComponent(formType)}`;
      const r = editing
        ? await api.put<FormRecord>(`${path}/${encodeURIComponent(record!.request_id)}`, parsed)
        : await api.post<SubmitResult>(path, parsed);
      void qc.invalidateQueries({ queryKey: FORMS_KEY });
      if (!editing) reset(initialValues(formType));
      setState({
        kind: 'success',
        message: [
          editing ? `${r.request_id} updated` : (r as SubmitResult).message || 'Request submitted successfully!',
          typeof r.holiday_note === 'string' ? `${r.holiday_note}.` : '',
        ]
          .filter(Boolean)
          .join(' '),
        requestId: editing ? undefined : r.request_id,
      });
      onDone?.(r);
    } catch (err) {
      if (err instanceof ApiError) {
        // The server's refusal, word for word; on its field too when it names one.
        const field = fieldOfMessage(def, err.message);
        if (field) setError(field, { type: 'server', message: err.message });
        setState({ kind: 'error', message: err.message });
      } else setState({ kind: 'error', message: NETWORK_ERROR });
    }
  });

  const busy = isSubmitting || state.kind === 'submitting';
  const formError = errors.root?.server?.message;
  return (
    <form
      onSubmit={onSubmit}
      className="space-y-4"
      aria-label={`${def.title} form`}
      noValidate
      data-testid={`generated-form-${formType}`}
      onChange={() => state.kind !== 'idle' && state.kind !== 'submitting' && setState({ kind: 'idle' })}
    >
      {isLeaveType(formType) && <LeaveSummary control={control} userId={record?.employee_user_id ?? user.id} />}
      <div className="grid gap-4 sm:grid-cols-2">
        {def.fields.map((fd) => (
          <div key={fd.name} className={fd.type === 'longtext' ? 'sm:col-span-2' : undefined}>
            <FieldControl
              fd={fd}
              register={register}
              error={errors[fd.name]?.message}
              bounds={fd.type === 'date' ? dateInputBounds(formType, fd.name, values, today) : {}}
              disabled={busy}
              onMoneyBlur={(name, v) => {
                const formatted = moneyText(v);
                if (formatted !== v) setValue(name, formatted);
              }}
            />
          </div>
        ))}
      </div>
      {formError && (
        <p role="alert" className="text-sm font-medium text-red-700" data-testid="form-error">
          {formError}
        </p>
      )}
      <FormStatus state={state} />
      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {busy ? (editing ? 'Saving...' : 'Submitting...') : editing ? 'Save changes' : 'Submit Request'}
        </Button>
      </div>
    </form>
  );
}
