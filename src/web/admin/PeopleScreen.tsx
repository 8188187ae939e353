// People: search and filter (name, e-mail, code, department, role, active), add and edit, invite, deactivate.
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CalendarOff, KeyRound, Link2, Pencil, Plus, UserX } from 'lucide-react';
import { OutOfOfficeForm } from '../delegation/OutOfOfficeForm';
import { formatDate } from '../format';
import { Badge, Button, Dialog, ErrorBanner, Input, Select, TBody, THead, Table, Td, Th, Tr, useToast } from '../ui';
import { type AdminPerson, adminApi, errorText } from './api';
import { DeactivateDialog } from './DeactivateDialog';
import { Loaded, Section } from './parts';
import { PersonForm, ROLE_NAMES } from './PersonForm';

export function PeopleScreen() {
  const toast = useToast();
  const [q, setQ] = useState('');
  const [department, setDepartment] = useState('');
  const [active, setActive] = useState<'' | 'true' | 'false'>('true');
  const [role, setRole] = useState('');
  const search = useDeferredValue(q.trim());
  const people = useQuery({
    queryKey: ['admin', 'people', search, department, role, active],
    queryFn: () => adminApi.people({ q: search, department, role, active }),
  });
  const departments = useQuery({ queryKey: ['admin', 'departments'], queryFn: adminApi.departments });
  const policy = useQuery({ queryKey: ['admin', 'leave-policy'], queryFn: adminApi.leavePolicy });
  const [editing, setEditing] = useState<AdminPerson | 'new' | null>(null);
  const [deactivating, setDeactivating] = useState<AdminPerson | null>(null);
  const [away, setAway] = useState<AdminPerson | null>(null);
  const [invite, setInvite] = useState<{ person: AdminPerson; url?: string; error?: string } | null>(null);

  // The role filter offers the usual role names and every role seen so far.
  const [seenRoles, setSeenRoles] = useState<string[]>([]);
  useEffect(() => {
    const loaded = people.data?.people.map((p) => p.role) ?? [];
    setSeenRoles((old) => (loaded.every((r) => old.includes(r)) ? old : [...new Set([...old, ...loaded])]));
  }, [people.data]);
  const roles = useMemo(() => [...new Set([...ROLE_NAMES, ...seenRoles])].sort(), [seenRoles]);
  const shown = { ...people, data: people.data?.people };

  async function sendInvite(p: AdminPerson) {
    setInvite({ person: p });
    try {
      const r = await adminApi.invite(p.employee_code);
      setInvite({ person: p, url: r.invite_url });
    } catch (err) {
      setInvite({ person: p, error: errorText(err) });
    }
  }

  async function requirePasswordChange(p: AdminPerson) {
    try {
      await adminApi.requirePasswordChange(p.employee_code);
      toast.success(`${p.first_name} ${p.last_name} will choose a new password at their next sign-in`);
    } catch (err) {
      toast.error(errorText(err));
    }
  }

  const deptName = (p: AdminPerson) =>
    p.department_name ?? departments.data?.find((d) => d.code === p.department)?.name ?? p.department ?? 'No department';

  return (
    <Section
      title="People"
      description="Everyone in the organisation: their role decides their dashboard and assistant."
      actions={
        <Button icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={() => setEditing('new')}>
          Add person
        </Button>
      }
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Filter people">
        <Input label="Search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, e-mail or code" type="search" />
        <Select label="Department" value={department} onChange={(e) => setDepartment(e.target.value)}>
          <option value="">All departments</option>
          {(departments.data ?? []).map((d) => (
            <option key={d.code} value={d.code}>
              {d.name}
            </option>
          ))}
        </Select>
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value)}>
          <option value="">All roles</option>
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </Select>
        <Select label="Status" value={active} onChange={(e) => setActive(e.target.value as '' | 'true' | 'false')}>
          <option value="true">Active</option>
          <option value="false">Inactive</option>
          <option value="">Everyone</option>
        </Select>
      </div>
      <Loaded query={shown} what="people" empty={{ title: 'No people found', description: 'Nobody matches these filters.' }}>
        {(rows) => (
          <>
            <p className="text-sm text-gray-600" aria-live="polite">
              {people.data && people.data.total > rows.length
                ? `Showing ${rows.length} of ${people.data.total} people: narrow the search to see the others.`
                : `${rows.length} ${rows.length === 1 ? 'person' : 'people'}`}
            </p>
            <Table caption="People" cards>
              <THead>
                <tr>
                  <Th>Name</Th>
                  <Th>Code</Th>
                  <Th showFrom="4xl">Department</Th>
                  <Th showFrom="2xl">Role</Th>
                  <Th showFrom="5xl">Manager</Th>
                  <Th showFrom="6xl">Joined</Th>
                  <Th>Status</Th>
                  <Th align="right">
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </THead>
              <TBody>
                {rows.map((p) => (
                  <Tr key={p.employee_code} data-testid={`person-${p.employee_code}`}>
                    {/* The e-mail under the name: one column less, so the row's actions fit beside it. */}
                    <Td label="Name">
                      <span className="block font-medium text-gray-900">
                        {p.first_name} {p.last_name}
                      </span>
                      <span className="block text-xs text-gray-600 [overflow-wrap:anywhere]">{p.email}</span>
                    </Td>
                    <Td label="Code">{p.employee_code}</Td>
                    <Td label="Department" showFrom="4xl">
                      {deptName(p)}
                    </Td>
                    <Td label="Role" showFrom="2xl">
                      {p.role}
                    </Td>
                    <Td label="Manager" showFrom="5xl">
                      {p.manager_name ?? p.manager ?? 'No manager'}
                    </Td>
                    <Td label="Joined" showFrom="6xl">
                      {formatDate(p.join_date, 'Not set')}
                    </Td>
                    <Td label="Status">{p.active ? <Badge tone="success">Active</Badge> : <Badge>Inactive</Badge>}</Td>
                    <Td actions align="right">
                      <div className="flex flex-nowrap justify-end gap-1.5">
                        <Button
                          size="sm"
                          variant="secondary"
                          icon={<Pencil className="h-3.5 w-3.5" aria-hidden="true" />}
                          onClick={() => setEditing(p)}
                          aria-label={`Edit ${p.first_name} ${p.last_name}`}

                          title="Edit"
                        >
                          <span className="action-words">Edit</span>
                        </Button>
                        {p.active && (
                          <>
                            <Button
                              size="sm"
                              variant="secondary"
                              icon={<Link2 className="h-3.5 w-3.5" aria-hidden="true" />}
                              onClick={() => void sendInvite(p)}
                              aria-label={`Invite ${p.first_name} ${p.last_name}`}

                              title="Invite"
                            >
                              <span className="action-words">Invite</span>
                            </Button>
                            <Button
                              size="sm"
                              variant="secondary"
                              icon={<KeyRound className="h-3.5 w-3.5" aria-hidden="true" />}
                              onClick={() => void requirePasswordChange(p)}
                              aria-label={`Require ${p.first_name} ${p.last_name} to choose a new password at next sign-in`}

                              title="New password"
                            >
                              <span className="action-words">New password</span>
                            </Button>
                            <Button
                              size="sm"
                              variant="secondary"
                              icon={<CalendarOff className="h-3.5 w-3.5" aria-hidden="true" />}
                              onClick={() => setAway(p)}
                              aria-label={`Out of office for ${p.first_name} ${p.last_name}`}

                              title="Out of office"
                            >
                              <span className="action-words">Out of office</span>
                            </Button>
                            <Button
                              size="sm"
                              variant="secondary"
                              icon={<UserX className="h-3.5 w-3.5 text-red-600" aria-hidden="true" />}
                              onClick={() => setDeactivating(p)}
                              aria-label={`Deactivate ${p.first_name} ${p.last_name}`}

                              title="Deactivate"
                            >
                              <span className="action-words">Deactivate</span>
                            </Button>
                          </>
                        )}
                      </div>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </>
        )}
      </Loaded>

      {editing && (
        <PersonForm
          person={editing === 'new' ? null : editing}
          departments={departments.data ?? []}
          defaultLeave={policy.data?.default_annual_leave ?? 12}
          onClose={() => setEditing(null)}
          onSaved={(p, created) => {
            setEditing(null);
            toast.success(created ? `${p.first_name} ${p.last_name} added` : `${p.first_name} ${p.last_name} saved`);
            if (created) void sendInvite(p);
          }}
        />
      )}
      <Dialog
        open={away !== null}
        onClose={() => setAway(null)}
        title={away ? `Out of office: ${away.first_name} ${away.last_name}` : 'Out of office'}
        description="While the period lasts, the delegate decides what waits on this person."
      >
        {away && <OutOfOfficeForm employeeCode={away.employee_code} who={away.first_name} onDone={() => setAway(null)} />}
      </Dialog>
      {deactivating && (
        <DeactivateDialog
          person={deactivating}
          onClose={() => setDeactivating(null)}
          onDone={() => {
            toast.success(`${deactivating.first_name} ${deactivating.last_name} deactivated`);
            setDeactivating(null);
          }}
        />
      )}
      {invite && (
        <Dialog
          open
          onClose={() => setInvite(null)}
          title={`Invitation for ${invite.person.first_name} ${invite.person.last_name}`}
          description="A single-use link to set a password. It was e-mailed when e-mail is configured; otherwise pass it on yourself."
          footer={<Button onClick={() => setInvite(null)}>Done</Button>}
        >
          {invite.error ? (
            <ErrorBanner title="No invitation">{invite.error}</ErrorBanner>
          ) : invite.url ? (
            <div className="space-y-2">
              <Input label="Invitation link" readOnly value={invite.url} onFocus={(e) => e.target.select()} data-testid="invite-url" />
              <Button
                size="sm"
                variant="secondary"
                onClick={() => void navigator.clipboard?.writeText(invite.url ?? '').then(() => toast.info('Link copied'))}
              >
                Copy link
              </Button>
            </div>
          ) : (
            <p className="text-sm text-gray-600" role="status">
              Creating the invitation…
            </p>
          )}
        </Dialog>
      )}
    </Section>
  );
}
