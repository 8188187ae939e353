// 'Your Forms & Requests': category and date filters, an externally supplied form type and
// status, columns Form / Status / Submission ('#n of total') / Category / Date / 'View Details', newest first,
// 'Loading your forms...' and the two 'No Forms Found' texts.
import { useMemo, useState } from 'react';
import { Eye, FileSearch } from 'lucide-react';
import { type StatusFilter, displayStatus } from '../../domain/status';
import { formatDate } from '../format';
import { Button, Card, EmptyState, ErrorBanner, Select, Spinner, StatusBadge, TBody, THead, Table, Td, Th, Tr } from '../ui';
import { FormIcon } from './FormIcon';
import { useSearchParamState } from '../routing/hooks';
import { DATE_FILTERS, type DateFilter, type Submission, categoryOptions, filterSubmissions } from './submissions';

export const NO_FORMS_YET = "You haven't submitted any forms yet. Use the chatbot or contact your administrator to submit forms.";
export const NO_FORMS_MATCH = 'No forms match your filter criteria. Try adjusting your filter.';

export interface YourFormsListProps {
  submissions: readonly Submission[];
  loading?: boolean;
  error?: string | null;
  onRetry?: () => void;
  /** External form-type filter ('all' for every type). */
  formType?: string;
  /** External status filter. */
  status?: StatusFilter;
  onViewDetails: (s: Submission) => void;
  /** Heading level: h2 on its own page, h3 when embedded under the dashboard's heading. */
  embedded?: boolean;
}

const PAGE = 50;

export function YourFormsList({ submissions, loading, error, onRetry, formType, status, onViewDetails, embedded }: YourFormsListProps) {
  // Kept in the URL (?category=...&date=...) with the dashboard's other filters.
  const [category, setCategory] = useSearchParamState<string>('category', 'All Forms');
  const [date, setDate] = useSearchParamState<DateFilter>('date', 'All Time', DATE_FILTERS);
  const [shown, setShown] = useState(PAGE);
  const categories = useMemo(() => categoryOptions([...submissions]), [submissions]);
  const rows = useMemo(
    () => filterSubmissions([...submissions], { category, date, formType, status }),
    [submissions, category, date, formType, status],
  );
  const Heading = embedded ? 'h3' : 'h2';

  return (
    <Card aria-labelledby="your-forms-heading" data-testid="your-forms">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
        <div>
          <Heading id="your-forms-heading" className="text-base font-semibold text-gray-900">
            Your Forms &amp; Requests
          </Heading>
          <p className="text-sm text-gray-600" aria-live="polite">
            {loading ? 'Loading…' : `${rows.length} of ${submissions.length} request${submissions.length === 1 ? '' : 's'}`}
          </p>
        </div>
        {/* Side by side on a phone too, so the list starts on the first screen. */}
        <div className="grid w-full grid-cols-2 gap-3 sm:flex sm:w-auto sm:flex-wrap">
          <Select
            label="Category"
            value={categories.includes(category) ? category : 'All Forms'}
            onChange={(e) => {
              setCategory(e.target.value);
              setShown(PAGE);
            }}
            wrapperClassName="min-w-0 sm:w-52"
          >
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <Select
            label="Date"
            value={date}
            onChange={(e) => {
              setDate(e.target.value as DateFilter);
              setShown(PAGE);
            }}
            wrapperClassName="min-w-0 sm:w-44"
          >
            {DATE_FILTERS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Select>
        </div>
      </div>

      {error && (
        <div className="px-4 pt-3 sm:px-5">
          <ErrorBanner onRetry={onRetry}>{error}</ErrorBanner>
        </div>
      )}

      {loading ? (
        <div className="flex items-center justify-center gap-2 py-12 text-sm text-gray-600" role="status">
          <Spinner /> Loading your forms...
        </div>
      ) : error && submissions.length === 0 ? null : rows.length === 0 ? (
        // After a failed load the error banner says what happened; 'You haven't submitted any forms yet' would be untrue.
        <EmptyState
          title="No Forms Found"
          description={submissions.length === 0 ? NO_FORMS_YET : NO_FORMS_MATCH}
          icon={<FileSearch className="h-6 w-6" />}
        />
      ) : (
        <div className="p-3 sm:p-4">
          <Table cards caption="Your forms and requests, newest first">
            <THead>
              <tr>
                <Th>Form</Th>
                <Th>Status</Th>
                <Th showFrom="2xl">Submission</Th>
                <Th showFrom="3xl">Category</Th>
                <Th>Date</Th>
                <Th align="right">
                  <span className="sr-only">Actions</span>
                </Th>
              </tr>
            </THead>
            <TBody>
              {rows.slice(0, shown).map((s) => (
                <Tr key={s.id} data-testid="form-row" data-request-id={s.request_id}>
                  <Td>
                    <div className="flex items-center gap-3">
                      <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-md bg-indigo-50 text-indigo-700">
                        <FormIcon name={s.icon} className="h-4 w-4" />
                      </span>
                      <div className="min-w-0">
                        <p className="font-medium text-gray-900">{s.title}</p>
                        <p className="text-xs text-gray-500">
                          <span className="font-mono">{s.request_id}</span>
                          <span className="md:hidden"> · {s.category}</span>
                        </p>
                      </div>
                    </div>
                  </Td>
                  <Td label="Status">
                    <StatusBadge status={displayStatus(s.status)} />
                  </Td>
                  <Td label="Submission" showFrom="2xl" className="whitespace-nowrap tabular-nums">
                    #{s.submissionNumber} of {s.totalSubmissions}
                  </Td>
                  <Td label="Category" showFrom="3xl">
                    {s.category}
                  </Td>
                  <Td label="Date" className="whitespace-nowrap">
                    {formatDate(s.created_at)}
                  </Td>
                  <Td align="right" actions>
                    <Button
                      size="sm"
                      variant="secondary"
                      icon={<Eye className="h-4 w-4" aria-hidden="true" />}
                      onClick={() => onViewDetails(s)}
                      aria-label={`View Details of ${s.request_id}`}
                    >
                      View Details
                    </Button>
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          {rows.length > shown && (
            <div className="mt-3 flex justify-center">
              <Button variant="secondary" size="sm" onClick={() => setShown((n) => n + PAGE)}>
                Show {Math.min(PAGE, rows.length - shown)} more
              </Button>
            </div>
          )}
        </div>
      )}
    </Card>
  );
}
