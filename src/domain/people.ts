// Organisation rules of issue 18, shared by the server (enforced) and the admin screens (shown before saving):
// who may be someone's line manager or HR contact, the user types, and the columns of a person in CSV and JSON.
import { adminRoleMismatch, chatbotForRole, dashboardForRole, isApproverRole, sessionFamilyForRole } from './roles.js';

/** The user types the application tells apart (each picks a dashboard and, for approvers, a stage). */
export const USER_TYPES = [
  'employee',
  'line_manager',
  'hr_staff',
  'finance_staff',
  'it_staff',
  'facilities_staff',
  'facilities_manager',
  'admin',
] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The person columns of the admin API and of CSV import and export, in this order. */
export const PERSON_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'employee_code',
  'department',
  'role',
  'user_type',
  'manager',
  'hr_contact',
  'join_date',
  'annual_leave_total',
  'active',
] as const;

/**
 * Who may be a line manager: an active person whose role opens an approver dashboard (line manager, HR, finance,
 * IT, facilities desk or manager, by the spec's role rules). Only they see a team's requests and decide them: a
 * person on the employee dashboard would never see what waits on them, and the administrator decides nothing.
 */
export function canManage(role: string | null | undefined, userType: string | null | undefined): boolean {
  const dashboard = dashboardForRole(role, userType);
  return dashboard !== 'employee' && dashboard !== 'admin';
}

/** Who may be an HR contact: someone on the HR dashboard (only there are HR stages decided). */
export function canBeHrContact(role: string | null | undefined, userType: string | null | undefined): boolean {
  return dashboardForRole(role, userType) === 'hr';
}

/** What a role and user type give, for the admin screen to show before saving. */
export function rolePreview(role: string, userType: string) {
  return {
    dashboard: dashboardForRole(role, userType),
    assistant: chatbotForRole(role, userType),
    session_family: sessionFamilyForRole(role, userType),
    approver: isApproverRole(role) || canManage(role, userType),
    can_manage: canManage(role, userType),
    problem: (USER_TYPES as readonly string[]).includes(userType)
      ? adminRoleMismatch(role, userType)
      : `Unknown user type '${userType}'; use one of ${USER_TYPES.join(', ')}`,
  };
}
