// Table parts: a scroll container (horizontal scroll on phones, sticky header when it scrolls vertically) and cells.
import type { HTMLAttributes, ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './cn';

export interface TableProps extends HTMLAttributes<HTMLTableElement> {
  /** Accessible name of the table (rendered as a visually hidden caption unless captionVisible). */
  caption: ReactNode;
  captionVisible?: boolean;
  /** Max height of the scroll area, so the header can stick; any CSS length. Default 70vh. */
  maxHeight?: string;
  children: ReactNode;
}

export function Table({ caption, captionVisible = false, maxHeight = '70vh', className, children, ...rest }: TableProps) {
  return (
    <div
      className="overflow-auto rounded-lg border border-gray-200 bg-white shadow-sm"
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
const alignClass: Record<Align, string> = { left: 'text-left', right: 'text-right', center: 'text-center' };

export function Th({
  align = 'left',
  className,
  scope = 'col',
  ...rest
}: ThHTMLAttributes<HTMLTableCellElement> & { align?: Align }) {
  return (
    <th
      scope={scope}
      className={cn(
        'border-b border-gray-200 px-4 py-2.5 text-xs font-semibold tracking-wide whitespace-nowrap text-gray-600 uppercase',
        alignClass[align],
        className,
      )}
      {...rest}
    />
  );
}

export function Td({ align = 'left', className, ...rest }: TdHTMLAttributes<HTMLTableCellElement> & { align?: Align }) {
  return (
    <td
      className={cn(
        'border-b border-gray-100 px-4 py-3 align-middle text-gray-800',
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
