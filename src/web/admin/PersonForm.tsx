// Create or edit a person: every field of the person JSON, the dashboard and assistant the role will get shown
// before saving, and the server's refusal (duplicate e-mail, a cycle, an unknown manager...) shown on the form,
// next to the field it names when it names one.
import { useDeferredValue, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { Input, Select } from '../ui';
import { type AdminPerson, type Department, type PersonInput, adminApi, errorText } from './api';
import { FormDialog, roleOutcome, useAdminMutation } from './parts';

/** Role names offered while typing (any text is allowed: the role text decides the dashboard as in the spec). */
export const ROLE_NAMES = [
  'Employee',
  'Team Lead',
  'Department Manager',
  'HR Officer',
  'HR Manager',
  'Finance Officer',
  'IT Support Officer',
  'Facilities Desk Coordinator',
  'Facilities Manager',
  'System Administrator',
];

const USER_TYPES = [
  'employee',
  'line_manager',
  'hr_staff',
  'finance_staff',
  'it_staff',
  'facilities_staff',
  'facilities_manager',
  'admin',
] as const;

type FieldName =
  | 'email'
  | 'first_name'
  | 'last_name'
  | 'employee_code'
  | 'department'
  | 'role'
  | 'user_type'
  | 'manager'
  | 'hr_contact'
  | 'join_date'
  | 'annual_leave_total'
  | 'active';
type Fields = Record<FieldName, string>;
const FIELD_NAMES: FieldName[] = [
  'email',
  'first_name',
  'last_name',
  'employee_code',
  'department',
  'role',
  'user_type',
  'manager',
  'hr_contact',
  'join_date',
  'annual_leave_total',
  'active',
];

function toFields(p: AdminPerson | null, defaultLeave: number): Fields {
  return {
    email: p?.email ?? '',
    first_name: p?.first_name ?? '',
    last_name: p?.last_name ?? '',
    employee_code: p?.employee_code ?? '',
    department: p?.department ?? '',
    role: p?.role ?? 'Employee',
    user_type: p?.user_type ?? 'employee',
    manager: p?.manager ?? '',
    hr_contact: p?.hr_contact ?? '',
    join_date: p?.join_date ?? '',
    annual_leave_total: String(p?.annual_leave_total ?? defaultLeave),
    active: String(p?.active ?? true),
  };
}

/** The field a server message is about: the body's `field`, else the first field name the message contains. */
function fieldOf(err: unknown): FieldName | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const body = err.body as { field?: unknown } | undefined;
  if (body && typeof body.field === 'string' && (FIELD_NAMES as string[]).includes(body.field)) return body.field as FieldName;
  const msg = err.message.toLowerCase();
  if (/e-?mail/.test(msg)) return 'email';
  if (/employee.?code/.test(msg)) return 'employee_code';
  if (/cycle|manager/.test(msg)) return 'manager';
  if (/hr.?contact/.test(msg)) return 'hr_contact';
  if (/department/.test(msg)) return 'department';
  if (/join.?date|date/.test(msg)) return 'join_date';
  if (/leave|allowance/.test(msg)) return 'annual_leave_total';
  if (/user.?type/.test(msg)) return 'user_type';
  if (/role/.test(msg)) return 'role';
  return undefined;
}

export function PersonForm({
  person,
  departments,
  defaultLeave,
  onClose,
  onSaved,
}: {
  /** null: a new person. */
  person: AdminPerson | null;
  departments: Department[];
  defaultLeave: number;
  onClose: () => void;
  onSaved: (p: AdminPerson, created: boolean) => void;
}) {
  const [f, setF] = useState<Fields>(() => toFields(person, defaultLeave));
  const set = (k: keyof Fields) => (e: { target: { value: string } }) => setF((old) => ({ ...old, [k]: e.target.value }));
  const outcome = useMemo(() => roleOutcome(f.role, f.user_type), [f.role, f.user_type]);
  // The server's word on the pair (a role the user type cannot go with, whether they may manage people).
  const previewRole = useDeferredValue(f.role.trim());
  const preview = useQuery({
    queryKey: ['admin', 'role-preview', previewRole, f.user_type],
    queryFn: () => adminApi.rolePreview(previewRole, f.user_type),
    enabled: previewRole !== '',
    staleTime: Infinity,
  });
  const save = useAdminMutation(
    async () => {
      const body: PersonInput = {
        email: f.email.trim(),
        first_name: f.first_name.trim(),
        last_name: f.last_name.trim(),
        employee_code: f.employee_code.trim(),
        department: f.department || null,
        role: f.role.trim(),
        user_type: f.user_type,
        manager: f.manager.trim() || null,
        hr_contact: f.hr_contact.trim() || null,
        join_date: f.join_date || null,
        annual_leave_total: Number(f.annual_leave_total),
      };
      if (!person) return adminApi.createPerson(body);
      // Deactivating is its own dialog (reassignment); the form can only reactivate.
      return adminApi.updatePerson(person.employee_code, !person.active && f.active === 'true' ? { ...body, active: true } : body);
    },
    { onDone: (saved) => onSaved(saved, person === null) },
  );
  const errField = save.isError ? fieldOf(save.error) : undefined;
  const err = (k: FieldName) => (errField === k ? errorText(save.error) : undefined);

  return (
    <FormDialog
      formId="person-form"
      size="lg"
      title={person ? `Edit ${person.first_name} ${person.last_name}` : 'Add a person'}
      description="Managers and HR contacts are named by e-mail or employee code."
      submitLabel={person ? 'Save changes' : 'Add person'}
      mutation={save}
      onClose={onClose}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Input label="First name" required value={f.first_name} onChange={set('first_name')} error={err('first_name')} autoComplete="off" />
        <Input label="Last name" required value={f.last_name} onChange={set('last_name')} error={err('last_name')} autoComplete="off" />
        <Input label="E-mail" type="email" required value={f.email} onChange={set('email')} error={err('email')} autoComplete="off" />
        <Input label="Employee code" required value={f.employee_code} onChange={set('employee_code')} error={err('employee_code')} />
        <Select label="Department" value={f.department} onChange={set('department')} error={err('department')}>
          <option value="">No department</option>
          {departments.map((d) => (
            <option key={d.code} value={d.code}>
              {d.name} ({d.code})
            </option>
          ))}
        </Select>
        <Input label="Join date" type="date" value={f.join_date} onChange={set('join_date')} error={err('join_date')} />
        <Input label="Role" required value={f.role} onChange={set('role')} error={err('role')} list="admin-role-names" />
        <Select label="User type" value={f.user_type} onChange={set('user_type')} error={err('user_type')}>
          {USER_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <p
          className="rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-900 sm:col-span-2"
          aria-live="polite"
          data-testid="role-outcome"
        >
          This role gets the <strong>{outcome.dashboard}</strong> and {outcome.assistant}
          {preview.data ? (preview.data.can_manage ? '; they can be a line manager.' : '; they cannot be anyone’s line manager.') : '.'}
          {preview.data?.problem && <span className="mt-1 block font-medium text-amber-800">{preview.data.problem}</span>}
        </p>
        <Input
          label="Line manager"
          value={f.manager}
          onChange={set('manager')}
          error={err('manager')}
          placeholder="e-mail or employee code"
        />
        <Input
          label="HR contact"
          value={f.hr_contact}
          onChange={set('hr_contact')}
          error={err('hr_contact')}
          placeholder="e-mail or employee code"
        />
        <Input
          label="Annual leave allowance (days)"
          type="number"
          min={0}
          max={365}
          step={0.5}
          value={f.annual_leave_total}
          onChange={set('annual_leave_total')}
          error={err('annual_leave_total')}
        />
        {person && !person.active && (
          <Select
            label="Status"
            value={f.active}
            onChange={set('active')}
            error={err('active')}
            hint="Reactivating lets them sign in again."
          >
            <option value="false">Inactive</option>
            <option value="true">Active again</option>
          </Select>
        )}
      </div>
      <datalist id="admin-role-names">
        {ROLE_NAMES.map((r) => (
          <option key={r} value={r} />
        ))}
      </datalist>
    </FormDialog>
  );
}
