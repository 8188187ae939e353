// The facilities table shared by the desk and the facilities manager (approver-side §2.4, §2.5): Request ID,
// Employee, Department, Form Type, Details, Date, the status column(s) of the dashboard, and the actions.
import type { ReactNode } from 'react';
import { Table, TBody, THead, Td, Th, TableMessageRow, Tr } from '../ui';
import { formatDate } from '../format';
import type { QueueRecord } from './api';
import { FormIcon, facilitiesDetails, facilitiesTypeLabel } from './labels';
import { LoadingRow, RowCheckbox, SelectAllCheckbox, type useSelection } from './queue-kit';
import { RowActions } from './RowActions';

export interface FacilitiesTableProps {
  rows: QueueRecord[];
  loading: boolean;
  selection: ReturnType<typeof useSelection>;
  busy: Set<string>;
  onView: (rec: QueueRecord) => void;
  onApprove: (rec: QueueRecord) => void;
  onReject: (rec: QueueRecord) => void;
  statusColumns: Array<{ label: string; value: (rec: QueueRecord) => ReactNode }>;
  /** Shown in the actions cell of rows the caller cannot decide (e.g. 'Awaiting desk'). */
  notActionable?: (rec: QueueRecord) => ReactNode;
}

export function FacilitiesTable({ rows, loading, selection, busy, onView, onApprove, onReject, statusColumns, notActionable }: FacilitiesTableProps) {
  const cols = 6 + statusColumns.length + 1;
  // With two status columns (facilities manager) the date gives way first when the panel is narrow.
  const dateClass = statusColumns.length > 1 ? 'hidden @5xl:table-cell' : '';
  return (
    <Table caption="Facilities requests" data-testid="approval-table">
      <THead>
        <tr>
          <Th>
            <span className="flex items-center gap-2">
              <SelectAllCheckbox selection={selection} /> Request ID
            </span>
          </Th>
          <Th>Employee</Th>
          <Th className="hidden @6xl:table-cell">Department</Th>
          <Th>Form Type</Th>
          <Th className="hidden @5xl:table-cell">Details</Th>
          <Th className={dateClass}>Date</Th>
          {statusColumns.map((c) => <Th key={c.label}>{c.label}</Th>)}
          <Th align="right"><span className="sr-only">Actions</span></Th>
        </tr>
      </THead>
      <TBody>
        {loading ? (
          <LoadingRow colSpan={cols} />
        ) : rows.length === 0 ? (
          <TableMessageRow colSpan={cols}>No items found for this filter.</TableMessageRow>
        ) : (
          rows.map((rec) => (
            <Tr key={rec.request_id} data-request-id={rec.request_id}>
              <Td>
                <span className="flex items-center gap-2">
                  <RowCheckbox rec={rec} selection={selection} />
                  <span className="font-mono text-xs whitespace-nowrap text-gray-700">{rec.request_id}</span>
                </span>
              </Td>
              <Td>{rec.employee_name}</Td>
              <Td className="hidden @6xl:table-cell">{rec.department}</Td>
              <Td>
                <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
                  <span className="text-indigo-600"><FormIcon formType={rec.form_type} /></span>
                  {facilitiesTypeLabel(rec.form_type)}
                </span>
              </Td>
              <Td className="hidden @5xl:table-cell">{facilitiesDetails(rec)}</Td>
              <Td className={`whitespace-nowrap ${dateClass}`}>{formatDate(rec.created_at)}</Td>
              {statusColumns.map((c) => <Td key={c.label}>{c.value(rec)}</Td>)}
              <Td align="right">
                <RowActions rec={rec} busy={busy.has(rec.request_id)} onView={onView} onApprove={onApprove} onReject={onReject} whenNotActionable={notActionable?.(rec)} />
              </Td>
            </Tr>
          ))
        )}
      </TBody>
    </Table>
  );
}
