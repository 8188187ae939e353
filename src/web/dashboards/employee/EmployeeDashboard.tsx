// Employee dashboard: header buttons, Refresh, the status filter with counts, form-type chips,
// the embedded 'Your Forms & Requests' list and the details modal; a current-form value (/forms/<value>) swaps the
// content for the catalogue, a submit form or a history screen. Filters and the open request live in the URL.
import { useMemo } from 'react';
import { FilePlus2, RefreshCw } from 'lucide-react';
import { type StatusFilter, STATUS_FILTERS, employeeSummary, statusFilterCounts } from '../../../domain/status';
import { useCurrentUser } from '../../auth/AuthProvider';
import { EmployeeHeaderActions } from '../../employee/EmployeeHeaderActions';
import { useApplyPreferences, usePreferences } from '../../employee/preferences';
import '../../employee/preferences.css';
import { HistorySelect } from '../../employee/HistorySelect';
import { screenFor } from '../../employee/screens';
import { useCurrentForm } from '../../employee/useCurrentForm';
import { useRefreshForms, useUserForms } from '../../forms/api';
import { Catalogue } from '../../forms/Catalogue';
import { FormDetailsModal } from '../../forms/FormDetailsModal';
import { HistoryScreen } from '../../forms/HistoryScreens';
import { SubmitScreen } from '../../forms/SubmitScreen';
import { type Submission, flattenUserForms, openRequests, submissionOf, visibleChips } from '../../forms/submissions';
import { YourFormsList } from '../../forms/YourFormsList';
import { useDetailsRoute, useSearchParamState } from '../../routing/hooks';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { Button, Card, Chips, ErrorBanner, Select, StatTile, cn } from '../../ui';

const LOAD_ERROR = 'Your forms could not be loaded. Check your connection and try again.';

function Overview({
  firstName,
  submissions,
  loading,
  fetching,
  error,
  onRefresh,
  onNavigate,
  onViewDetails,
}: {
  firstName: string;
  submissions: Submission[];
  loading: boolean;
  fetching: boolean;
  error: string | null;
  onRefresh: () => void;
  onNavigate: (value: string) => void;
  onViewDetails: (s: Submission) => void;
}) {
  const [status, setStatus] = useSearchParamState<StatusFilter>('status', 'All', STATUS_FILTERS);
  const [formType, setFormType] = useSearchParamState<string>('type', 'all');
  const counts = useMemo(() => statusFilterCounts(submissions.map((s) => s.status)), [submissions]);
  const chips = useMemo(() => visibleChips(submissions), [submissions]);
  const summary = useMemo(() => employeeSummary(submissions.map((s) => s.status)), [submissions]);
  const chipValue = chips.some((c) => c.id === formType) ? formType : 'all';

  return (
    <>
      <Card aria-labelledby="dashboard-heading" className="p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="dashboard-heading" className="text-lg font-semibold text-gray-900">
              Welcome back, {firstName}
            </h2>
            <p className="text-sm text-gray-600">Follow your requests through their approvals, or start a new one.</p>
          </div>
          <div className="flex flex-wrap items-end gap-2">
            <Button variant="secondary" onClick={onRefresh} loading={fetching} icon={<RefreshCw className="h-4 w-4" aria-hidden="true" />}>
              Refresh
            </Button>
            <Button onClick={() => onNavigate('all-forms')} icon={<FilePlus2 className="h-4 w-4" aria-hidden="true" />}>
              Forms &amp; Requests
            </Button>
          </div>
        </div>
        <div className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatTile label="Pending" value={loading ? '–' : summary.pending} tone="warning" />
          <StatTile label="Approved" value={loading ? '–' : summary.approved} tone="success" />
          <StatTile label="Rejected" value={loading ? '–' : summary.rejected} tone="danger" />
          <StatTile label="Total Forms" value={loading ? '–' : summary.total} />
        </div>
        {/* On a phone the two menus share a line and the chips one scrolling row: the list starts on the first screen. */}
        <div className="mt-4 grid grid-cols-2 items-end gap-3 sm:flex sm:flex-wrap">
          <Select
            label="Status"
            value={status}
            onChange={(e) => setStatus(e.target.value as StatusFilter)}
            wrapperClassName="sm:w-48"
            data-testid="status-filter"
          >
            {STATUS_FILTERS.map((f) => (
              <option key={f} value={f}>
                {f} ({counts[f]})
              </option>
            ))}
          </Select>
          <HistorySelect onOpen={onNavigate} />
        </div>
        {chips.length > 0 && (
          <Chips
            label="Form type"
            className="mt-4 max-sm:-mx-4 max-sm:px-4"
            // Counts drawn here rather than by Chips: its selected count (white on white/20) is below contrast minimums.
            items={chips.map((c) => ({
              id: c.id,
              label: (
                <>
                  {c.label}
                  <span
                    className={cn(
                      'rounded-full px-1.5 text-xs tabular-nums',
                      c.id === chipValue ? 'bg-indigo-900 text-white' : 'bg-gray-100 text-gray-700',
                    )}
                  >
                    {c.count}
                  </span>
                </>
              ),
            }))}
            value={chipValue}
            onChange={setFormType}
          />
        )}
      </Card>

      <YourFormsList
        embedded
        submissions={submissions}
        loading={loading}
        error={error}
        onRetry={onRefresh}
        formType={chipValue}
        status={status}
        onViewDetails={onViewDetails}
      />
    </>
  );
}

export function EmployeeDashboard() {
  const user = useCurrentUser();
  const employeeCode = user.profile?.employee_code ?? null;
  const forms = useUserForms(employeeCode);
  const submissions = useMemo(() => flattenUserForms(forms.data), [forms.data]);
  const refresh = useRefreshForms();
  const [current, setCurrent, startNew] = useCurrentForm();
  const screen = screenFor(current, startNew);
  // The request of a /requests/<id> URL: from the person's list, else its own record (the list may be loading or bounded).
  const [detail, setDetail] = useDetailsRoute<Submission>(submissions, 'own', submissionOf);
  const prefs = usePreferences();
  useApplyPreferences(prefs.preferences, prefs.isSuccess);

  const siblings = useMemo(() => {
    if (!detail) return [];
    const same = submissions.filter((s) => s.formType === detail.formType);
    return same.some((s) => s.id === detail.id) ? same : [detail, ...same];
  }, [detail, submissions]);
  const loading = Boolean(employeeCode) && forms.isLoading;
  const error = !employeeCode
    ? 'Your profile has no employee code, so your forms cannot be listed. Please contact your administrator.'
    : forms.isError
      ? LOAD_ERROR
      : null;
  const firstName = user.profile?.first_name ?? user.firstName ?? '';

  return (
    <DashboardLayout
      dashboard="employee"
      headerActions={
        <EmployeeHeaderActions
          // Calendar popover, notifications bell and messages are passed here by their features.
          tasks={openRequests(submissions)}
          tasksLoading={loading}
          onOpenTask={setDetail}
        />
      }
    >
      {screen.kind === 'dashboard' && (
        <Overview
          firstName={firstName}
          submissions={submissions}
          loading={loading}
          fetching={forms.isFetching}
          error={error}
          onRefresh={() => void refresh()}
          onNavigate={(v) => setCurrent(v)}
          onViewDetails={setDetail}
        />
      )}
      {screen.kind === 'catalogue' && (
        <Catalogue
          initialView={prefs.preferences.catalogue_view}
          onClose={() => setCurrent(null)}
          onOpen={(entry) => setCurrent(entry.formType, { new: true })}
        />
      )}
      {screen.kind === 'submit' && (
        <SubmitScreen
          formType={screen.formType}
          submissions={submissions}
          loading={loading}
          onClose={() => setCurrent(null)}
          onViewDetails={setDetail}
        />
      )}
      {screen.kind === 'history' && (
        <HistoryScreen
          key={screen.formType}
          kind={screen.history}
          formType={screen.formType}
          employeeCode={employeeCode}
          startWithForm={startNew}
          onClose={() => setCurrent(null)}
          onOpen={setDetail}
          onNew={() => setCurrent(screen.formType, { new: true })}
        />
      )}
      {error && screen.kind !== 'dashboard' && <ErrorBanner onRetry={() => void refresh()}>{error}</ErrorBanner>}
      <FormDetailsModal open={detail !== null} submission={detail} siblings={siblings} onClose={() => setDetail(null)} />
    </DashboardLayout>
  );
}
