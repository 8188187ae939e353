// The 'Forms & Requests' catalogue: count, search (title, description, keywords; it overrides
// the category), category and sort dropdowns, grid/list toggle, priority legend, cards, 'No Forms Found'.
import { useMemo, useState } from 'react';
import { CheckCircle2, Clock, Flag, LayoutGrid, List, Search, ShieldCheck, X } from 'lucide-react';
import {
  catalogueEntries,
  CATALOGUE_CATEGORIES,
  type CatalogueEntry,
  type CatalogueSort,
  type Priority,
  filterCatalogue,
  sortCatalogue,
} from '../../domain/catalogue';
import { Badge, Button, Card, EmptyState, Input, Select, cn } from '../ui';
import { FormIcon } from './FormIcon';
import { useFormTypesSync } from './form-types-sync';

export interface CatalogueProps {
  /** Opens the submit form of an active entry. */
  onOpen: (entry: CatalogueEntry) => void;
  onClose: () => void;
  initialView?: 'grid' | 'list';
}

const PRIORITY_STYLE: Record<Priority, { label: string; className: string }> = {
  high: { label: 'High priority', className: 'text-fuchsia-700' },
  medium: { label: 'Medium priority', className: 'text-sky-700' },
  low: { label: 'Low priority', className: 'text-slate-500' },
};

const SORT_LABELS: Record<CatalogueSort, string> = { name: 'Name', category: 'Category', priority: 'Priority' };

function PriorityFlag({ priority }: { priority: Priority }) {
  const p = PRIORITY_STYLE[priority];
  return (
    <span className={cn('inline-flex items-center gap-1 text-xs font-medium', p.className)} title={p.label}>
      <Flag className="h-3.5 w-3.5" aria-hidden="true" />
      <span>{priority[0].toUpperCase() + priority.slice(1)}</span>
    </span>
  );
}

function StatusMark({ entry }: { entry: CatalogueEntry }) {
  return entry.status === 'active' ? (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-green-700">
      <CheckCircle2 className="h-3.5 w-3.5" aria-hidden="true" /> Available
    </span>
  ) : (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-gray-500">
      <Clock className="h-3.5 w-3.5" aria-hidden="true" /> Coming soon
    </span>
  );
}

function EntryCard({ entry, layout, onOpen }: { entry: CatalogueEntry; layout: 'grid' | 'list'; onOpen: () => void }) {
  const active = entry.status === 'active';
  const n = entry.approvalChain.length;
  const body = (
    <>
      <div className={cn('flex gap-3', layout === 'grid' ? 'items-start justify-between' : 'items-center')}>
        <span className={cn('flex h-10 w-10 shrink-0 items-center justify-center rounded-lg', entry.bgColor, entry.color)}>
          <FormIcon name={entry.icon} />
        </span>
        {layout === 'grid' && (
          <span className="flex flex-col items-end gap-1">
            <PriorityFlag priority={entry.priority} />
            <StatusMark entry={entry} />
          </span>
        )}
        {layout === 'list' && (
          <span className="min-w-0 flex-1">
            <span className="block font-semibold text-gray-900">{entry.title}</span>
            <span className="block truncate text-sm text-gray-600">{entry.description}</span>
          </span>
        )}
      </div>
      {layout === 'grid' && (
        <div className="mt-3 min-w-0">
          <h3 className="font-semibold text-gray-900">{entry.title}</h3>
          <p className="mt-1 text-sm text-gray-600">{entry.description}</p>
        </div>
      )}
      <dl
        className={cn('flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600', layout === 'grid' ? 'mt-4' : 'mt-2 sm:mt-0 sm:justify-end')}
      >
        {layout === 'list' && (
          <>
            <div>
              <dt className="sr-only">Priority</dt>
              <dd>
                <PriorityFlag priority={entry.priority} />
              </dd>
            </div>
            <div>
              <dt className="sr-only">Status</dt>
              <dd>
                <StatusMark entry={entry} />
              </dd>
            </div>
          </>
        )}
        <div className="flex items-center gap-1">
          <dt>
            <Clock className="h-3.5 w-3.5" aria-label="Estimated time" />
          </dt>
          <dd>{entry.estimatedTime}</dd>
        </div>
        <div className="flex items-center gap-1">
          <dt className="sr-only">Category</dt>
          <dd>
            <Badge>{entry.category}</Badge>
          </dd>
        </div>
        <div className="flex items-center gap-1">
          <dt>
            <ShieldCheck className="h-3.5 w-3.5" aria-label="Approvals" />
          </dt>
          <dd>
            {n} approval{n === 1 ? '' : 's'} required: <span data-testid="approval-chain">{entry.approvalChain.join(' → ')}</span>
          </dd>
        </div>
        <div>
          <dt className="sr-only">Form ID</dt>
          <dd className="font-mono text-gray-500">{entry.id}</dd>
        </div>
      </dl>
    </>
  );
  const base = cn(
    'block h-full w-full rounded-lg border bg-white p-4 text-left shadow-sm transition-shadow',
    layout === 'list' && 'sm:flex sm:items-center sm:justify-between sm:gap-4',
  );
  return active ? (
    <button
      type="button"
      onClick={onOpen}
      className={cn(base, 'border-gray-200 hover:border-indigo-300 hover:shadow-md')}
      aria-label={`${entry.title}: open the form`}
    >
      {body}
    </button>
  ) : (
    <div
      className={cn(base, 'border-dashed border-gray-200 opacity-75')}
      aria-disabled="true"
      aria-label={`${entry.title}: coming soon`}
      role="group"
    >
      {body}
    </div>
  );
}

export function Catalogue({ onOpen, onClose, initialView = 'grid' }: CatalogueProps) {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>('All Forms');
  const [sort, setSort] = useState<CatalogueSort>('priority');
  const [view, setView] = useState<'grid' | 'list'>(initialView);

  // The registry as the server has it now (types as data): recomputed when the server's answer changes.
  const { revision } = useFormTypesSync();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the registry changed when the revision did
  const entries = useMemo(() => catalogueEntries(), [revision]);
  const shown = useMemo(() => sortCatalogue(filterCatalogue(entries, search, category), sort), [entries, search, category, sort]);
  const available = entries.filter((e) => e.status === 'active').length;

  return (
    <Card aria-labelledby="catalogue-heading" data-testid="catalogue">
      <div className="flex flex-wrap items-start justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
        <div>
          <h2 id="catalogue-heading" className="text-lg font-semibold text-gray-900">
            Forms &amp; Requests
          </h2>
          <p className="text-sm text-gray-600">
            <span data-testid="catalogue-count">{available} forms available</span>
            <span className="text-gray-400"> · </span>
            showing {shown.length} of {entries.length}
          </p>
        </div>
        <Button variant="secondary" size="sm" onClick={onClose} icon={<X className="h-4 w-4" aria-hidden="true" />}>
          Close
        </Button>
      </div>

      <div className="flex flex-wrap items-end gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
        <div className="relative min-w-[14rem] flex-1">
          <Input
            label="Search forms"
            type="search"
            placeholder="Search by title, description or keyword"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="pl-9"
          />
          <Search className="pointer-events-none absolute bottom-3 left-3 h-4 w-4 text-gray-400" aria-hidden="true" />
        </div>
        <Select
          label="Category"
          value={category}
          onChange={(e) => setCategory(e.target.value)}
          wrapperClassName="w-52"
          disabled={search.trim() !== ''}
          hint={search.trim() !== '' ? 'Search covers every category' : undefined}
        >
          {CATALOGUE_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </Select>
        <Select label="Sort by" value={sort} onChange={(e) => setSort(e.target.value as CatalogueSort)} wrapperClassName="w-40">
          {(Object.keys(SORT_LABELS) as CatalogueSort[]).map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </Select>
        <div role="group" aria-label="Layout" className="flex rounded-md shadow-sm ring-1 ring-gray-300 ring-inset">
          {(['grid', 'list'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              aria-label={v === 'grid' ? 'Grid view' : 'List view'}
              onClick={() => setView(v)}
              className={cn(
                'flex h-10 w-10 items-center justify-center first:rounded-l-md last:rounded-r-md',
                view === v ? 'bg-indigo-600 text-white' : 'bg-white text-gray-600 hover:bg-gray-50',
              )}
            >
              {v === 'grid' ? <LayoutGrid className="h-4 w-4" aria-hidden="true" /> : <List className="h-4 w-4" aria-hidden="true" />}
            </button>
          ))}
        </div>
      </div>

      <div className="flex flex-wrap items-center gap-4 px-4 pt-3 text-xs text-gray-600 sm:px-5" aria-label="Priority legend">
        <span className="font-medium text-gray-700">Priority:</span>
        {(['high', 'medium', 'low'] as Priority[]).map((p) => (
          <PriorityFlag key={p} priority={p} />
        ))}
      </div>

      <div className="p-4 sm:p-5">
        {shown.length === 0 ? (
          <EmptyState
            title="No Forms Found"
            description="Try adjusting your search or filter criteria."
            icon={<Search className="h-6 w-6" />}
          />
        ) : (
          <div className="space-y-6">
            {(
              [
                ['active', 'Available now'],
                ['coming-soon', 'Coming soon'],
              ] as const
            ).map(([status, heading]) => {
              const group = shown.filter((e) => e.status === status);
              if (group.length === 0) return null;
              return (
                <section key={status} aria-labelledby={`catalogue-${status}`}>
                  <h3 id={`catalogue-${status}`} className="mb-3 text-sm font-semibold text-gray-700">
                    {heading} <span className="font-normal text-gray-500">({group.length})</span>
                  </h3>
                  <ul className={cn(view === 'grid' ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3' : 'space-y-3')}>
                    {group.map((e) => (
                      <li key={e.id} className="h-full">
                        <EntryCard entry={e} layout={view} onOpen={() => onOpen(e)} />
                      </li>
                    ))}
                  </ul>
                </section>
              );
            })}
          </div>
        )}
      </div>
    </Card>
  );
}
