// User menu of the dashboard header: name, role and employee ID, plus the profile details from
// GET /api/forms/employee-profile/{employee_code}, in a popover that closes on Escape or an outside click.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, KeyRound, UserRound } from 'lucide-react';
import { ChangePasswordForm } from '../accounts/ChangePasswordForm';
import { api } from '../api/client';
import { displayName, type EmployeeProfile, type User } from '../api/types';
import { formatDate } from '../format';
import { Dialog, Spinner, useToast } from '../ui';

export function initialsOf(name: string): string {
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1][0] ?? '') : '')).toUpperCase() || '?';
}

export function useEmployeeProfile(employeeCode: string | null | undefined, enabled = true) {
  return useQuery({
    queryKey: ['employee-profile', employeeCode],
    queryFn: () => api.get<EmployeeProfile>(`/api/forms/employee-profile/${encodeURIComponent(employeeCode ?? '')}`),
    enabled: enabled && Boolean(employeeCode),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

export function UserMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const [changing, setChanging] = useState(false);
  const toast = useToast();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const name = displayName(user);
  const employeeCode = user.profile?.employee_code ?? null;

  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: PointerEvent) {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  return (
    <div
      ref={rootRef}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          buttonRef.current?.focus();
        }
      }}
      onBlur={(e) => {
        if (open && !rootRef.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`User menu: ${name}`}
        onClick={() => setOpen((v) => !v)}
        className="flex items-center gap-2 rounded-md p-1 text-sm text-gray-700 hover:bg-gray-100"
      >
        <span
          className="flex h-8 w-8 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700"
          aria-hidden="true"
        >
          {initialsOf(name)}
        </span>
        <span className="hidden max-w-[10rem] truncate font-medium md:inline">{name}</span>
        <ChevronDown className="hidden h-4 w-4 text-gray-500 md:inline" aria-hidden="true" />
      </button>

      {open && (
        <div
          id={panelId}
          role="region"
          aria-label="Your profile"
          className="animate-pop-in absolute right-0 z-40 mt-2 w-[min(20rem,calc(100vw-2rem))] rounded-lg border border-gray-200 bg-white shadow-lg"
        >
          <div className="flex items-center gap-3 border-b border-gray-200 p-4">
            <span
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-sm font-semibold text-indigo-700"
              aria-hidden="true"
            >
              {initialsOf(name)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-gray-900">{name}</p>
              <p className="truncate text-sm text-gray-600">{user.role}</p>
              {employeeCode && <p className="text-xs text-gray-500">ID: {employeeCode}</p>}
            </div>
          </div>
          <ProfileDetails employeeCode={employeeCode} />
          <div className="border-t border-gray-200 p-2">
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                setChanging(true);
              }}
              className="flex w-full items-center gap-2 rounded-md px-2 py-2 text-left text-sm font-medium text-gray-700 hover:bg-gray-100"
            >
              <KeyRound className="h-4 w-4 text-gray-500" aria-hidden="true" />
              Change password
            </button>
          </div>
        </div>
      )}
      <Dialog
        open={changing}
        onClose={() => setChanging(false)}
        title="Change password"
        description="Your other sign-ins end when the password changes; this one stays signed in."
        closeOnBackdrop={false}
      >
        <ChangePasswordForm
          user={user}
          onCancel={() => setChanging(false)}
          onDone={() => {
            setChanging(false);
            toast.success('Your password has been changed. Your other sessions have been signed out.');
          }}
        />
      </Dialog>
    </div>
  );
}

function ProfileDetails({ employeeCode }: { employeeCode: string | null }) {
  const profile = useEmployeeProfile(employeeCode);

  if (profile.isPending && employeeCode) {
    return (
      <div className="flex items-center gap-2 p-4 text-sm text-gray-600">
        <Spinner size="sm" /> Loading profile…
      </div>
    );
  }
  if (!profile.data) {
    return (
      <div className="flex items-start gap-2 p-4 text-sm">
        <UserRound className="mt-0.5 h-4 w-4 text-gray-400" aria-hidden="true" />
        <div>
          <p className="font-medium text-gray-800">Profile data not available</p>
          <p className="text-gray-600">Please check your connection</p>
        </div>
      </div>
    );
  }

  const p = profile.data;
  // A line break opportunity after '@' keeps long addresses readable in the narrow panel.
  const email = p.email ? (
    <>
      {p.email.split('@')[0]}@<wbr />
      {p.email.split('@').slice(1).join('@')}
    </>
  ) : (
    '—'
  );
  const rows: [string, ReactNode][] = [
    ['Email', email],
    ['Department', p.department_name || '—'],
    ['Manager', p.manager_name || '—'],
    ['HR Contact', p.hr_contact_name || '—'],
    ['Join Date', formatDate(p.join_date, '—')],
  ];
  return (
    <dl className="space-y-2 p-4 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-[6.5rem_minmax(0,1fr)] gap-2">
          <dt className="text-gray-500">{label}</dt>
          <dd className="break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
