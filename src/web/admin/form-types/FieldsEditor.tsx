// The fields of a form type: add, remove, reorder; label (the stored name follows it until typed), type, required,
// the options of a choice, bounds, help text. On a type with requests, stored fields keep their name and type and
// stay; new ones must be optional.
import { Plus } from 'lucide-react';
import { Button, Input, Select, Textarea } from '../../ui';
import { BOUNDED, type DraftErrors, FIELD_TYPES, type FieldDraft, nameFromLabel, newField } from './draft';
import type { WireFieldType } from './api';
import { Checkbox, ItemCard, moved } from './parts';

const boundLabels = (type: WireFieldType): [string, string] =>
  type === 'number' || type === 'money' ? ['Minimum', 'Maximum'] : ['Minimum length', 'Maximum length'];

export function FieldsEditor({
  fields,
  onChange,
  errors,
  used,
}: {
  fields: FieldDraft[];
  onChange: (fields: FieldDraft[]) => void;
  errors: DraftErrors;
  /** The type has requests. */
  used: boolean;
}) {
  const update = (i: number, patch: Partial<FieldDraft>) =>
    onChange(
      fields.map((f, j) => {
        if (j !== i) return f;
        const next = { ...f, ...patch };
        if (patch.label !== undefined && !f.nameEdited && !f.stored) next.name = nameFromLabel(patch.label);
        return next;
      }),
    );
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-gray-900">Fields</legend>
      {errors.fields && (
        <p className="text-sm font-medium text-red-700" role="alert">
          {errors.fields}
        </p>
      )}
      <ol className="space-y-3">
        {fields.map((f, i) => {
          const p = `fields.${i}`;
          const title = `Field ${i + 1}${f.label.trim() ? ` (${f.label.trim()})` : ''}`;
          const [minLabel, maxLabel] = boundLabels(f.type);
          return (
            <ItemCard
              key={f.key}
              title={title}
              index={i}
              count={fields.length}
              onMove={(from, to) => onChange(moved(fields, from, to))}
              onRemove={() => onChange(fields.filter((_, j) => j !== i))}
              removeLabel={`Remove ${title}`}
              canRemove={!f.stored}
            >
              <div className="grid gap-3 sm:grid-cols-2">
                <Input
                  label="Label"
                  required
                  value={f.label}
                  onChange={(e) => update(i, { label: e.target.value })}
                  error={errors[`${p}.label`]}
                />
                <Input
                  label="Name"
                  value={f.name}
                  disabled={f.stored}
                  onChange={(e) => update(i, { name: e.target.value, nameEdited: true })}
                  error={errors[`${p}.name`]}
                  hint={f.stored ? 'Requests use this name' : 'Stored name, from the label'}
                  className="font-mono"
                />
                <Select
                  label="Type"
                  value={f.type}
                  disabled={f.stored}
                  onChange={(e) => update(i, { type: e.target.value as WireFieldType })}
                  error={errors[`${p}.type`]}
                >
                  {FIELD_TYPES.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.label}
                    </option>
                  ))}
                </Select>
                <Checkbox
                  label="Required"
                  checked={f.required}
                  disabled={f.stored}
                  onChange={(v) => update(i, { required: v })}
                  error={errors[`${p}.required`]}
                />
                {f.type === 'choice' && (
                  <Textarea
                    label="Options"
                    required
                    rows={3}
                    value={f.options}
                    onChange={(e) => update(i, { options: e.target.value })}
                    error={errors[`${p}.options`]}
                    hint="One option a line"
                    wrapperClassName="sm:col-span-2"
                  />
                )}
                {BOUNDED.has(f.type) && (
                  <>
                    <Input
                      label={minLabel}
                      type="number"
                      inputMode="decimal"
                      value={f.min}
                      onChange={(e) => update(i, { min: e.target.value })}
                      error={errors[`${p}.min`]}
                    />
                    <Input
                      label={maxLabel}
                      type="number"
                      inputMode="decimal"
                      value={f.max}
                      onChange={(e) => update(i, { max: e.target.value })}
                      error={errors[`${p}.max`]}
                    />
                  </>
                )}
                <Input
                  label="Help text"
                  value={f.help}
                  onChange={(e) => update(i, { help: e.target.value })}
                  error={errors[`${p}.help`]}
                  hint="Shown under the field on the form"
                  maxLength={200}
                  wrapperClassName="sm:col-span-2"
                />
              </div>
            </ItemCard>
          );
        })}
      </ol>
      <Button
        variant="secondary"
        size="sm"
        icon={<Plus className="h-4 w-4" aria-hidden="true" />}
        onClick={() => onChange([...fields, { ...newField(), required: !used }])}
      >
        Add field
      </Button>
    </fieldset>
  );
}
