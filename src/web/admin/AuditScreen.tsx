// The audit log: every administrator action, newest first, filtered by actor, action and date, with the item
// before and after.
import { useDeferredValue, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, auditActionFilters, isAuditAction } from '../../domain/audit-actions';
import { formatDateTime } from '../format';
import { Button, Input, Select, TBody, THead, Table, Td, Th, Tr } from '../ui';
import { type AuditEntry, adminApi } from './api';
import { Loaded, Section } from './parts';

// Made from the one list of audited actions the server writes with (src/domain/audit-actions.ts).
const ACTION_GROUPS = auditActionFilters();

/** A short, readable form of a before/after value. */
function show(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v !== 'object') return String(v);
  return Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${k}: ${x === null ? 'none' : typeof x === 'object' ? JSON.stringify(x) : String(x)}`)
    .join(', ');
}

/** Only the keys that changed, when both sides are objects. */
function changes(e: AuditEntry): { before: string; after: string } {
  const b = e.before,
    a = e.after;
  if (b && a && typeof b === 'object' && typeof a === 'object') {
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
      (k) => JSON.stringify((b as Record<string, unknown>)[k]) !== JSON.stringify((a as Record<string, unknown>)[k]),
    );
    const pick = (o: object) => Object.fromEntries(keys.map((k) => [k, (o as Record<string, unknown>)[k] ?? null]));
    return { before: show(pick(b)), after: show(pick(a)) };
  }
  return { before: show(b), after: show(a) };
}

export function AuditScreen() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const actorQ = useDeferredValue(actor.trim());
  const log = useQuery({
    queryKey: ['admin', 'audit', actorQ, action, from, to, page],
    queryFn: () => adminApi.audit({ actor: actorQ, action, from, to, page }),
    placeholderData: keepPreviousData,
  });
  const entries = { ...log, data: log.data?.entries };
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.page_size)) : 1;
  const filter = (fn: (v: string) => void) => (e: { target: { value: string } }) => {
    fn(e.target.value);
    setPage(1);
  };

  return (
    <Section title="Audit log" description="Who did what, when, and the item before and after.">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" role="search" aria-label="Filter the audit log">
        <Input label="Actor" value={actor} onChange={filter(setActor)} placeholder="E-mail or employee code" />
        <Select label="Action" value={action} onChange={filter(setAction)}>
          <option value="">All actions</option>
          {ACTION_GROUPS.map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.options.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
        <Input label="From" type="date" value={from} onChange={filter(setFrom)} />
        <Input label="To" type="date" value={to} onChange={filter(setTo)} />
      </div>
      <Loaded
        query={entries}
        what="the audit log"
        empty={{ title: 'No entries', description: 'No administrator action matches these filters.' }}
      >
        {(rows) => (
          <>
            <Table caption="Audit log" cards>
              <THead>
                <tr>
                  <Th>When</Th>
                  <Th>Who</Th>
                  <Th>Action</Th>
                  <Th showFrom="2xl">Item</Th>
                  <Th showFrom="4xl">Before</Th>
                  <Th showFrom="4xl">After</Th>
                </tr>
              </THead>
              <TBody>
                {rows.map((e) => {
                  const c = changes(e);
                  return (
                    <Tr key={e.id}>
                      <Td label="When" className="whitespace-nowrap">
                        {formatDateTime(e.at)}
                      </Td>
                      <Td label="Who">{e.actor.name}</Td>
                      <Td label="Action">
                        <span className="block">{isAuditAction(e.action) ? AUDIT_ACTIONS[e.action] : e.action}</span>
                        <span className="block font-mono text-xs text-gray-600">{e.action}</span>
                      </Td>
                      {/* Values are elements (a card line's value column shrinks only for elements) that break anywhere:
                          a changed item's JSON has long words. */}
                      <Td label="Item" showFrom="2xl">
                        <span className="[overflow-wrap:anywhere]">
                          {e.target_type} {e.target_id}
                        </span>
                      </Td>
                      <Td label="Before" showFrom="4xl" className="text-xs text-gray-600">
                        <span className="[overflow-wrap:anywhere]">{c.before}</span>
                      </Td>
                      <Td label="After" showFrom="4xl" className="text-xs">
                        <span className="[overflow-wrap:anywhere]">{c.after}</span>
                      </Td>
                    </Tr>
                  );
                })}
              </TBody>
            </Table>
            <div className="flex items-center justify-between gap-3 text-sm text-gray-600">
              <span>
                Page {page} of {pages} ({log.data?.total ?? 0} entries)
              </span>
              <div className="flex gap-2">
                <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                  Previous
                </Button>
                <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
                  Next
                </Button>
              </div>
            </div>
          </>
        )}
      </Loaded>
    </Section>
  );
}
