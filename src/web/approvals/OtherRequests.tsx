// 'Other requests' on every approver dashboard (issue 20): requests whose chain is defined as data (an
// administrator's form types; chains with a manager's manager, a group or a named person) waiting on the caller's
// decision, from the generic queue (GET /api/approvals/queue). The same panel, table, bulk bar, details modal and
// decision dialogs as the dashboard's own queue; a decided request leaves the list. Drawn only when it has rows or
// could not load: nothing while it loads, nothing for an approver with no such requests.
import { useMemo, useState } from 'react';
import { useCurrentUser } from '../auth/AuthProvider';
import { formatDate } from '../format';
import { type QueueRecord, approvalsApi } from './api';
import { DetailsModal } from './DetailsModal';
import { ApprovalPanel, BulkBar, QueueError, useApprovalQueue, useDecisionFlow, useSelection } from './queue-kit';
import { type QueueColumn, QueueTable, employeeColumn } from './QueueTable';

const MESSAGES = {
  loadHttp: 'Failed to load other requests',
  loadOther: 'Failed to load other requests',
  refreshHttp: 'Failed to refresh other requests',
  refreshOther: 'Failed to refresh data',
};

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

const COLUMNS: QueueColumn[] = [
  employeeColumn({ department: true }),
  { header: 'Submitted', showFrom: '2xl', className: 'whitespace-nowrap', cell: (rec) => <span>{formatDate(rec.created_at)}</span> },
  { header: 'Your stage', cell: (rec) => <span>{text(rec.stage_label) || text(rec.stage)}</span> },
  {
    header: 'Summary',
    showFrom: '3xl',
    className: '[overflow-wrap:anywhere]',
    title: (rec) => text(rec.summary) || undefined,
    cell: (rec) => <span className="line-clamp-2 text-gray-700">{text(rec.summary)}</span>,
  },
];

export function OtherRequests() {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', 'other', user.id], approvalsApi.otherQueue, MESSAGES);
  const rows = useMemo(() => queue.data ?? [], [queue.data]);
  const [details, setDetails] = useState<QueueRecord | null>(null);
  const flow = useDecisionFlow({
    role: 'other',
    user,
    // Decided: it waits on the caller no more (a later stage of the same request may, after a refresh).
    onDecided: (recs) => {
      const done = new Set(recs.map((r) => r.request_id));
      queue.setData((d) => d.filter((r) => !done.has(r.request_id)));
    },
  });
  const selection = useSelection(rows);

  if (queue.isLoading || (rows.length === 0 && !queue.error)) return null;
  return (
    <>
      <ApprovalPanel
        id="other-requests"
        title="Other requests"
        description={`Requests of your company's own form types waiting on your decision (${rows.length}).`}
        onRefresh={() => void queue.refresh()}
        refreshing={queue.refreshing}
      >
        <QueueError message={queue.error} onDismiss={queue.data !== undefined ? queue.dismissError : undefined} />
        <BulkBar selection={selection} onApprove={flow.approveMany} onReject={flow.rejectMany} />
        <QueueTable
          caption="Other requests"
          testId="other-requests-table"
          lead="form"
          columns={COLUMNS}
          rows={rows}
          loading={false}
          selection={selection}
          busy={flow.busy}
          onView={setDetails}
          onApprove={flow.approve}
          onReject={flow.reject}
          emptyText="No other requests are waiting for you."
        />
      </ApprovalPanel>
      <DetailsModal role="other" target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </>
  );
}
