// Card surfaces: a white box with modest radius and shadow, an optional header row, and summary stat tiles.
import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={cn('rounded-lg border border-gray-200 bg-white shadow-sm', className)} {...rest} />;
}

export interface CardHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Buttons on the right (e.g. Refresh). */
  actions?: ReactNode;
  /** Heading level of the title; default 2. */
  level?: 2 | 3;
  id?: string;
}

export function CardHeader({ title, description, actions, level = 2, id }: CardHeaderProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-gray-200 px-4 py-3 sm:px-5">
      <div className="min-w-0">
        <Heading id={id} className="text-base font-semibold text-gray-900">
          {title}
        </Heading>
        {description && <p className="mt-0.5 text-sm text-gray-600">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export interface StatTileProps {
  label: ReactNode;
  value: ReactNode;
  /** Status tiles take the status colour on their value (Pending amber, Approved green, Rejected red). */
  tone?: 'neutral' | 'success' | 'danger' | 'warning';
  icon?: ReactNode;
}

const valueTones = {
  neutral: 'text-gray-900',
  success: 'text-green-700',
  danger: 'text-red-700',
  warning: 'text-amber-700',
} as const;

export function StatTile({ label, value, tone = 'neutral', icon }: StatTileProps) {
  return (
    // On a phone a tile is one line (label, then the number), so the dashboard's list starts on the first screen.
    <div
      className="rounded-lg border border-gray-200 bg-white p-4 shadow-sm max-sm:flex max-sm:items-center max-sm:justify-between max-sm:gap-2 max-sm:px-3 max-sm:py-2"
      data-testid="stat-tile"
    >
      <div className="flex min-w-0 items-center justify-between gap-2 text-sm font-medium text-gray-600">
        <span data-testid="stat-label">{label}</span>
        {icon && (
          <span aria-hidden="true" className="text-gray-400">
            {icon}
          </span>
        )}
      </div>
      <p className={cn('mt-1 text-2xl font-semibold tabular-nums max-sm:mt-0 max-sm:text-xl', valueTones[tone])} data-testid="stat-value">
        {value}
      </p>
    </div>
  );
}
