// History screens for a current-form value: leave, expense, IT access, training, equipment,
// purchase requisition (with its form), and the generic history with grid/list and 'Record #n' cards. Close returns to
// the dashboard; missing values read 'No date', 'Not signed', 'Pending', 'Not processed'; failures show the empty state.
import { useMemo, useState } from 'react';
import { LayoutGrid, List, Plus, X } from 'lucide-react';
import { formTitle, formTypeDef } from '../../domain/forms';
import { approvalSteps, displayStatus } from '../../domain/status';
import { formatDate } from '../format';
import { Button, Card, Dialog, EmptyState, Spinner, StatusBadge, cn, useToast } from '../ui';
import { usePurchaseRequisitions, useLeaveRequests, useUserForms } from './api';
import { allRows, detailCard, recordRows } from './details';
import { FormIcon } from './FormIcon';
import { PurchaseRequisitionForm } from './PurchaseRequisitionForm';
import { type Submission, flattenUserForms } from './submissions';
import type { FormRecord } from './types';
import type { HistoryKind } from '../employee/screens';

const HISTORY: Record<Exclude<HistoryKind, 'generic'>, { title: string; empty: string }> = {
  leave: { title: 'Leave Request History', empty: 'No Leave Requests Found' },
  expense: { title: 'Expense Reimbursement History', empty: 'No Expense Claims Found' },
  'it-access': { title: 'IT Access Request History', empty: 'No IT Access Requests Found' },
  training: { title: 'Training Request History', empty: 'No Training Requests Found' },
  equipment: { title: 'Equipment Request History', empty: 'No Equipment Requests Found' },
  'purchase-requisition': { title: 'Purchase Requisition History', empty: 'No Purchase Requisitions Found' },
};

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

function Line({ label, value, missing }: { label: string; value: unknown; missing?: string }) {
  const v = text(value);
  return (
    <div className="flex justify-between gap-3 text-sm">
      <dt className="text-gray-500">{label}</dt>
      <dd className={cn('text-right', v ? 'text-gray-900' : 'text-gray-500 italic')}>{v || missing}</dd>
    </div>
  );
}

/** One record of a specific history screen: its card fields, signature, every approval step, reimbursement. */
export function HistoryCard({ record, onOpen }: { record: FormRecord; onOpen?: (r: FormRecord) => void }) {
  const rows = detailCard(record.form_type) ? recordRows(record) : [];
  return (
    <article className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm" data-density-card data-testid="history-card">
      <header className="flex items-start justify-between gap-3">
        <div>
          <h3 className="font-semibold text-gray-900">{record.title ?? formTitle(record.form_type)}</h3>
          <p className="font-mono text-xs text-gray-500">{record.request_id}</p>
        </div>
        <StatusBadge status={displayStatus(record.status)} />
      </header>
      <dl className="mt-3 space-y-1.5">
        <Line label="Submitted" value={formatDate(record.created_at)} />
        {rows.map((r) => (
          <Line key={r.name} label={r.label} value={r.value} />
        ))}
        <Line label="Employee signature" value={record.employee_signature} missing="Not signed" />
        <Line
          label="Signed on"
          value={record.employee_signature_date ? formatDate(String(record.employee_signature_date)) : ''}
          missing="No date"
        />
        {approvalSteps(record).map((s) => (
          <div key={s.label} className="space-y-1.5 border-t border-dashed border-gray-200 pt-1.5">
            <Line label={`${s.label} approval`} value={s.value === 'Pending' ? '' : s.value} missing="Pending" />
            <Line label={`${s.label} date`} value={s.date ? formatDate(s.date) : ''} missing="No date" />
          </div>
        ))}
        {record.form_type === 'expense-reimbursement' && (
          <>
            <Line label="Reimbursement processed by" value={record.reimbursement_processed_by} missing="Not processed" />
            <Line
              label="Reimbursement date"
              value={record.reimbursement_date ? formatDate(String(record.reimbursement_date)) : ''}
              missing="No date"
            />
          </>
        )}
      </dl>
      {onOpen && (
        <div className="mt-3 flex justify-end">
          <Button size="sm" variant="secondary" onClick={() => onOpen(record)}>
            View Details
          </Button>
        </div>
      )}
    </article>
  );
}

function Frame({
  title,
  icon,
  onClose,
  actions,
  children,
}: {
  title: string;
  icon: string;
  onClose: () => void;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Card aria-labelledby="history-heading" data-testid="history-screen">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
        <div className="flex items-center gap-3">
          <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700">
            <FormIcon name={icon} />
          </span>
          <h2 id="history-heading" className="text-lg font-semibold text-gray-900">
            {title}
          </h2>
        </div>
        <div className="flex flex-wrap gap-2">
          {actions}
          <Button variant="secondary" size="sm" onClick={onClose} icon={<X className="h-4 w-4" aria-hidden="true" />}>
            Close
          </Button>
        </div>
      </div>
      <div className="p-4 sm:p-5">{children}</div>
    </Card>
  );
}

function useHistoryRecords(kind: HistoryKind, formType: string, employeeCode: string | null | undefined) {
  const leave = useLeaveRequests(kind === 'leave' ? employeeCode : null);
  const pr = usePurchaseRequisitions(kind === 'purchase-requisition' ? employeeCode : null);
  const all = useUserForms(kind !== 'leave' && kind !== 'purchase-requisition' ? employeeCode : null);
  const q = kind === 'leave' ? leave : kind === 'purchase-requisition' ? pr : all;
  const records = useMemo<FormRecord[]>(() => {
    if (kind === 'leave') return leave.data ?? [];
    if (kind === 'purchase-requisition') return pr.data ?? [];
    return all.data?.[formType] ?? [];
  }, [kind, formType, leave.data, pr.data, all.data]);
  // A failed history fetch shows the empty state.
  return { records: q.isError ? [] : records, loading: q.isLoading };
}

export interface HistoryScreenProps {
  kind: HistoryKind;
  formType: string;
  employeeCode: string | null | undefined;
  onClose: () => void;
  /** Opens a record's details modal. */
  onOpen: (s: Submission) => void;
  /** Purchase requisition: open the form straight away (from the catalogue card). */
  startWithForm?: boolean;
  /** Opens the form type's submit form ('New request'); the purchase requisition has its own dialog. */
  onNew?: () => void;
}

function NewRequestButton({ onNew }: { onNew: () => void }) {
  return (
    <Button size="sm" icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={onNew}>
      New request
    </Button>
  );
}

export function HistoryScreen({ kind, formType, employeeCode, onClose, onOpen, startWithForm, onNew }: HistoryScreenProps) {
  const { records, loading } = useHistoryRecords(kind, formType, employeeCode);
  const submissions = useMemo(() => flattenUserForms({ [formType]: records }), [formType, records]);
  const open = (r: FormRecord) => {
    const s = submissions.find((x) => x.id === r.id);
    if (s) onOpen(s);
  };
  const icon = submissions[0]?.icon ?? (kind === 'generic' ? 'FileText' : iconOf(formType));

  if (kind === 'generic')
    return (
      <GenericHistory
        formType={formType}
        records={submissions}
        loading={loading}
        onClose={onClose}
        onOpen={open}
        icon={icon}
        onNew={onNew}
      />
    );

  const meta = HISTORY[kind];
  return (
    <Frame
      title={meta.title}
      icon={icon}
      onClose={onClose}
      actions={
        kind === 'purchase-requisition' ? (
          <NewRequisition startOpen={startWithForm} />
        ) : onNew ? (
          <NewRequestButton onNew={onNew} />
        ) : undefined
      }
    >
      {loading ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading history" />
        </div>
      ) : submissions.length === 0 ? (
        <EmptyState title={meta.empty} description="Nothing has been submitted yet." />
      ) : (
        <div className="grid gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {submissions.map((r) => (
            <HistoryCard key={r.id} record={r} onOpen={open} />
          ))}
        </div>
      )}
    </Frame>
  );
}

const iconOf = (formType: string) => formTypeDef(formType)?.icon ?? 'FileText';

/** The purchase requisition form in a dialog: on success it closes and the list reloads. */
function NewRequisition({ startOpen }: { startOpen?: boolean }) {
  const [open, setOpen] = useState(Boolean(startOpen));
  const toast = useToast();
  return (
    <>
      <Button size="sm" icon={<Plus className="h-4 w-4" aria-hidden="true" />} onClick={() => setOpen(true)}>
        New Requisition
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Purchase Requisition Form"
        description="FIN-PR-08 · about 10-15 min · Department Head and Finance Officer approve"
        size="lg"
      >
        <PurchaseRequisitionForm
          onCancel={() => setOpen(false)}
          onSuccess={(message, requestId) => {
            setOpen(false);
            toast.success(`${message} (${requestId})`);
          }}
        />
      </Dialog>
    </>
  );
}

function GenericHistory({
  formType,
  records,
  loading,
  onClose,
  onOpen,
  icon,
  onNew,
}: {
  formType: string;
  records: Submission[];
  loading: boolean;
  onClose: () => void;
  onOpen: (r: FormRecord) => void;
  icon: string;
  onNew?: () => void;
}) {
  const [view, setView] = useState<'grid' | 'list'>('grid');
  return (
    <Frame
      title={`${formTitle(formType)} History`}
      icon={icon}
      onClose={onClose}
      actions={
        <>
          {onNew && <NewRequestButton onNew={onNew} />}
          <div role="group" aria-label="Layout" className="flex rounded-md ring-1 ring-gray-300 ring-inset">
            {(['grid', 'list'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                aria-label={v === 'grid' ? 'Grid view' : 'List view'}
                onClick={() => setView(v)}
                className={cn(
                  'flex h-8 w-8 items-center justify-center first:rounded-l-md last:rounded-r-md',
                  view === v ? 'bg-indigo-600 text-white' : 'bg-white text-gray-600 hover:bg-gray-50',
                )}
              >
                {v === 'grid' ? <LayoutGrid className="h-4 w-4" aria-hidden="true" /> : <List className="h-4 w-4" aria-hidden="true" />}
              </button>
            ))}
          </div>
        </>
      }
    >
      {loading ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading history" />
        </div>
      ) : records.length === 0 ? (
        <EmptyState title="No Records Found" description="Nothing has been submitted yet." />
      ) : (
        <div className={cn(view === 'grid' ? 'grid gap-4 md:grid-cols-2 2xl:grid-cols-3' : 'space-y-3')}>
          {records.map((r) => (
            <article
              key={r.id}
              className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm"
              data-density-card
              data-testid="record-card"
            >
              <header className="flex items-center justify-between gap-2">
                <h3 className="font-semibold text-gray-900">Record #{r.submissionNumber}</h3>
                <StatusBadge status={displayStatus(r.status)} />
              </header>
              <dl className={cn('mt-3 gap-x-6 gap-y-1.5', view === 'list' ? 'grid sm:grid-cols-2 lg:grid-cols-3' : 'space-y-1.5')}>
                {allRows(r).map((row) => (
                  <div key={row.label} className="flex justify-between gap-3 text-sm">
                    <dt className="text-gray-500">{row.label}</dt>
                    <dd className="min-w-0 text-right break-words text-gray-900">{row.value}</dd>
                  </div>
                ))}
              </dl>
              <div className="mt-3 flex justify-end">
                <Button size="sm" variant="secondary" onClick={() => onOpen(r)}>
                  View Details
                </Button>
              </div>
            </article>
          ))}
        </div>
      )}
    </Frame>
  );
}
