// Create or edit a form type: title, id (from the title, for a new type), category, icon, description, enabled,
// the fields and the approval chain. The editor's own checks run before sending; the server's refusal is shown at
// the top and beside the control it names.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { FORM_ICON_NAMES, FormIcon } from '../../forms/FormIcon';
import { Button, Dialog, ErrorBanner, Input, Select, Spinner, Textarea } from '../../ui';
import { errorText } from '../api';
import { type FormTypeRecord, formTypesApi, inUse } from './api';
import { ChainEditor } from './ChainEditor';
import {
  CATEGORIES,
  type DraftErrors,
  type TypeDraft,
  draftOf,
  emptyDraft,
  serverError,
  payloadOf,
  slugFromTitle,
  validateDraft,
} from './draft';
import { FieldsEditor } from './FieldsEditor';
import { Checkbox } from './parts';

export function FormTypeDialog({ formType, onClose }: { formType: string | null; onClose: () => void }) {
  const stored = useQuery({
    queryKey: ['admin', 'form-types', formType],
    queryFn: () => formTypesApi.get(formType!),
    enabled: formType !== null,
    staleTime: 0,
  });
  const title = formType ? `Edit ${stored.data?.title ?? 'form type'}` : 'New form type';
  if (formType && !stored.data)
    return (
      <Dialog open onClose={onClose} title={title} size="xl">
        {stored.isError ? (
          <ErrorBanner title="Could not load the form type" onRetry={() => void stored.refetch()}>
            {errorText(stored.error)}
          </ErrorBanner>
        ) : (
          <p className="flex items-center gap-2 py-8 text-sm text-gray-600" role="status">
            <Spinner size="sm" /> Loading form type…
          </p>
        )}
      </Dialog>
    );
  return <Editor key={formType ?? 'new'} stored={stored.data ?? null} title={title} onClose={onClose} />;
}

function Editor({ stored, title, onClose }: { stored: FormTypeRecord | null; title: string; onClose: () => void }) {
  const qc = useQueryClient();
  const used = stored ? inUse(stored) : false;
  // A built-in type keeps its texts, icon and fields (the spec's); it may gain optional fields, a chain, be disabled.
  const builtin = stored?.builtin === true;
  const [d, setD] = useState<TypeDraft>(() => (stored ? draftOf(stored, used || builtin) : emptyDraft()));
  const [checked, setChecked] = useState<DraftErrors | null>(null);
  const set = (patch: Partial<TypeDraft>) => setD((old) => ({ ...old, ...patch }));
  const save = useMutation({
    mutationFn: () => (stored ? formTypesApi.update(stored.form_type, payloadOf(d)) : formTypesApi.create(payloadOf(d))),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin', 'form-types'] });
      void qc.invalidateQueries({ queryKey: ['form-types'] });
      onClose();
    },
  });
  // Once a save was tried, the checks follow the typing (a fixed mistake loses its message at once).
  const errors: DraftErrors = checked ? validateDraft(d, !stored, used || builtin) : {};
  const refusal = save.isError ? serverError(save.error, d) : null;
  if (refusal?.place) errors[refusal.place] = refusal.message;
  const errorCount = Object.keys(errors).length;

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateDraft(d, !stored, used || builtin);
    setChecked(found);
    save.reset();
    if (Object.keys(found).length === 0) save.mutate();
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="xl"
      title={title}
      description={
        builtin
          ? 'A type AdminEase ships with: its texts and fields stay; it can gain optional fields, change its chain or be disabled.'
          : used
            ? 'Requests of this type exist: changes apply to requests submitted from now on; new fields must be optional.'
            : 'Employees find the type in the catalogue once it is enabled.'
      }
      closeOnBackdrop={false}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="form-type-form" loading={save.isPending}>
            {stored ? 'Save changes' : 'Create form type'}
          </Button>
        </>
      }
    >
      <form id="form-type-form" onSubmit={submit} className="space-y-6" noValidate>
        {refusal && <ErrorBanner title="Not saved">{refusal.message}</ErrorBanner>}
        {!save.isError && checked && errorCount > 0 && (
          <ErrorBanner title="Not saved">
            {errorCount === 1 ? 'One entry needs attention' : `${errorCount} entries need attention`}: see the messages below.
          </ErrorBanner>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Title"
            required
            value={d.title}
            onChange={(e) =>
              set({ title: e.target.value, ...(!stored && !d.formTypeEdited ? { form_type: slugFromTitle(e.target.value) } : {}) })
            }
            error={errors.title}
            maxLength={80}
          />
          <Input
            label="Form type id"
            required
            value={d.form_type}
            disabled={stored !== null}
            onChange={(e) => set({ form_type: e.target.value, formTypeEdited: true })}
            error={errors.form_type}
            hint={stored ? 'Fixed once created' : 'In addresses: /api/forms/<id>'}
            className="font-mono"
          />
          <Select
            label="Category"
            disabled={builtin}
            value={d.category}
            onChange={(e) => set({ category: e.target.value })}
            error={errors.category}
          >
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <div className="flex items-end gap-2">
            <Select
              label="Icon"
              value={d.icon}
              onChange={(e) => set({ icon: e.target.value })}
              error={errors.icon}
              wrapperClassName="min-w-0 flex-1"
            >
              {FORM_ICON_NAMES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </Select>
            <span
              className="mb-1 flex h-9 w-9 shrink-0 items-center justify-center rounded-md bg-indigo-50 text-indigo-700"
              data-testid="icon-preview"
            >
              <FormIcon name={d.icon} />
            </span>
          </div>
          <Textarea
            label="Description"
            required
            rows={2}
            value={d.description}
            disabled={builtin}
            onChange={(e) => set({ description: e.target.value })}
            error={errors.description}
            hint="Shown on the catalogue card"
            maxLength={300}
            wrapperClassName="sm:col-span-2"
          />
          <div className="sm:col-span-2">
            <Checkbox
              label="Enabled: employees can submit it"
              checked={d.enabled}
              onChange={(v) => set({ enabled: v })}
              error={errors.enabled}
            />
          </div>
        </div>
        <FieldsEditor fields={d.fields} onChange={(fields) => set({ fields })} errors={errors} used={used || builtin} />
        <ChainEditor chain={d.chain} fields={d.fields} onChange={(chain) => set({ chain })} errors={errors} />
      </form>
    </Dialog>
  );
}
