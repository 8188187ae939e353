// Pieces the field and chain editors share: a numbered card with move up / move down / remove, and a labelled
// checkbox with its error.
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Button } from '../../ui';

export function ItemCard({
  title,
  index,
  count,
  onMove,
  onRemove,
  removeLabel,
  canRemove = true,
  children,
}: {
  title: string;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
  /** 'Remove field 2 (Amount)'. */
  removeLabel: string;
  canRemove?: boolean;
  children: ReactNode;
}) {
  return (
    <li className="rounded-lg border border-gray-200 bg-gray-50/60 p-3 sm:p-4" aria-label={title}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h4 className="min-w-0 truncate text-sm font-semibold text-gray-800">{title}</h4>
        <div className="flex items-center gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move ${title} up`}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
            icon={<ArrowUp className="h-4 w-4" aria-hidden="true" />}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Move ${title} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
            icon={<ArrowDown className="h-4 w-4" aria-hidden="true" />}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={removeLabel}
            disabled={!canRemove}
            title={canRemove ? undefined : 'Requests use this field: it stays'}
            onClick={onRemove}
            icon={<Trash2 className="h-4 w-4 text-red-600" aria-hidden="true" />}
          />
        </div>
      </div>
      {children}
    </li>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  error,
  disabled,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (v: boolean) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="inline-flex min-h-10 items-center gap-2 text-sm text-gray-800">
        <input
          id={id}
          type="checkbox"
          className="h-4 w-4 rounded border-gray-300 text-indigo-600"
          checked={checked}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {label}
      </label>
      {error && (
        <p id={`${id}-error`} className="text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** The list with the item at `from` moved to `to`. */
export function moved<T>(list: T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
