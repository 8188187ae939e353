// What every dashboard header gets from the notifications and calendar features: the form calendar popover, the
// notifications bell, the 'Form Approval Updates' dialog and the live-update stream; on the approvers' dashboards
// also the settings button (the employee dashboard places it among its own header actions), so approvers choose
// their e-mails too.
import { useEffect } from 'react';
import type { User } from '../api/types';
import { LOGOUT_EVENT } from '../auth/AuthProvider';
import { CalendarPopover } from '../calendar/CalendarPopover';
import { SettingsButton } from '../employee/SettingsButton';
import { ApprovalUpdatesDialog } from './ApprovalUpdatesDialog';
import { NotificationBell } from './NotificationBell';
import { updatesStore } from './updates-store';
import { useLiveEvents } from './useLiveEvents';

export function HeaderTools({ user, settings = false }: { user: User; settings?: boolean }) {
  useLiveEvents(user.id);
  useEffect(() => {
    const clear = () => updatesStore.clear();
    window.addEventListener(LOGOUT_EVENT, clear);
    return () => window.removeEventListener(LOGOUT_EVENT, clear);
  }, []);
  const employeeCode = user.profile?.employee_code;
  return (
    <>
      {employeeCode && <CalendarPopover employeeCode={employeeCode} />}
      <NotificationBell userId={user.id} />
      <ApprovalUpdatesDialog userId={user.id} />
      {settings && <SettingsButton />}
    </>
  );
}
