// The administrator's dashboard (issue 18): people, departments, CSV import and export, company holidays, the
// leave policy, sign-in (single sign-on), the form types (issue 20) and the audit log, one tab each (the tab is kept in the address, #people, #audit, ...).
import { useEffect, useState } from 'react';
import { AuditScreen } from '../../admin/AuditScreen';
import { DepartmentsScreen } from '../../admin/DepartmentsScreen';
import { FormTypesScreen } from '../../admin/form-types/FormTypesScreen';
import { ImportScreen } from '../../admin/ImportScreen';
import { PeopleScreen } from '../../admin/PeopleScreen';
import { HolidaysScreen, LeavePolicyScreen } from '../../admin/SettingsScreens';
import { SignInSettingsScreen } from '../../admin/SignInSettingsScreen';
import { DashboardLayout } from '../../shell/DashboardLayout';
import { OverdueScreen } from '../../delegation/OverdueScreen';
import { ReminderSettings } from '../../delegation/ReminderSettings';
import { Tabs } from '../../ui';

const TABS = [
  { id: 'people', label: 'People' },
  { id: 'departments', label: 'Departments' },
  { id: 'import', label: 'Import / Export' },
  { id: 'holidays', label: 'Holidays' },
  { id: 'leave', label: 'Leave policy' },
  { id: 'sign-in', label: 'Sign-in' },
  { id: 'form-types', label: 'Form types' },
  { id: 'overdue', label: 'Overdue' },
  { id: 'audit', label: 'Audit log' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const tabOfHash = (): TabId => {
  const h = window.location.hash.slice(1);
  return TABS.some((t) => t.id === h) ? (h as TabId) : 'people';
};

export function AdminDashboard() {
  const [tab, setTab] = useState<TabId>(tabOfHash);
  useEffect(() => {
    const onHash = () => setTab(tabOfHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  function choose(id: TabId) {
    setTab(id);
    history.replaceState(null, '', `#${id}`);
  }
  return (
    <DashboardLayout dashboard="admin">
      <div className="space-y-4">
        <Tabs items={TABS} value={tab} onChange={choose} label="Administration" idPrefix="admin" />
        <div role="tabpanel" id={`admin-panel-${tab}`} aria-labelledby={`admin-tab-${tab}`}>
          {tab === 'people' && <PeopleScreen />}
          {tab === 'departments' && <DepartmentsScreen />}
          {tab === 'import' && <ImportScreen />}
          {tab === 'holidays' && <HolidaysScreen />}
          {tab === 'leave' && <LeavePolicyScreen />}
          {tab === 'sign-in' && <SignInSettingsScreen />}
          {tab === 'form-types' && <FormTypesScreen />}
          {tab === 'overdue' && (
            <div className="space-y-6">
              <OverdueScreen />
              <ReminderSettings />
            </div>
          )}
          {tab === 'audit' && <AuditScreen />}
        </div>
      </div>
    </DashboardLayout>
  );
}
