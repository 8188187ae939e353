// Company settings: holidays (the regional calendars that apply and the company's own holidays) and the leave
// policy (the default annual allowance and per-person overrides).
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus, Trash2, X } from 'lucide-react';
import { formatDate } from '../format';
import { Badge, Button, ErrorBanner, Input, Select, TBody, THead, Table, Td, Th, Tr, useToast } from '../ui';
import { type CompanyHoliday, adminApi, errorText } from './api';
import { FormDialog, Loaded, Section, useAdminMutation } from './parts';

// ---- holidays ---------------------------------------------------------------------------------

function HolidayDialog({ holiday, onClose }: { holiday: CompanyHoliday | null; onClose: () => void }) {
  const [date, setDate] = useState(holiday?.date ?? '');
  const [name, setName] = useState(holiday?.name ?? '');
  const [closed, setClosed] = useState(holiday?.closed ?? true);
  const save = useAdminMutation(
    () => (holiday ? adminApi.updateHoliday(holiday.id, { date, name, closed }) : adminApi.addHoliday({ date, name, closed })),
    { success: holiday ? 'Holiday saved' : 'Holiday added', invalidate: [['holidays']], onDone: onClose },
  );
  return (
    <FormDialog
      formId="holiday-form"
      title={holiday ? `Edit ${holiday.name}` : 'Add a company holiday'}
      submitLabel={holiday ? 'Save' : 'Add holiday'}
      mutation={save}
      onClose={onClose}
    >
      <Input label="Date" type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
      <Input label="Name" required value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
      <Select
        label="Office"
        value={String(closed)}
        onChange={(e) => setClosed(e.target.value === 'true')}
        hint="Leave days on a closed day are not counted."
      >
        <option value="true">Closed</option>
        <option value="false">Open (shown on the calendar only)</option>
      </Select>
    </FormDialog>
  );
}

function RegionsEditor({ current }: { current: { code: string; name: string }[] }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [country, setCountry] = useState('');
  const [state, setState] = useState('');
  const countries = useQuery({ queryKey: ['admin', 'regions'], queryFn: () => adminApi.regionChoices() });
  const states = useQuery({
    queryKey: ['admin', 'regions', country],
    queryFn: () => adminApi.regionChoices(country),
    enabled: country !== '',
  });
  const save = useMutation({
    mutationFn: (codes: string[]) => adminApi.setRegions(codes),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin'] });
      void qc.invalidateQueries({ queryKey: ['holidays'] });
      toast.success('Regional calendars saved');
      setCountry('');
      setState('');
    },
  });
  const codes = current.map((r) => r.code);
  const adding = state || country;
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold text-gray-900">Regional calendars</h3>
      <ul className="flex flex-wrap gap-2" aria-label="Regional calendars that apply">
        {current.map((r) => (
          <li
            key={r.code}
            className="inline-flex items-center gap-1 rounded-full bg-indigo-50 py-1 pr-1 pl-3 text-sm text-indigo-900 ring-1 ring-indigo-600/20"
          >
            {r.name}
            <button
              type="button"
              className="rounded-full p-1 hover:bg-indigo-100 disabled:opacity-40"
              aria-label={`Remove ${r.name}`}
              disabled={current.length === 1 || save.isPending}
              onClick={() => save.mutate(codes.filter((c) => c !== r.code))}
            >
              <X className="h-3.5 w-3.5" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      {countries.isError && (
        <ErrorBanner onRetry={() => void countries.refetch()}>Could not load the calendars to choose from.</ErrorBanner>
      )}
      {save.isError && <ErrorBanner title="Not saved">{errorText(save.error)}</ErrorBanner>}
      <div className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <Select label="Country" value={country} onChange={(e) => (setCountry(e.target.value), setState(''))} disabled={countries.isPending}>
          <option value="">{countries.isPending ? 'Loading…' : 'Choose a country'}</option>
          {(countries.data?.regions ?? []).map((r) => (
            <option key={r.code} value={r.code}>
              {r.name}
            </option>
          ))}
        </Select>
        <Select
          label="State or province (optional)"
          value={state}
          onChange={(e) => setState(e.target.value)}
          disabled={!country || states.isPending || !states.data?.regions.length}
        >
          <option value="">The whole country</option>
          {(states.data?.regions ?? []).map((r) => (
            <option key={r.code} value={r.code}>
              {r.name}
            </option>
          ))}
        </Select>
        <Button
          variant="secondary"
          icon={<Plus className="h-4 w-4" aria-hidden="true" />}
          disabled={!adding || codes.includes(adding)}
          loading={save.isPending}
          onClick={() => save.mutate([...codes, adding])}
        >
          Add calendar
        </Button>
      </div>
    </div>
  );
}

export function HolidaysScreen() {
  const qc = useQueryClient();
  const toast = useToast();
  const settings = useQuery({ queryKey: ['admin', 'holidays'], queryFn: adminApi.holidays });
  const [editing, setEditing] = useState<CompanyHoliday | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (h: CompanyHoliday) => adminApi.removeHoliday(h.id),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['admin'] });
      void qc.invalidateQueries({ queryKey: ['holidays'] });
      toast.success('Holiday removed');
    },
    onError: (err) => toast.error(errorText(err)),
  });
  const list = { ...settings, data: settings.data?.company_holidays };
  return (
    <Section
      title="Company holidays"
      description="The form calendar, leave day counts and the assistant use these holidays."
      actions={
        <Button icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={() => setEditing('new')}>
          Add holiday
        </Button>
      }
    >
      {settings.data && <RegionsEditor current={settings.data.regions} />}
      <h3 className="text-sm font-semibold text-gray-900">The company's own holidays</h3>
      <Loaded
        query={list}
        what="company holidays"
        empty={{
          title: 'No company holidays',
          description: 'Only the regional calendars apply. Add the days your company closes on its own.',
        }}
      >
        {(rows) => (
          <Table caption="Company holidays" cards>
            <THead>
              <tr>
                <Th>Date</Th>
                <Th>Name</Th>
                <Th>Office</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((h) => (
                <Tr key={h.id}>
                  <Td label="Date" className="whitespace-nowrap">
                    {formatDate(h.date)}
                  </Td>
                  <Td label="Name" className="font-medium text-gray-900">
                    {h.name}
                  </Td>
                  <Td label="Office">{h.closed ? <Badge tone="warning">Closed</Badge> : <Badge>Open</Badge>}</Td>
                  <Td actions align="right">
                    <div className="flex justify-end gap-1.5">
                      <Button
                        size="sm"
                        variant="secondary"
                        icon={<Pencil className="h-3.5 w-3.5" aria-hidden="true" />}
                        onClick={() => setEditing(h)}
                        aria-label={`Edit ${h.name}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="sm"
                        variant="danger"
                        icon={<Trash2 className="h-3.5 w-3.5" aria-hidden="true" />}
                        onClick={() => remove.mutate(h)}
                        loading={remove.isPending && remove.variables?.id === h.id}
                        aria-label={`Remove ${h.name}`}
                      >
                        Remove
                      </Button>
                    </div>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
      {editing && <HolidayDialog holiday={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Section>
  );
}

// ---- leave policy -----------------------------------------------------------------------------

export function LeavePolicyScreen() {
  const qc = useQueryClient();
  const toast = useToast();
  const policy = useQuery({ queryKey: ['admin', 'leave-policy'], queryFn: adminApi.leavePolicy });
  const [days, setDays] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [override, setOverride] = useState('');
  const invalidate = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const saveDefault = useMutation({
    mutationFn: (n: number) => adminApi.setDefaultLeave(n),
    onSuccess: (r) => {
      invalidate();
      setDays(null);
      toast.success(`Default allowance is now ${r.default_annual_leave} days (${r.moved} people moved)`);
    },
  });
  const saveOverride = useMutation({
    mutationFn: () => adminApi.setOverride(code.trim(), Number(override)),
    onSuccess: (r) => {
      invalidate();
      setCode('');
      setOverride('');
      toast.success(`${r.name}: ${r.annual_leave_total} days`);
    },
  });
  const removeOverride = useMutation({
    mutationFn: (c: string) => adminApi.removeOverride(c),
    onSuccess: (r) => {
      invalidate();
      toast.success(`${r.name} follows the default again`);
    },
    onError: (err) => toast.error(errorText(err)),
  });
  const overrides = { ...policy, data: policy.data?.overrides };
  const shownDays = days ?? String(policy.data?.default_annual_leave ?? '');

  return (
    <Section title="Leave policy" description="The annual leave allowance everyone gets, and the people who get a different one.">
      {policy.isError && (
        <ErrorBanner title="Could not load the leave policy" onRetry={() => void policy.refetch()}>
          {errorText(policy.error)}
        </ErrorBanner>
      )}
      <form
        className="grid gap-3 sm:grid-cols-[minmax(0,16rem)_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          saveDefault.mutate(Number(shownDays));
        }}
      >
        <Input
          label="Default annual allowance (days)"
          type="number"
          min={0}
          max={365}
          step={0.5}
          value={shownDays}
          onChange={(e) => setDays(e.target.value)}
          disabled={!policy.data}
          hint="People on the default move with it; overrides stay."
        />
        <Button type="submit" loading={saveDefault.isPending} disabled={!policy.data || days === null}>
          Save default
        </Button>
      </form>
      {saveDefault.isError && <ErrorBanner title="Not saved">{errorText(saveDefault.error)}</ErrorBanner>}

      <h3 className="text-sm font-semibold text-gray-900">Per-person overrides</h3>
      <form
        className="grid gap-3 sm:grid-cols-[1fr_minmax(0,10rem)_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          saveOverride.mutate();
        }}
      >
        <Input label="Employee code" value={code} onChange={(e) => setCode(e.target.value)} placeholder="EMP-1001" />
        <Input label="Days" type="number" min={0} max={365} step={0.5} value={override} onChange={(e) => setOverride(e.target.value)} />
        <Button type="submit" variant="secondary" loading={saveOverride.isPending} disabled={!code.trim() || override === ''}>
          Set override
        </Button>
      </form>
      {saveOverride.isError && <ErrorBanner title="Not saved">{errorText(saveOverride.error)}</ErrorBanner>}
      <Loaded query={overrides} what="overrides" empty={{ title: 'No overrides', description: 'Everyone gets the default allowance.' }}>
        {(rows) => (
          <Table caption="Leave allowance overrides" cards>
            <THead>
              <tr>
                <Th>Name</Th>
                <Th>Code</Th>
                <Th showFrom="2xl">Department</Th>
                <Th align="right">Days</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.map((o) => (
                <Tr key={o.employee_code}>
                  <Td label="Name" className="font-medium text-gray-900">
                    {o.name}
                  </Td>
                  <Td label="Code">{o.employee_code}</Td>
                  <Td label="Department" showFrom="2xl">
                    {o.department ?? 'None'}
                  </Td>
                  <Td label="Days" align="right">
                    {o.annual_leave_total}
                  </Td>
                  <Td actions align="right">
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => removeOverride.mutate(o.employee_code)}
                      loading={removeOverride.isPending && removeOverride.variables === o.employee_code}
                      aria-label={`Use the default for ${o.name}`}
                    >
                      Use default
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Loaded>
    </Section>
  );
}
