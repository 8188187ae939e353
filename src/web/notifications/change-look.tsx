// The look of each change type (approved, rejected, pending, completed and in_progress have their own; every
// other type the default): icon, colours and a short label.
import type { ReactNode } from 'react';
import { Bell, CheckCheck, CheckCircle2, Clock, RefreshCw, XCircle } from 'lucide-react';
import type { ChangeType } from '../../domain/notifications';

export interface ChangeLook {
  label: string;
  icon: ReactNode;
  /** Card: border and background. */
  card: string;
  /** Icon tile. */
  iconTile: string;
}

const icon = 'h-4 w-4';

const LOOKS: Record<ChangeType, ChangeLook> = {
  approved: {
    label: 'Approved',
    icon: <CheckCircle2 className={icon} aria-hidden="true" />,
    card: 'border-green-200 bg-green-50/60',
    iconTile: 'bg-green-100 text-green-700',
  },
  rejected: {
    label: 'Rejected',
    icon: <XCircle className={icon} aria-hidden="true" />,
    card: 'border-red-200 bg-red-50/60',
    iconTile: 'bg-red-100 text-red-700',
  },
  pending: {
    label: 'Pending',
    icon: <Clock className={icon} aria-hidden="true" />,
    card: 'border-amber-200 bg-amber-50/60',
    iconTile: 'bg-amber-100 text-amber-800',
  },
  completed: {
    label: 'Completed',
    icon: <CheckCheck className={icon} aria-hidden="true" />,
    card: 'border-emerald-300 bg-emerald-50/70',
    iconTile: 'bg-emerald-600 text-white',
  },
  in_progress: {
    label: 'In progress',
    icon: <RefreshCw className={icon} aria-hidden="true" />,
    card: 'border-indigo-200 bg-indigo-50/60',
    iconTile: 'bg-indigo-100 text-indigo-700',
  },
  other: {
    label: 'Update',
    icon: <Bell className={icon} aria-hidden="true" />,
    card: 'border-gray-200 bg-white',
    iconTile: 'bg-gray-100 text-gray-600',
  },
};

export function changeLook(type: string | null | undefined): ChangeLook {
  return LOOKS[(type ?? 'other') as ChangeType] ?? LOOKS.other;
}
