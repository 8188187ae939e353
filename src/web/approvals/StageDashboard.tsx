// The one page of a role-wide approver dashboard (HR, finance, facilities desk, facilities manager): the queue
// loaded with the role's error texts, the status filter (default Pending, in the URL as ?status=), optional
// form-type chips (?type=), the summary tiles, the queue table, 'Deciding for others', other requests, the details
// modal (/requests/<id>) and the decision flow. Each dashboard is a configuration of this page (its columns, texts,
// where its tiles come from and how a decision updates the list), not a copy of it.
import { useMemo, type ReactNode } from 'react';
import { formTitle } from '../../domain/forms';
import { useCurrentUser } from '../auth/AuthProvider';
import type { User } from '../api/types';
import { useDetailsRoute, useSearchParamState } from '../routing/hooks';
import { DashboardLayout, type DashboardSlug } from '../shell/DashboardLayout';
import { Chips } from '../ui';
import type { ApproverRole } from '../../domain/approvals';
import { type QueueEnvelope, type QueueRecord } from './api';
import { DetailsModal } from './DetailsModal';
import { OtherRequests } from './OtherRequests';
import {
  STATUS_FILTERS,
  type QueueMessages,
  type StatusFilterValue,
  chipLabel,
  matchesStatus,
  replaceRows,
  statusCounts,
  tilesFromRows,
  useApprovalQueue,
  useDecisionFlow,
  useSelection,
} from './queue-kit';
import { type QueueColumn, QueuePanel } from './QueueTable';
import { TeamApprovals } from './TeamApprovals';

/** A queue answer: the spec's envelope with a summary (finance, facilities manager) or a plain list (HR, desk). */
export type StageQueueAnswer = QueueEnvelope | QueueRecord[];

export interface StageDashboardConfig {
  dashboard: DashboardSlug;
  /** The role that decides here (decisions, details and the queue's cache key). */
  role: Exclude<ApproverRole, 'manager'>;
  load: (user: User) => Promise<StageQueueAnswer>;
  messages: QueueMessages;
  title: string;
  description: string;
  caption: string;
  totalLabel: string;
  lead: 'form' | 'request-id';
  leadIcon?: boolean;
  columns: QueueColumn[];
  notActionable?: (rec: QueueRecord) => ReactNode;
  emptyText?: string;
  /** After a decision: reload the whole queue (its summary tiles come from the server) or replace the decided rows. */
  afterDecision: 'reload' | 'replace';
  failureStyle?: 'per-action' | 'update-status';
  reasonRequired?: boolean;
  /**
   * Form-type chips ('All Forms' plus each type that has rows), for a queue of several types; `types` is read on
   * each render, so types registered at run time (GET /api/form-types) get their chip too.
   */
  typeChips?: { types: () => readonly string[]; allLabel: string; label?: (formType: string) => string };
}

function rowsOf(answer: StageQueueAnswer | undefined): QueueRecord[] {
  if (answer === undefined) return [];
  return Array.isArray(answer) ? answer : (answer.forms ?? []);
}

export function StageDashboard({ config }: { config: StageDashboardConfig }) {
  const user = useCurrentUser();
  const queue = useApprovalQueue(['approvals', config.role, user.id], () => config.load(user), config.messages);
  const rows = useMemo(() => rowsOf(queue.data), [queue.data]);
  const summary = queue.data !== undefined && !Array.isArray(queue.data) ? queue.data.summary : undefined;
  const [status, setStatus] = useSearchParamState<StatusFilterValue>('status', 'Pending', STATUS_FILTERS);
  const typeChips = config.typeChips;
  // The registry's types for this dashboard, then any other type on the list (an administrator's chain may send one
  // here): the chips add up to All.
  const chipTypes = useMemo(() => {
    if (!typeChips) return [];
    const own = typeChips.types();
    return [...own, ...[...new Set(rows.map((r) => r.form_type))].filter((t) => !own.includes(t)).sort()];
  }, [typeChips, rows]);
  const [type, setType] = useSearchParamState<string>('type', 'all', ['all', ...chipTypes]);
  const [details, setDetails] = useDetailsRoute<QueueRecord>(rows, 'dashboard');
  const flow = useDecisionFlow({
    role: config.role,
    user,
    failureStyle: config.failureStyle,
    reasonRequired: config.reasonRequired,
    onDecided: async (recs) => {
      if (config.afterDecision === 'reload') await queue.refresh();
      else queue.setData((d) => (Array.isArray(d) ? replaceRows(d, recs) : { ...d, forms: replaceRows(d.forms ?? [], recs) }));
    },
  });

  const tiles = useMemo(
    () =>
      summary
        ? {
            pending: summary.total_pending ?? 0,
            approved: summary.total_approved ?? 0,
            rejected: summary.total_rejected ?? 0,
            total: rows.length,
          }
        : tilesFromRows(rows),
    [summary, rows],
  );
  const counts = useMemo(() => statusCounts(rows), [rows]);
  const visible = rows.filter((r) => (type === 'all' || r.form_type === type) && matchesStatus(r.stage_state, status));
  const selection = useSelection(visible);

  let chips: ReactNode;
  if (config.typeChips) {
    const { allLabel, label = formTitle } = config.typeChips;
    const items = [
      { id: 'all', label: chipLabel(allLabel, rows.length, type === 'all') },
      ...chipTypes.flatMap((t) => {
        const n = rows.filter((r) => r.form_type === t).length;
        return n > 0 ? [{ id: t, label: chipLabel(label(t), n, type === t) }] : [];
      }),
    ];
    chips = (
      <Chips
        label="Form type"
        items={items}
        value={type}
        onChange={(t) => {
          setType(t);
          setStatus('All');
        }}
      />
    );
  }

  return (
    <DashboardLayout dashboard={config.dashboard}>
      <QueuePanel
        title={config.title}
        description={config.description}
        queue={queue}
        tiles={tiles}
        totalLabel={config.totalLabel}
        status={status}
        onStatus={setStatus}
        counts={counts}
        chips={chips}
        visible={visible}
        selection={selection}
        flow={flow}
        caption={config.caption}
        lead={config.lead}
        leadIcon={config.leadIcon}
        columns={config.columns}
        onView={setDetails}
        notActionable={config.notActionable}
        emptyText={config.emptyText}
      />
      <TeamApprovals embedded />
      <OtherRequests />
      <DetailsModal role={config.role} target={details} onClose={() => setDetails(null)} onApprove={flow.approve} onReject={flow.reject} />
      {flow.dialog}
    </DashboardLayout>
  );
}
