// The lucide icon of a form type or catalogue entry, by the icon name the form engine stores.
import {
  Building2, Bus, CalendarDays, Car, DoorOpen, FileLock, FileSignature, FileText, GraduationCap, HeartPulse, KeyRound, Laptop,
  LockKeyhole, LogOut, MonitorX, Plane, Receipt, ShoppingCart, Ticket, TriangleAlert, UserPen, UserPlus, Wallet, Wrench,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '../ui';

const ICONS: Record<string, LucideIcon> = {
  Building2, Bus, CalendarDays, Car, DoorOpen, FileLock, FileSignature, FileText, GraduationCap, HeartPulse, KeyRound, Laptop,
  LockKeyhole, LogOut, MonitorX, Plane, Receipt, ShoppingCart, Ticket, TriangleAlert, UserPen, UserPlus, Wallet, Wrench,
};

export function FormIcon({ name, className }: { name: string; className?: string }) {
  const Icon = ICONS[name] ?? FileText;
  return <Icon className={cn('h-5 w-5', className)} aria-hidden="true" />;
}
