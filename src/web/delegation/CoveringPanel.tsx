// 'Deciding for others': the items waiting on someone the caller covers for (as their delegate while they are away)
// or that escalated to the caller, with Approve and Reject. Shown on every dashboard when there are any.
import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { waitingLabel } from '../../domain/reminders';
import { Badge, Button, Card, CardHeader, ErrorBanner, Textarea, useToast } from '../ui';
import { type CoveringItem, coveringItems, decideCovered } from './api';

export function CoveringPanel() {
  const covering = useQuery({ queryKey: ['covering'], queryFn: coveringItems, refetchInterval: 60_000 });
  if (covering.isPending) return null; // nothing to show for most people: no placeholder
  if (covering.isError)
    return (
      <ErrorBanner title="Could not load the items you decide for others" onRetry={() => void covering.refetch()}>
        {covering.error instanceof Error ? covering.error.message : ''}
      </ErrorBanner>
    );
  const items = covering.data.items;
  if (items.length === 0) return null;
  return (
    <Card data-testid="covering-panel">
      <CardHeader title="Deciding for others" description="Waiting on people you cover for while they are away, or escalated to you." />
      <ul className="divide-y divide-gray-100">
        {items.map((item) => (
          <CoveringRow key={`${item.form_id}-${item.stage}`} item={item} />
        ))}
      </ul>
    </Card>
  );
}

function CoveringRow({ item }: { item: CoveringItem }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: (d: 'Approved' | 'Rejected') => decideCovered(item, d, d === 'Rejected' ? reason.trim() : undefined),
    onSuccess: (_r, d) => {
      toast.success(`${item.form_id} ${d.toLowerCase()}`);
      void qc.invalidateQueries({ queryKey: ['covering'] });
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : 'Not saved'),
  });
  const why = item.kind === 'delegate' ? `on behalf of ${item.on_behalf_of}` : 'escalated to you';
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 px-4 py-3 sm:px-5"
      data-testid="covering-item"
      data-request-id={item.form_id}
    >
      <div className="min-w-0">
        <p className="font-medium text-gray-900">
          {item.title} <span className="font-mono text-xs text-gray-500">{item.form_id}</span>
        </p>
        <p className="text-sm text-gray-600">
          {item.employee_name} · {item.stage_label} step · <span className="font-medium text-indigo-700">{why}</span>
        </p>
        <p className="mt-1 flex items-center gap-1 text-xs">
          {item.overdue && <AlertTriangle className="h-3.5 w-3.5 text-amber-600" aria-hidden="true" />}
          <Badge tone={item.overdue ? 'warning' : 'neutral'}>{waitingLabel(item.waiting_days)}</Badge>
        </p>
        {rejecting && (
          <div className="mt-2 w-[min(28rem,calc(100vw-4rem))]">
            <Textarea label="Reason for rejection" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
          </div>
        )}
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {rejecting ? (
          <>
            <Button size="sm" variant="secondary" onClick={() => setRejecting(false)} disabled={decide.isPending}>
              Cancel
            </Button>
            <Button
              size="sm"
              variant="danger"
              loading={decide.isPending}
              disabled={reason.trim() === ''}
              onClick={() => decide.mutate('Rejected')}
            >
              Confirm rejection
            </Button>
          </>
        ) : (
          <>
            <Button size="sm" loading={decide.isPending} onClick={() => decide.mutate('Approved')} aria-label={`Approve ${item.form_id}`}>
              Approve
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setRejecting(true)} aria-label={`Reject ${item.form_id}`}>
              Reject
            </Button>
          </>
        )}
      </div>
    </li>
  );
}
