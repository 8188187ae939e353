// Departments: the list with head counts, create, rename.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Pencil, Plus } from 'lucide-react';
import { Button, Input, TBody, THead, Table, Td, Th, Tr } from '../ui';
import { type Department, adminApi } from './api';
import { FormDialog, Loaded, Section, useAdminMutation } from './parts';

function DepartmentDialog({ department, onClose }: { department: Department | null; onClose: () => void }) {
  const [code, setCode] = useState(department?.code ?? '');
  const [name, setName] = useState(department?.name ?? '');
  const save = useAdminMutation(
    () =>
      department
        ? adminApi.renameDepartment(department.code, name.trim())
        : adminApi.createDepartment({ code: code.trim().toUpperCase(), name: name.trim() }),
    { success: department ? 'Department renamed' : 'Department created', onDone: onClose },
  );
  return (
    <FormDialog
      formId="department-form"
      title={department ? `Rename ${department.name}` : 'New department'}
      submitLabel={department ? 'Rename' : 'Create'}
      mutation={save}
      onClose={onClose}
    >
      <Input
        label="Code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
        disabled={department !== null}
        hint="A short code, e.g. ENG"
        maxLength={20}
      />
      <Input label="Name" required value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
    </FormDialog>
  );
}

export function DepartmentsScreen() {
  const departments = useQuery({ queryKey: ['admin', 'departments'], queryFn: adminApi.departments });
  const [editing, setEditing] = useState<Department | 'new' | null>(null);
  return (
    <Section
      title="Departments"
      description="People belong to one department each."
      actions={
        <Button icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={() => setEditing('new')}>
          New department
        </Button>
      }
    >
      <Loaded query={departments} what="departments" empty={{ title: 'No departments yet', description: 'Create the first department.' }}>
        {(rows) => (
          <Table caption="Departments" cards>
            <THead>
              <tr>
                <Th>Code</Th>
                <Th>Name</Th>
                <Th align="right">People</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((d) => (
                <Tr key={d.code}>
                  <Td label="Code" className="font-mono text-xs">
                    {d.code}
                  </Td>
                  <Td label="Name" className="font-medium text-gray-900">
                    {d.name}
                  </Td>
                  <Td label="People" align="right">
                    {d.head_count}
                  </Td>
                  <Td actions align="right">
                    <Button
                      size="sm"
                      variant="secondary"
                      icon={<Pencil className="h-3.5 w-3.5" aria-hidden="true" />}
                      onClick={() => setEditing(d)}
                      aria-label={`Rename ${d.name}`}
                    >
                      Rename
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
      {editing && <DepartmentDialog department={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Section>
  );
}
