// Form types: every type the catalogue can offer (the built-in ones and the administrator's) with its category,
// whether it is enabled, its version and its use; create, edit, enable and disable.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { FormIcon } from '../../forms/FormIcon';
import { Badge, Button, TBody, THead, Table, Td, Th, Tr, useToast } from '../../ui';
import { errorText } from '../api';
import { Loaded, Section } from '../parts';
import { type FormTypeRecord, formTypesApi, inUse } from './api';
import { FormTypeDialog } from './FormTypeDialog';

const usageText = (t: FormTypeRecord) =>
  typeof t.in_use === 'number'
    ? t.in_use === 0
      ? 'Not used'
      : `${t.in_use} request${t.in_use === 1 ? '' : 's'}`
    : inUse(t)
      ? 'In use'
      : 'Not used';

export function FormTypesScreen() {
  const types = useQuery({ queryKey: ['admin', 'form-types'], queryFn: formTypesApi.list });
  /** The form type being edited, '' for a new one, null when closed. */
  const [editing, setEditing] = useState<string | null>(null);
  const qc = useQueryClient();
  const toast = useToast();
  const toggle = useMutation({
    mutationFn: async (t: FormTypeRecord) => {
      const full = await formTypesApi.get(t.form_type);
      const { form_type, title, category, icon, description, fields, chain } = full;
      return formTypesApi.update(t.form_type, { form_type, title, category, icon, description, fields, chain, enabled: !full.enabled });
    },
    onSuccess: (saved, t) => {
      void qc.invalidateQueries({ queryKey: ['admin', 'form-types'] });
      void qc.invalidateQueries({ queryKey: ['form-types'] });
      toast.success(`${saved.title ?? t.title} ${(saved.enabled ?? !t.enabled) ? 'enabled' : 'disabled'}`);
    },
    onError: (err, t) => toast.error(`${t.title} not changed: ${errorText(err)}`),
  });
  return (
    <Section
      title="Form types"
      description="What employees can request and who approves it. Changes apply to requests submitted afterwards."
      actions={
        <Button icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={() => setEditing('')}>
          New form type
        </Button>
      }
    >
      <Loaded query={types} what="form types" empty={{ title: 'No form types yet', description: 'Create the first form type.' }}>
        {(rows) => (
          <Table caption="Form types" cards data-testid="form-types-table">
            <THead>
              <tr>
                <Th>Title</Th>
                <Th showFrom="2xl">Category</Th>
                <Th>Enabled</Th>
                <Th showFrom="3xl" align="right">
                  Version
                </Th>
                <Th showFrom="3xl">In use</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((t) => (
                <Tr key={t.form_type} data-form-type={t.form_type}>
                  <Td label="Title">
                    <span className="flex min-w-0 items-center gap-2">
                      <span className="shrink-0 text-indigo-600">
                        <FormIcon name={t.icon ?? 'FileText'} />
                      </span>
                      <span className="min-w-0">
                        <span className="block font-medium text-gray-900">{t.title}</span>
                        <span className="block font-mono text-xs break-all text-gray-500">{t.form_type}</span>
                      </span>
                    </span>
                  </Td>
                  <Td label="Category" showFrom="2xl">
                    {t.category}
                  </Td>
                  <Td label="Enabled">{t.enabled ? <Badge tone="success">Enabled</Badge> : <Badge>Disabled</Badge>}</Td>
                  <Td label="Version" showFrom="3xl" align="right">
                    {t.version ?? 1}
                  </Td>
                  <Td label="In use" showFrom="3xl">
                    {usageText(t)}
                  </Td>
                  <Td actions align="right">
                    <span className="inline-flex flex-wrap justify-end gap-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        loading={toggle.isPending && toggle.variables?.form_type === t.form_type}
                        onClick={() => toggle.mutate(t)}
                        aria-label={`${t.enabled ? 'Disable' : 'Enable'} ${t.title}`}
                      >
                        {t.enabled ? 'Disable' : 'Enable'}
                      </Button>
                      <Button
                        size="sm"
                        variant="secondary"
                        icon={<Pencil className="h-3.5 w-3.5" aria-hidden="true" />}
                        onClick={() => setEditing(t.form_type)}
                        aria-label={`Edit ${t.title}`}
                      >
                        Edit
                      </Button>
                    </span>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
      {editing !== null && <FormTypeDialog formType={editing === '' ? null : editing} onClose={() => setEditing(null)} />}
    </Section>
  );
}
