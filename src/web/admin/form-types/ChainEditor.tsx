// The approval chain of a form type: stages in order, each approved by the requester's line manager, that
// manager's manager, a group (the built-in role groups or one the administrator defined) or a named person searched
// from the people list; optionally only when a field of the request compares with a value.
import { useQuery } from '@tanstack/react-query';
import { Plus, X } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { BUILTIN_GROUPS } from '../../../domain/form-types';
import { Button, Input, Select, Spinner } from '../../ui';
import { adminApi } from '../api';
import { type ApproverGroup, formTypesApi } from './api';
import { type ApproverKind, type DraftErrors, type FieldDraft, type StageDraft, newStage, opsFor, optionsOf } from './draft';
import { Checkbox, ItemCard, moved } from './parts';

/** The groups every installation has (the domain's list), offered even when the groups call fails. */
export const BUILTIN_APPROVER_GROUPS: readonly ApproverGroup[] = Object.entries(BUILTIN_GROUPS).map(([name, g]) => ({
  name,
  title: g.title,
  builtin: true,
}));

const KINDS: readonly { id: ApproverKind; label: string }[] = [
  { id: 'line_manager', label: 'Line manager' },
  { id: 'managers_manager', label: "Manager's manager" },
  { id: 'hr_contact', label: "The requester's HR contact" },
  { id: 'group', label: 'A group' },
  { id: 'person', label: 'A named person' },
];

/** The built-in groups and the administrator's, each once. */
export function useApproverGroups() {
  const q = useQuery({ queryKey: ['admin', 'groups'], queryFn: formTypesApi.groups, staleTime: 60_000 });
  const own = (q.data ?? []).filter((g) => !BUILTIN_APPROVER_GROUPS.some((b) => b.name === g.name));
  return { groups: [...BUILTIN_APPROVER_GROUPS, ...own], failed: q.isError };
}

export function ChainEditor({
  chain,
  fields,
  onChange,
  errors,
}: {
  chain: StageDraft[];
  fields: FieldDraft[];
  onChange: (chain: StageDraft[]) => void;
  errors: DraftErrors;
}) {
  const { groups, failed } = useApproverGroups();
  const update = (i: number, patch: Partial<StageDraft>) => onChange(chain.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const named = fields.filter((f) => f.label.trim() && f.name);
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-gray-900">Approval chain</legend>
      <p className="text-xs text-gray-500">Stages run in order. A stage whose condition is false is skipped and shows as ‘Not required’.</p>
      {errors.chain && (
        <p className="text-sm font-medium text-red-700" role="alert">
          {errors.chain}
        </p>
      )}
      <ol className="space-y-3">
        {chain.map((s, i) => {
          const p = `chain.${i}`;
          const title = `Stage ${i + 1}`;
          const field = named.find((f) => f.name === s.field);
          return (
            <ItemCard
              key={s.key}
              title={title}
              index={i}
              count={chain.length}
              onMove={(from, to) => onChange(moved(chain, from, to))}
              onRemove={() => onChange(chain.filter((_, j) => j !== i))}
              removeLabel={`Remove ${title}`}
            >
              <div className="grid gap-3 sm:grid-cols-2">
                <Select
                  label="Approved by"
                  value={s.kind}
                  onChange={(e) => update(i, { kind: e.target.value as ApproverKind })}
                  error={
                    s.kind === 'line_manager' || s.kind === 'managers_manager' || s.kind === 'hr_contact'
                      ? errors[`${p}.approver`]
                      : undefined
                  }
                >
                  {KINDS.map((k) => (
                    <option key={k.id} value={k.id}>
                      {k.label}
                    </option>
                  ))}
                </Select>
                {s.kind === 'group' && (
                  <Select
                    label="Group"
                    value={s.group}
                    onChange={(e) => update(i, { group: e.target.value })}
                    error={errors[`${p}.approver`]}
                    hint={failed ? 'Could not load your own groups; the built-in ones are listed.' : undefined}
                  >
                    <option value="">Choose a group…</option>
                    {groups.map((g) => (
                      <option key={g.name} value={g.name}>
                        {g.title ?? g.name}
                      </option>
                    ))}
                  </Select>
                )}
                {s.kind === 'person' && (
                  <PersonPicker
                    code={s.person}
                    label={s.personLabel}
                    error={errors[`${p}.approver`]}
                    onPick={(code, label) => update(i, { person: code, personLabel: label })}
                  />
                )}
                <div className="sm:col-span-2">
                  <Checkbox
                    label="Only when a field matches a condition"
                    checked={s.conditional}
                    onChange={(v) => update(i, { conditional: v, field: v ? s.field || (named[0]?.name ?? '') : s.field })}
                  />
                </div>
                {s.conditional && (
                  <div className="grid gap-3 sm:col-span-2 sm:grid-cols-3">
                    <Select
                      label="Field"
                      value={s.field}
                      onChange={(e) => {
                        const ops = opsFor(named.find((f) => f.name === e.target.value)?.type);
                        update(i, { field: e.target.value, value: '', op: ops.some((o) => o.id === s.op) ? s.op : ops[0].id });
                      }}
                      error={errors[`${p}.field`]}
                    >
                      <option value="">Choose a field…</option>
                      {named.map((f) => (
                        <option key={f.key} value={f.name}>
                          {f.label}
                        </option>
                      ))}
                    </Select>
                    <Select
                      label="Operator"
                      value={s.op}
                      onChange={(e) => update(i, { op: e.target.value as StageDraft['op'] })}
                      error={errors[`${p}.op`]}
                    >
                      {opsFor(field?.type).map((o) => (
                        <option key={o.id} value={o.id}>
                          {o.label} ({o.id})
                        </option>
                      ))}
                    </Select>
                    <ConditionValue field={field} value={s.value} error={errors[`${p}.value`]} onChange={(value) => update(i, { value })} />
                  </div>
                )}
              </div>
            </ItemCard>
          );
        })}
      </ol>
      <Button
        variant="secondary"
        size="sm"
        icon={<Plus className="h-4 w-4" aria-hidden="true" />}
        onClick={() => onChange([...chain, newStage()])}
      >
        Add stage
      </Button>
    </fieldset>
  );
}

function ConditionValue({
  field,
  value,
  error,
  onChange,
}: {
  field: FieldDraft | undefined;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  if (field?.type === 'choice' || field?.type === 'yes/no') {
    const options = field.type === 'choice' ? optionsOf(field) : ['Yes', 'No'];
    return (
      <Select label="Value" value={value} onChange={(e) => onChange(e.target.value)} error={error}>
        <option value="">Choose…</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </Select>
    );
  }
  const type =
    field?.type === 'date'
      ? 'date'
      : field?.type === 'time'
        ? 'time'
        : field?.type === 'number' || field?.type === 'money'
          ? 'number'
          : 'text';
  return (
    <Input
      label={field?.type === 'money' ? 'Value (USD)' : 'Value'}
      type={type}
      inputMode={type === 'number' ? 'decimal' : undefined}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}

/** A named person: the chosen one, or a search over the people list (active people, by name, e-mail or code). */
function PersonPicker({
  code,
  label,
  error,
  onPick,
}: {
  code: string;
  label: string;
  error?: string;
  onPick: (code: string, label: string) => void;
}) {
  const [term, setTerm] = useState('');
  const q = useDeferredValue(term.trim());
  const people = useQuery({
    queryKey: ['admin', 'people', 'pick', q],
    queryFn: () => adminApi.people({ q, active: 'true' }),
    enabled: q.length >= 2 && !code,
    staleTime: 30_000,
  });
  if (code)
    return (
      <div className="space-y-1">
        <p className="block text-sm font-medium text-gray-700">Person</p>
        <p
          className="flex min-h-10 items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-3 text-sm"
          data-testid="chosen-person"
        >
          <span className="min-w-0 truncate">{label || code}</span>
          <Button size="sm" variant="ghost" onClick={() => onPick('', '')} icon={<X className="h-4 w-4" aria-hidden="true" />}>
            Change
          </Button>
        </p>
      </div>
    );
  const found = people.data?.people.slice(0, 8) ?? [];
  return (
    <div className="space-y-1">
      <Input
        label="Person"
        type="search"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        placeholder="Name, e-mail or employee code"
        error={error}
        hint={q.length < 2 ? 'Type at least two letters' : undefined}
        autoComplete="off"
      />
      {q.length >= 2 && (
        <div className="rounded-md border border-gray-200 bg-white text-sm" aria-live="polite">
          {people.isPending ? (
            <p className="flex items-center gap-2 p-2 text-gray-600">
              <Spinner size="sm" /> Searching…
            </p>
          ) : people.isError ? (
            <p className="p-2 text-red-700">Could not search people. Try again.</p>
          ) : found.length === 0 ? (
            <p className="p-2 text-gray-600">No one matches ‘{q}’.</p>
          ) : (
            <ul className="max-h-48 overflow-y-auto">
              {found.map((p) => {
                const name = `${p.first_name} ${p.last_name} (${p.employee_code})`;
                return (
                  <li key={p.employee_code}>
                    <button
                      type="button"
                      className="block w-full px-3 py-2 text-left hover:bg-indigo-50 focus:bg-indigo-50 focus:outline-none"
                      onClick={() => onPick(p.employee_code, name)}
                    >
                      <span className="block font-medium text-gray-900">{name}</span>
                      <span className="block text-xs break-all text-gray-500">{p.email}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
