// Table parts: a size container around the table and its cells. Columns drop by the table's own width (the
// `@4xl:table-cell` style classes of the cells), and a table with `cards` turns into one card per row when its box is
// narrow (phones, a small window): each cell becomes a labelled line and the actions cell the card's last line, so a
// row's actions are always on screen without scrolling sideways. The page scrolls, not the table, unless maxHeight is set.
import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './cn';

export interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Accessible name of the table (rendered as a visually hidden caption unless captionVisible). */
  caption: ReactNode;
  captionVisible?: boolean;
  /** Max height of the table's own scroll area (its header then sticks); any CSS length. Default none: the page scrolls. */
  maxHeight?: string;
  /** Rows become cards when the table's box is narrower than 44rem (give each cell its `label`, the actions cell `actions`). */
  cards?: boolean;
  children: ReactNode;
}

export function Table({ caption, captionVisible = false, maxHeight = 'none', cards = false, className, children, ...rest }: TableProps) {
  return (
    <div className={cn('table-host', cards && 'table-cards')}>
      <div
        className="table-box overflow-auto rounded-lg border border-gray-200 bg-white shadow-sm"
        style={{ maxHeight }}
        // Scrollable regions must be reachable by keyboard.
        tabIndex={0}
        role="region"
        aria-label={typeof caption === 'string' ? caption : undefined}
      >
        <table className={cn('min-w-full border-separate border-spacing-0 text-left text-sm', className)} {...rest}>
          <caption className={cn(captionVisible ? 'px-4 py-3 text-left text-sm font-semibold text-gray-900' : 'sr-only')}>
            {caption}
          </caption>
          {children}
        </table>
      </div>
    </div>
  );
}

export function THead({ children }: { children: ReactNode }) {
  return <thead className="sticky top-0 z-10 bg-gray-50">{children}</thead>;
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-gray-100">{children}</tbody>;
}

export function Tr({ className, ...rest }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('hover:bg-gray-50/70', className)} {...rest} />;
}

type Align = 'left' | 'right' | 'center';

/**
 * A secondary column's priority: the table width (container size) from which it is shown. Narrower tables drop
 * it (the lowest priority first); a row shown as a card lists it again.
 */
export type ShowFrom = '2xl' | '3xl' | '4xl' | '5xl' | '6xl';
const showFromClass: Record<ShowFrom, string> = {
  '2xl': 'hidden @2xl:table-cell',
  '3xl': 'hidden @3xl:table-cell',
  '4xl': 'hidden @4xl:table-cell',
  '5xl': 'hidden @5xl:table-cell',
  '6xl': 'hidden @6xl:table-cell',
};
const alignClass: Record<Align, string> = { left: 'text-left', right: 'text-right', center: 'text-center' };

export function Th({
  align = 'left',
  className,
  scope = 'col',
  showFrom,
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { align?: Align; showFrom?: ShowFrom }) {
  return (
    <th
      scope={scope}
      className={cn(
        showFrom && showFromClass[showFrom],
        'border-b border-gray-200 px-3 py-2.5 text-xs font-semibold tracking-wide text-gray-600 uppercase',
        alignClass[align],
        className,
      )}
      {...rest}
    />
  );
}

export interface TdProps extends TdHTMLAttributes<HTMLTableCellElement> {
  align?: Align;
  /** The column's name, shown before the value when the row is a card. */
  label?: string;
  /** The row's actions: the card's last line, full width. */
  actions?: boolean;
  /** A secondary column: shown from this table width on (and on cards). */
  showFrom?: ShowFrom;
}

export function Td({ align = 'left', className, label, actions = false, showFrom, ...rest }: TdProps) {
  return (
    <td
      data-label={label}
      data-cell={actions ? 'actions' : undefined}
      className={cn(
        showFrom && `${showFromClass[showFrom]} card-cell`,
        'border-b border-gray-100 px-3 py-3 align-middle text-gray-800',
        // Words wrap where they must; free-text columns (details, purpose) also break long words (`anywhere`).
        !actions && 'break-words',
        align === 'right' && 'tabular-nums',
        alignClass[align],
        className,
      )}
      {...rest}
    />
  );
}

/** A full-width row for 'No items found' and loading messages. */
export function TableMessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-gray-500">
        {children}
      </td>
    </tr>
  );
}
