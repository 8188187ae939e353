// Badges: neutral/accent labels, and status badges in the spec's status colours (green, red, amber) only.
import type { ReactNode } from 'react';
import { cn } from './cn';

export type BadgeTone = 'neutral' | 'accent' | 'success' | 'danger' | 'warning';

const tones: Record<BadgeTone, string> = {
  neutral: 'bg-gray-100 text-gray-700 ring-gray-500/20',
  accent: 'bg-indigo-50 text-indigo-700 ring-indigo-600/20',
  success: 'bg-green-50 text-green-800 ring-green-600/25',
  danger: 'bg-red-50 text-red-800 ring-red-600/25',
  warning: 'bg-amber-50 text-amber-800 ring-amber-600/30',
};

export interface BadgeProps {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
  icon?: ReactNode;
  /** The text may take two lines (a long state in a tight table); otherwise it stays on one. */
  wrap?: boolean;
}

export function Badge({ tone = 'neutral', children, className, icon, wrap = false }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        wrap ? 'whitespace-normal' : 'whitespace-nowrap',
        tones[tone],
        className,
      )}
    >
      {icon}
      {children}
    </span>
  );
}

/** Status badge colour: green for Approved, Updated, Closed, Completed; red for Rejected; amber otherwise. */
export function statusBadgeTone(status: string | null | undefined): BadgeTone {
  const s = (status ?? '').trim().toLowerCase();
  if (['approved', 'updated', 'closed', 'completed'].includes(s)) return 'success';
  if (s === 'rejected') return 'danger';
  return 'warning';
}

export interface StatusBadgeProps {
  /** The raw status; a missing status shows 'Pending'. */
  status: string | null | undefined;
  /** Overrides the colour derived from the status (e.g. for chain steps with their own rule). */
  tone?: BadgeTone;
  className?: string;
}

export function StatusBadge({ status, tone, className }: StatusBadgeProps) {
  const text = status && status.trim() !== '' ? status : 'Pending';
  return (
    <Badge tone={tone ?? statusBadgeTone(text)} className={className}>
      {text}
    </Badge>
  );
}
