// The one details renderer of a request's fields, for the employee's details modal and history cards and for the
// approvers' details (approver dashboards, the IT desk): the rows `recordRows` reads from the registry's details
// card (or the type's fields, or the generic list), the approvers' side with the card's approver rows too.
import { cn } from '../ui';
import { type DetailAudience, recordRows } from './details';
import type { FormRecord } from './types';

export function DetailFields({ record, audience = 'employee' }: { record: FormRecord; audience?: DetailAudience }) {
  const rows = recordRows(record, audience);
  if (rows.length === 0) return <p className="text-sm text-gray-500">No further details.</p>;
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2" data-testid="type-details" data-audience={audience}>
      {rows.map((r) => (
        <div key={r.name} className={cn('min-w-0', r.kind === 'long' && 'sm:col-span-2')} data-field={r.name}>
          <dt className="text-xs font-medium text-gray-500">{r.label}</dt>
          <dd className={cn('text-sm break-words whitespace-pre-line text-gray-900', r.kind === 'money' && 'tabular-nums')}>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}
