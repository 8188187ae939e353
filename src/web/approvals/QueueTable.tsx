// The one approval queue table of every approver dashboard (line manager, HR, finance, facilities desk and facilities
// manager), configured by its columns. Every table has the same frame: a selection column, a lead column (the form
// with its request id, or the request id), the dashboard's columns, and the row's actions (View Details, Approve,
// Reject, or the final label). Each column says from which table width it is shown (`showFrom`): narrower tables
// drop the secondary columns first, and below 44rem the rows become cards, the checkbox beside the request id on
// the card's first line and the actions on its last.
import type { ReactNode } from 'react';
import { formatDate } from '../format';
import { waitingLabel } from '../../domain/reminders';
import { Table, TBody, THead, Td, Th, TableMessageRow, Tr, cn, type ShowFrom } from '../ui';
import type { QueueRecord } from './api';
import { DecidedLabel, FormTypeIcon, facilitiesDetails, facilitiesTypeLabel, formLabel } from './labels';
import {
  ApprovalPanel,
  BulkBar,
  LoadingRow,
  QueueError,
  RowCheckbox,
  SelectAllCheckbox,
  StatusFilter,
  type StatusFilterValue,
  SummaryTiles,
  type Tiles,
  type useApprovalQueue,
  type useDecisionFlow,
  type useSelection,
} from './queue-kit';
import { RowActions } from './RowActions';

export interface QueueColumn {
  /** The column's header, and the label of its line on a card. */
  header: string;
  /** A secondary column: shown from this table width on (always on cards). */
  showFrom?: ShowFrom;
  align?: 'left' | 'right';
  className?: string;
  /** The cell's hover text (e.g. a purpose cut to two lines). */
  title?: (rec: QueueRecord) => string | undefined;
  cell: (rec: QueueRecord) => ReactNode;
}

export interface QueueTableProps {
  /** The table's accessible name ('Team requests', 'Finance requests', ...). */
  caption: string;
  testId?: string;
  /**
   * The lead column: 'form' (header 'Form': icon, form name and request id) or 'request-id' (header 'Request ID':
   * the request id, with the form's icon unless `leadIcon` is false, e.g. when a Form Type column names it).
   */
  lead: 'form' | 'request-id';
  leadIcon?: boolean;
  columns: QueueColumn[];
  rows: QueueRecord[];
  loading: boolean;
  selection: ReturnType<typeof useSelection>;
  busy: Set<string>;
  onView: (rec: QueueRecord) => void;
  onApprove: (rec: QueueRecord) => void;
  onReject: (rec: QueueRecord) => void;
  /** Shown in the actions cell of rows the caller cannot decide (e.g. the final label, 'Awaiting desk'). */
  notActionable?: (rec: QueueRecord) => ReactNode;
  emptyText?: string;
}

export function QueueTable({
  caption,
  testId = 'approval-table',
  lead,
  leadIcon = true,
  columns,
  rows,
  loading,
  selection,
  busy,
  onView,
  onApprove,
  onReject,
  notActionable,
  emptyText = 'No items found for this filter.',
}: QueueTableProps) {
  // With the request id as lead, the checkbox shares its cell (a column less: the finance and facilities tables need
  // the width); beside the form's name it has a column of its own, so the header reads 'Form'.
  const ownSelectColumn = lead === 'form';
  const colSpan = columns.length + (ownSelectColumn ? 3 : 2);
  return (
    <Table cards caption={caption} data-testid={testId}>
      <THead>
        <tr>
          {ownSelectColumn && (
            <Th className="w-8 pr-0">
              <SelectAllCheckbox selection={selection} />
            </Th>
          )}
          <Th>
            {ownSelectColumn ? (
              'Form'
            ) : (
              <span className="flex items-center gap-2">
                <SelectAllCheckbox selection={selection} /> Request ID
              </span>
            )}
          </Th>
          {columns.map((c) => (
            <Th key={c.header} showFrom={c.showFrom} align={c.align}>
              {c.header}
            </Th>
          ))}
          <Th align="right">
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </THead>
      <TBody>
        {loading ? (
          <LoadingRow colSpan={colSpan} />
        ) : rows.length === 0 ? (
          <TableMessageRow colSpan={colSpan}>{emptyText}</TableMessageRow>
        ) : (
          rows.map((rec) => (
            <Tr
              key={rec.request_id}
              data-request-id={rec.request_id}
              data-overdue={rec.overdue === true ? 'true' : undefined}
              className={cn(rec.overdue === true && 'bg-amber-50/70 hover:bg-amber-50')}
            >
              {ownSelectColumn && (
                <Td data-cell="select" data-selectable={rec.actionable ? 'true' : undefined} className="w-8 pr-0">
                  <RowCheckbox rec={rec} selection={selection} />
                </Td>
              )}
              <Td data-cell="lead">
                <LeadCell
                  rec={rec}
                  lead={lead}
                  icon={leadIcon}
                  checkbox={ownSelectColumn ? null : <RowCheckbox rec={rec} selection={selection} />}
                />
              </Td>
              {columns.map((c) => (
                <Td key={c.header} label={c.header} showFrom={c.showFrom} align={c.align} className={c.className} title={c.title?.(rec)}>
                  {c.cell(rec)}
                </Td>
              ))}
              <Td align="right" actions>
                <RowActions
                  rec={rec}
                  busy={busy.has(rec.request_id)}
                  onView={onView}
                  onApprove={onApprove}
                  onReject={onReject}
                  whenNotActionable={notActionable?.(rec)}
                />
              </Td>
            </Tr>
          ))
        )}
      </TBody>
    </Table>
  );
}

function LeadCell({ rec, lead, icon, checkbox }: { rec: QueueRecord; lead: QueueTableProps['lead']; icon: boolean; checkbox: ReactNode }) {
  const id = <span className="font-mono text-xs whitespace-nowrap text-gray-700">{rec.request_id}</span>;
  return (
    <span className="flex min-w-0 items-center gap-2">
      {checkbox}
      {icon && (
        <span className="shrink-0 text-indigo-600" title={formLabel(rec.form_type)}>
          <FormTypeIcon formType={rec.form_type} />
        </span>
      )}
      {lead === 'form' ? (
        <span className="min-w-0">
          <span className="block font-medium text-gray-900">{formLabel(rec.form_type)}</span>
          <span className="block font-mono text-xs text-gray-500">{rec.request_id}</span>
          <WaitingNote rec={rec} />
        </span>
      ) : (
        <span className="min-w-0">
          {id}
          <WaitingNote rec={rec} />
        </span>
      )}
    </span>
  );
}

/** 'Waiting 3 days' (working days) under a row still waiting on this dashboard; amber when overdue. */
function WaitingNote({ rec }: { rec: QueueRecord }) {
  if (typeof rec.waiting_days !== 'number') return null;
  return (
    <span className={cn('block text-xs', rec.overdue === true ? 'font-medium text-amber-800' : 'text-gray-500')} data-testid="waiting">
      {waitingLabel(rec.waiting_days)}
      {rec.overdue === true && ' · overdue'}
    </span>
  );
}

// ---- the columns the dashboards share -----------------------------------------------------------

/** The employee's name; with `department` their department under it (when no Department column is shown). */
export const employeeColumn = (opts: { department?: boolean } = {}): QueueColumn => ({
  header: 'Employee',
  cell: (rec) =>
    opts.department ? (
      <span>
        <span className="block font-medium text-gray-900">{rec.employee_name}</span>
        <span className="block text-xs text-gray-500">{rec.department}</span>
      </span>
    ) : (
      <span>{rec.employee_name}</span>
    ),
});

export const departmentColumn = (showFrom?: ShowFrom): QueueColumn => ({
  header: 'Department',
  showFrom,
  cell: (rec) => <span>{rec.department}</span>,
});

/** The request's date ('Created' on the manager and HR tables, 'Date' on the facilities tables). */
export const createdColumn = (header: 'Created' | 'Date', showFrom?: ShowFrom): QueueColumn => ({
  header,
  showFrom,
  className: 'whitespace-nowrap',
  cell: (rec) => <span>{formatDate(rec.created_at)}</span>,
});

/** Facilities: Meeting Room or Facility Access, with the form's icon. */
export const formTypeColumn = (): QueueColumn => ({
  header: 'Form Type',
  cell: (rec) => (
    <span className="inline-flex items-center gap-1.5">
      <span className="text-indigo-600">
        <FormTypeIcon formType={rec.form_type} />
      </span>
      {facilitiesTypeLabel(rec.form_type)}
    </span>
  ),
});

/** Facilities: the room and slot, or the access asked for. */
export const detailsColumn = (showFrom?: ShowFrom): QueueColumn => ({
  header: 'Details',
  showFrom,
  // Free text: a long word (a pasted reference) breaks instead of widening the table past its box.
  className: '[overflow-wrap:anywhere]',
  cell: (rec) => facilitiesDetails(rec),
});

/** A stage's state as a badge with 'by {signer}' once decided (and an optional note, e.g. 'Acknowledged'). */
export const decisionColumn = (
  header: string,
  value: (rec: QueueRecord) => unknown,
  signer: (rec: QueueRecord) => unknown,
  note?: (rec: QueueRecord) => string | undefined,
): QueueColumn => ({
  header,
  cell: (rec) => <DecidedLabel value={String(value(rec) ?? 'Pending')} signer={signer(rec)} note={note?.(rec)} />,
});

// ---- the panel around it ------------------------------------------------------------------------

export interface QueuePanelProps extends Omit<QueueTableProps, 'rows' | 'loading' | 'selection' | 'busy' | 'onApprove' | 'onReject'> {
  /** 'approval-panel' for the dashboard's own queue (the chat's 'Go to Approval Panel' target). */
  id?: string;
  title: string;
  description: string;
  queue: Pick<ReturnType<typeof useApprovalQueue>, 'refresh' | 'refreshing' | 'error' | 'dismissError' | 'isLoading'> & { data: unknown };
  /** Whether the queue's load error is shown (the embedded 'Your team' section only logs it). */
  showError?: boolean;
  tiles: Tiles;
  totalLabel: string;
  status: StatusFilterValue;
  onStatus: (v: StatusFilterValue) => void;
  /** Rows per status option ('Pending (n)'): the same definition as the tiles. */
  counts: Record<StatusFilterValue, number>;
  /** The form-type chips, where the dashboard has them. */
  chips?: ReactNode;
  /** The rows passing the filters. */
  visible: QueueRecord[];
  selection: ReturnType<typeof useSelection>;
  flow: ReturnType<typeof useDecisionFlow>;
}

/** An approver's queue: Refresh, the error banner, the tiles, the filters, bulk actions and the queue table. */
export function QueuePanel({
  id,
  title,
  description,
  queue,
  showError = true,
  tiles,
  totalLabel,
  status,
  onStatus,
  counts,
  chips,
  visible,
  selection,
  flow,
  ...table
}: QueuePanelProps) {
  return (
    <ApprovalPanel id={id} title={title} description={description} onRefresh={() => void queue.refresh()} refreshing={queue.refreshing}>
      {showError && <QueueError message={queue.error} onDismiss={queue.data !== undefined ? queue.dismissError : undefined} />}
      <SummaryTiles tiles={tiles} totalLabel={totalLabel} />
      <div className={cn('flex flex-wrap items-end gap-3', chips ? 'justify-between' : 'justify-end')}>
        {chips}
        <StatusFilter value={status} onChange={onStatus} counts={counts} />
      </div>
      <BulkBar selection={selection} onApprove={flow.approveMany} onReject={flow.rejectMany} />
      <QueueTable
        {...table}
        rows={visible}
        loading={queue.isLoading}
        selection={selection}
        busy={flow.busy}
        onApprove={flow.approve}
        onReject={flow.reject}
      />
    </ApprovalPanel>
  );
}
