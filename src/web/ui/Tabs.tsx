// Tabs (role=tablist with arrow-key navigation) and filter Chips (toggle buttons with counts).
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn';

export interface TabItem<K extends string = string> {
  id: K;
  label: ReactNode;
  count?: number;
}

export interface TabsProps<K extends string> {
  items: readonly TabItem<K>[];
  value: K;
  onChange: (id: K) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** Prefix for the ids of tabs; panels use `${idPrefix}-panel-${id}` and should set aria-labelledby `${idPrefix}-tab-${id}`. */
  idPrefix: string;
  className?: string;
}

export function Tabs<K extends string>({ items, value, onChange, label, idPrefix, className }: TabsProps<K>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onChange(items[next].id);
    refs.current[next]?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className={cn('flex gap-1 overflow-x-auto border-b border-gray-200', className)}>
      {items.map((item, index) => {
        const selected = item.id === value;
        return (
          <button
            key={item.id}
            ref={(el) => {
              refs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${item.id}`}
            aria-selected={selected}
            aria-controls={`${idPrefix}-panel-${item.id}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.id)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              '-mb-px inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
              selected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-gray-600 hover:text-gray-900',
            )}
          >
            {item.label}
            {item.count !== undefined && <Count value={item.count} selected={selected} />}
          </button>
        );
      })}
    </div>
  );
}

function Count({ value, selected }: { value: number; selected: boolean }) {
  return (
    <span
      className={cn('rounded-full px-1.5 text-xs tabular-nums', selected ? 'bg-indigo-100 text-indigo-700' : 'bg-gray-100 text-gray-600')}
    >
      {value}
    </span>
  );
}

export interface ChipsProps<K extends string> {
  items: readonly TabItem<K>[];
  value: K;
  onChange: (id: K) => void;
  /** Accessible name of the group, e.g. 'Form type'. */
  label: string;
  className?: string;
}

/** A single-choice row of filter chips; each chip is a toggle button (aria-pressed). */
export function Chips<K extends string>({ items, value, onChange, label, className }: ChipsProps<K>) {
  return (
    // On a phone the chips are one row that scrolls sideways (wrapped, a dozen types pushed the list off the first screen).
    <div
      role="group"
      aria-label={label}
      className={cn(
        'flex flex-wrap gap-2 max-sm:flex-nowrap max-sm:overflow-x-auto max-sm:pb-1 max-sm:[&>button]:shrink-0 max-sm:[&>button]:whitespace-nowrap',
        className,
      )}
    >
      {items.map((item) => {
        const selected = item.id === value;
        return (
          <button
            key={item.id}
            type="button"
            aria-pressed={selected}
            onClick={() => onChange(item.id)}
            className={cn(
              'inline-flex h-8 items-center gap-1.5 rounded-full px-3 text-sm font-medium ring-1 ring-inset transition-colors',
              selected
                ? 'bg-indigo-600 text-white ring-indigo-600 hover:bg-indigo-700'
                : 'bg-white text-gray-700 ring-gray-300 hover:bg-gray-50',
            )}
          >
            {item.label}
            {item.count !== undefined && (
              <span
                className={cn(
                  'rounded-full px-1.5 text-xs tabular-nums',
                  selected ? 'bg-white text-indigo-700' : 'bg-gray-100 text-gray-600',
                )}
              >
                {item.count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
