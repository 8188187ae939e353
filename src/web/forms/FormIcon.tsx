// The lucide icon of a form type or catalogue entry, by the icon name the form engine stores.
import {
  Building2,
  Bus,
  CalendarDays,
  Car,
  DoorOpen,
  FileLock,
  FileSignature,
  FileText,
  GraduationCap,
  HeartPulse,
  KeyRound,
  Laptop,
  LockKeyhole,
  LogOut,
  MonitorX,
  Plane,
  Receipt,
  ShoppingCart,
  Ticket,
  TriangleAlert,
  UserPen,
  UserPlus,
  Wallet,
  Wrench,
  type LucideIcon,
} from 'lucide-react';

const ICONS: Record<string, LucideIcon> = {
  Building2,
  Bus,
  CalendarDays,
  Car,
  DoorOpen,
  FileLock,
  FileSignature,
  FileText,
  GraduationCap,
  HeartPulse,
  KeyRound,
  Laptop,
  LockKeyhole,
  LogOut,
  MonitorX,
  Plane,
  Receipt,
  ShoppingCart,
  Ticket,
  TriangleAlert,
  UserPen,
  UserPlus,
  Wallet,
  Wrench,
};

/** The icon names a form type may use (the administrator's icon picker offers these). */
export const FORM_ICON_NAMES: readonly string[] = Object.keys(ICONS);

/** The icon at 20 px, or with the caller's classes instead (a size given there replaces the default, not competes with it). */
export function FormIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? FileText;
  return <Icon className={className ?? 'h-5 w-5'} aria-hidden="true" />;
}
