// The form calendar popover: month navigation, Monday-first weeks, Saturday
// and Sunday as weekend, at most 2 dots per day plus an overflow marker, a day detail list ('No events on this
// date'), a legend; only the signed-in user's own forms (by their dates) plus holidays.
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import {
  type CalendarEvent,
  type DayCell,
  WEEKDAYS,
  formEvents,
  holidayEvents,
  monthGrid,
  moveDay,
  shiftMonth,
} from '../../domain/calendar-grid';
import { formatDate } from '../format';
import { useBusinessTimeZone } from '../auth/demo-mode';
import { businessToday } from '../../domain/business-time';
import { HeaderPopover } from '../notifications/HeaderPopover';
import { Spinner, cn } from '../ui';
import { useHolidays, useOwnForms } from './api';

/** Dot colour per event (holidays by their type). */
export function dotClass(e: Pick<CalendarEvent, 'kind' | 'holidayType'>): string {
  if (e.kind === 'holiday')
    return e.holidayType === 'national' ? 'bg-orange-500' : e.holidayType === 'festival' ? 'bg-fuchsia-500' : 'bg-sky-500';
  return { leave: 'bg-indigo-600', travel: 'bg-teal-500', booking: 'bg-amber-500', submission: 'bg-gray-400' }[e.kind] ?? 'bg-gray-400';
}

const LEGEND: Array<{ label: string; e: Pick<CalendarEvent, 'kind' | 'holidayType'> }> = [
  { label: 'National holiday', e: { kind: 'holiday', holidayType: 'national' } },
  { label: 'Festival', e: { kind: 'holiday', holidayType: 'festival' } },
  { label: 'Public holiday', e: { kind: 'holiday', holidayType: 'public' } },
  { label: 'Leave / training', e: { kind: 'leave' } },
  { label: 'Travel', e: { kind: 'travel' } },
  { label: 'Booking', e: { kind: 'booking' } },
  { label: 'Submitted', e: { kind: 'submission' } },
];

const monthTitle = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export function FormCalendar({ employeeCode }: { employeeCode: string }) {
  // Today is the organisation's calendar day (the server's zone), as the server counts it.
  const zone = useBusinessTimeZone();
  const today = businessToday(new Date(), zone);
  const [view, setView] = useState(() => ({ year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) - 1 }));
  const [selected, setSelected] = useState<string>(today);
  const holidays = useHolidays(view.year);
  const forms = useOwnForms(employeeCode);

  const events = useMemo(
    () => [...holidayEvents(holidays.data?.holidays), ...formEvents(forms.data, employeeCode)],
    [holidays.data, forms.data, employeeCode],
  );
  const weeks = useMemo(() => monthGrid(view.year, view.month, events, today), [view, events, today]);
  const selectedEvents = useMemo(
    () => weeks.flat().find((c) => c.date === selected)?.events ?? events.filter((e) => e.date === selected),
    [weeks, events, selected],
  );
  const loading = holidays.isPending || forms.isPending;

  function go(by: number) {
    setView((v) => shiftMonth(v.year, v.month, by));
  }

  // Keyboard as a date grid: one day button is in the Tab order (the selected one, else the first of the month);
  // arrows move by a day or a week, Home/End to the week's ends, PageUp/PageDown by a month, changing month as needed.
  const gridRef = useRef<HTMLTableElement>(null);
  const [moved, setMoved] = useState(0);
  const cells = weeks.flat();
  const tabDate = cells.some((c) => c.date === selected) ? selected : (cells.find((c) => c.inMonth)?.date ?? '');
  useEffect(() => {
    if (moved === 0) return;
    gridRef.current?.querySelector<HTMLButtonElement>(`button[data-date="${selected}"]`)?.focus();
  }, [moved, selected, weeks]);

  function onGridKeyDown(event: KeyboardEvent<HTMLTableElement>) {
    const from = (event.target as HTMLElement).closest('button')?.dataset.date;
    const next = from ? moveDay(from, event.key) : null;
    if (!next) return;
    event.preventDefault();
    setSelected(next);
    const year = Number(next.slice(0, 4));
    const month = Number(next.slice(5, 7)) - 1;
    if (!cells.some((c) => c.date === next && c.inMonth)) setView({ year, month });
    setMoved((n) => n + 1);
  }

  return (
    <div className="p-3" data-testid="form-calendar">
      <div className="mb-2 flex items-center justify-between gap-2">
        <button
          type="button"
          onClick={() => go(-1)}
          aria-label="Previous month"
          className="rounded-md p-1.5 text-gray-600 hover:bg-gray-100"
        >
          <ChevronLeft className="h-4 w-4" aria-hidden="true" />
        </button>
        <div className="flex items-center gap-2">
          <h2 className="text-sm font-semibold text-gray-900" aria-live="polite" data-testid="calendar-month">
            {monthTitle.format(new Date(Date.UTC(view.year, view.month, 1)))}
          </h2>
          {loading && <Spinner size="sm" />}
        </div>
        <button type="button" onClick={() => go(1)} aria-label="Next month" className="rounded-md p-1.5 text-gray-600 hover:bg-gray-100">
          <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>

      <table
        ref={gridRef}
        role="grid"
        onKeyDown={onGridKeyDown}
        className="w-full table-fixed border-collapse text-center"
        aria-label="Days of the month"
      >
        <thead>
          <tr>
            {WEEKDAYS.map((d, i) => (
              <th key={d} scope="col" className={cn('pb-1 text-[0.6875rem] font-medium', i >= 5 ? 'text-rose-600' : 'text-gray-500')}>
                {d}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0].date}>
              {week.map((cell) => (
                <td key={cell.date} role="gridcell" aria-selected={cell.date === selected} className="p-0.5">
                  <DayButton
                    cell={cell}
                    selected={cell.date === selected}
                    tabbable={cell.date === tabDate}
                    onSelect={() => setSelected(cell.date)}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>

      <div className="mt-3 border-t border-gray-200 pt-3" data-testid="calendar-day-details">
        <h3 className="mb-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">{formatDate(selected)}</h3>
        {selectedEvents.length === 0 ? (
          <p className="text-sm text-gray-500">No events on this date</p>
        ) : (
          <ul className="max-h-40 space-y-1.5 overflow-y-auto">
            {selectedEvents.map((e, i) => (
              <li key={`${e.kind}-${e.formId ?? e.title}-${i}`} className="flex items-start gap-2 text-sm">
                <span className={cn('mt-1.5 h-2 w-2 shrink-0 rounded-full', dotClass(e))} aria-hidden="true" />
                <span className="min-w-0">
                  <span className="text-gray-900">{e.title}</span>
                  {e.kind === 'holiday' && <span className="ml-1 text-xs text-gray-500 capitalize">({e.holidayType} holiday)</span>}
                  {e.detail && (
                    <span className="block text-xs text-gray-500">
                      {e.detail}
                      {e.status ? ` · ${e.status}` : ''}
                    </span>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>

      <ul className="mt-3 flex flex-wrap gap-x-3 gap-y-1 border-t border-gray-200 pt-2" aria-label="Legend">
        {LEGEND.map((l) => (
          <li key={l.label} className="flex items-center gap-1 text-[0.6875rem] text-gray-600">
            <span className={cn('h-2 w-2 rounded-full', dotClass(l.e))} aria-hidden="true" />
            {l.label}
          </li>
        ))}
      </ul>
    </div>
  );
}

function DayButton({ cell, selected, tabbable, onSelect }: { cell: DayCell; selected: boolean; tabbable: boolean; onSelect: () => void }) {
  const names = cell.events.map((e) => e.title).join(', ');
  return (
    <button
      type="button"
      onClick={onSelect}
      tabIndex={tabbable ? 0 : -1}
      aria-label={`${formatDate(cell.date)}${cell.events.length ? `: ${names}` : ''}`}
      data-date={cell.date}
      className={cn(
        'flex h-11 w-full flex-col items-center justify-start rounded-md pt-1 text-xs transition-colors',
        selected
          ? 'bg-indigo-100 font-semibold text-indigo-900 ring-2 ring-indigo-600'
          : cn(
              'hover:bg-gray-100',
              !cell.inMonth ? 'text-gray-500' : cell.weekend ? 'bg-rose-50/70 text-rose-700' : 'text-gray-900',
              cell.today && 'font-bold ring-1 ring-indigo-400',
            ),
      )}
    >
      <span>{cell.day}</span>
      <span className="mt-1 flex h-2 items-center gap-0.5" data-testid="day-dots">
        {cell.dots.map((e, i) => (
          <span key={i} className={cn('h-1.5 w-1.5 rounded-full', dotClass(e))} />
        ))}
        {cell.overflow > 0 && <span className="text-[0.625rem] leading-none text-gray-600">+{cell.overflow}</span>}
      </span>
    </button>
  );
}

export function CalendarPopover({ employeeCode }: { employeeCode: string }) {
  return (
    <HeaderPopover
      label="Form calendar"
      panelLabel="Form calendar"
      testId="calendar-button"
      panelClassName="sm:w-[22rem]"
      button={<CalendarDays className="h-5 w-5" aria-hidden="true" />}
    >
      {() => <FormCalendar employeeCode={employeeCode} />}
    </HeaderPopover>
  );
}
