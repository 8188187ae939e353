// The out-of-office form: the current period (or none), and from, until, delegate and message to set a new one or
// clear it. The self-service dialog and the administrator's People row use it (with their own API).
import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { businessToday } from '../../domain/business-time';
import { Button, ErrorBanner, Input, Spinner, Textarea, useToast } from '../ui';
import { type OutOfOffice, dayLabel, outOfOfficeApi } from './api';

const errorText = (e: unknown) => (e instanceof Error ? e.message : 'Something went wrong');

/** Today in the organisation's calendar (its time zone, as the server counts days), not the browser's. */
const todayIso = (): string => businessToday();

export function OutOfOfficeForm({ employeeCode, who = 'You', onDone }: { employeeCode?: string; who?: string; onDone?: () => void }) {
  const client = outOfOfficeApi(employeeCode);
  const qc = useQueryClient();
  const toast = useToast();
  const key = ['out-of-office', employeeCode ?? 'me'];
  const current = useQuery({ queryKey: key, queryFn: client.get });
  const [from, setFrom] = useState(todayIso());
  const [until, setUntil] = useState(todayIso());
  const [delegate, setDelegate] = useState('');
  const [message, setMessage] = useState('');
  useEffect(() => {
    const c = current.data;
    if (!c?.delegate) return;
    setFrom(c.from ?? todayIso());
    setUntil(c.until ?? todayIso());
    setDelegate(c.delegate_email ?? c.delegate);
    setMessage(c.message ?? '');
  }, [current.data]);

  const done = (data: OutOfOffice, text: string) => {
    qc.setQueryData(key, data);
    void qc.invalidateQueries({ queryKey: ['covering'] });
    toast.success(text);
    onDone?.();
  };
  const save = useMutation({
    mutationFn: () => client.set({ delegate: delegate.trim(), from, until, message: message.trim() || null }),
    onSuccess: (data) => done(data, `Out of office saved: ${data.delegate_name} decides until ${dayLabel(data.until)}`),
  });
  const clear = useMutation({ mutationFn: client.clear, onSuccess: (data) => done(data, 'Out of office cleared') });

  if (current.isPending)
    return (
      <p className="flex items-center gap-2 py-6 text-sm text-gray-600" role="status">
        <Spinner size="sm" /> Loading out of office…
      </p>
    );
  if (current.isError)
    return (
      <ErrorBanner title="Could not load the out-of-office period" onRetry={() => void current.refetch()}>
        {errorText(current.error)}
      </ErrorBanner>
    );
  const c = current.data;
  return (
    <form
      className="space-y-4"
      data-testid="out-of-office-form"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <div className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm" data-testid="out-of-office-current" aria-live="polite">
        {c?.delegate ? (
          <p className="text-gray-800">
            <strong>{c.active ? `${who === 'You' ? 'You are' : `${who} is`} away` : 'Planned'}</strong> from {dayLabel(c.from)} until{' '}
            {dayLabel(c.until)}; <strong>{c.delegate_name}</strong> decides meanwhile.
            {c.set_by && <span className="block text-xs text-gray-500">Set by {c.set_by}</span>}
          </p>
        ) : (
          <p className="text-gray-600">No out-of-office period is set.</p>
        )}
        {c && c.covering.length > 0 && (
          <p className="mt-2 text-gray-700" data-testid="covering-for">
            {who === 'You' ? 'You are' : `${who} is`} deciding for{' '}
            {c.covering.map((p) => `${p.name} (until ${dayLabel(p.until)})`).join(', ')}.
          </p>
        )}
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Input label="From" type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
        <Input label="Until" type="date" required min={from} value={until} onChange={(e) => setUntil(e.target.value)} />
      </div>
      <Input
        label="Delegate"
        required
        value={delegate}
        onChange={(e) => setDelegate(e.target.value)}
        placeholder="name@company.com or EMP-1002"
        hint="The e-mail or employee code of the person who decides for you meanwhile"
        autoComplete="off"
      />
      <Textarea label="Message (optional)" rows={2} maxLength={500} value={message} onChange={(e) => setMessage(e.target.value)} />
      {(save.isError || clear.isError) && <ErrorBanner title="Not saved">{errorText(save.error ?? clear.error)}</ErrorBanner>}
      <div className="flex flex-wrap justify-end gap-2">
        {c?.delegate && (
          <Button type="button" variant="secondary" loading={clear.isPending} disabled={save.isPending} onClick={() => clear.mutate()}>
            Clear
          </Button>
        )}
        <Button type="submit" loading={save.isPending} disabled={clear.isPending || delegate.trim() === ''}>
          Save
        </Button>
      </div>
    </form>
  );
}
