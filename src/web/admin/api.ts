// The administrator's API (issue 18): people, departments, deactivation, invitations, CSV import and export, the
// audit log and the company settings. Paths and payloads are the fixed contract.
import { ApiError, api, request } from '../api/client';

/** A person as the admin API answers and takes it (the user record's names). */
export interface AdminPerson {
  email: string;
  first_name: string;
  last_name: string;
  employee_code: string;
  /** A department code. */
  department: string | null;
  role: string;
  user_type: string;
  /** An e-mail or employee code. */
  manager: string | null;
  hr_contact: string | null;
  /** YYYY-MM-DD */
  join_date: string | null;
  annual_leave_total: number;
  active: boolean;
  department_name?: string | null;
  manager_name?: string | null;
  hr_contact_name?: string | null;
}

export type PersonInput = Omit<AdminPerson, 'active'> & { active?: boolean };

export interface Department {
  code: string;
  name: string;
  head_count: number;
}

export interface PeopleFilter {
  q?: string;
  department?: string;
  role?: string;
  active?: '' | 'true' | 'false';
}

export interface PeoplePage {
  people: AdminPerson[];
  total: number;
}

export interface RolePreview {
  dashboard: string;
  assistant: string;
  /** Why the role and user type would be refused, or null. */
  problem: string | null;
  can_manage: boolean;
}

export interface ImportRow {
  line: number;
  action: 'create' | 'update' | 'unchanged' | 'error';
  employee_code: string | null;
  errors: string[];
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: { employee_code: string; email: string; name: string };
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  page_size: number;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  page?: number;
}

export interface Region {
  code: string;
  name: string;
}

export interface CompanyHoliday {
  id: number;
  date: string;
  name: string;
  closed: boolean;
}

export interface HolidaySettings {
  regions: Region[];
  company_holidays: CompanyHoliday[];
}

export interface LeaveOverride {
  employee_code: string;
  name: string;
  department: string | null;
  annual_leave_total: number;
}

export interface LeavePolicy {
  default_annual_leave: number;
  overrides: LeaveOverride[];
}

/** A list answered bare or under a key ({ people: [...] }). */
function listOf<T>(body: unknown, key: string): T[] {
  if (Array.isArray(body)) return body as T[];
  const inner = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  return Array.isArray(inner) ? (inner as T[]) : [];
}

const personPath = (code: string) => `/api/admin/people/${encodeURIComponent(code)}`;

/** Sends a CSV file as it is (text/csv) and answers the per-row results. */
async function postCsv(path: string, csv: string): Promise<{ rows: ImportRow[] }> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv; charset=utf-8' },
    body: csv,
    credentials: 'same-origin',
  });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const msg =
      body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
        ? (body as { error: string }).error
        : `HTTP error! status: ${response.status}`;
    throw new ApiError(response.status, msg, body);
  }
  return { rows: listOf<ImportRow>(body, 'rows') };
}

/** Single sign-on as the server has it: configured by its OIDC_* settings; account creation by the administrator. */
export interface SsoSetting {
  configured: boolean;
  provider_name: string | null;
  auto_create: boolean;
}

export const adminApi = {
  /** The first 200 matching people, and how many match. */
  people: (f: PeopleFilter) =>
    api.get<PeoplePage>('/api/admin/people', {
      query: {
        q: f.q || undefined,
        department: f.department || undefined,
        role: f.role || undefined,
        active: f.active || undefined,
        page_size: 200,
      },
    }),
  rolePreview: (role: string, userType: string) =>
    api.get<RolePreview>('/api/admin/roles/preview', { query: { role, user_type: userType } }),
  person: (code: string) => api.get<AdminPerson>(personPath(code)),
  createPerson: (p: PersonInput) => api.post<AdminPerson>('/api/admin/people', p),
  updatePerson: (code: string, p: Partial<PersonInput>) => request<AdminPerson>(personPath(code), { method: 'PATCH', body: p }),
  deactivate: (code: string, body: { reassign_to: string; pending_requests: 'withdraw' | 'keep' }) =>
    api.post<unknown>(`${personPath(code)}/deactivate`, body),
  invite: (code: string) => api.post<{ invite_url: string }>(`${personPath(code)}/invite`, {}),
  requirePasswordChange: (code: string) => api.post<{ success: true }>(`${personPath(code)}/require-password-change`, {}),
  importDryRun: (csv: string) => postCsv('/api/admin/people/import?dry_run=1', csv),
  importApply: (csv: string) => postCsv('/api/admin/people/import', csv),
  exportUrl: '/api/admin/people/export.csv',

  departments: async () => listOf<Department>(await api.get('/api/admin/departments'), 'departments'),
  createDepartment: (d: { code: string; name: string }) => api.post<Department>('/api/admin/departments', d),
  renameDepartment: (code: string, name: string) =>
    request<Department>(`/api/admin/departments/${encodeURIComponent(code)}`, { method: 'PATCH', body: { name } }),

  audit: (f: AuditFilter) =>
    api.get<AuditPage>('/api/admin/audit', {
      query: {
        actor: f.actor || undefined,
        action: f.action || undefined,
        from: f.from || undefined,
        to: f.to || undefined,
        page: f.page ?? 1,
        page_size: 50,
      },
    }),

  holidays: () => api.get<HolidaySettings>('/api/admin/settings/holidays'),
  regionChoices: (country?: string) => api.get<{ regions: Region[] }>('/api/admin/settings/holiday-regions', { query: { country } }),
  setRegions: (regions: string[]) => api.put<{ regions: Region[] }>('/api/admin/settings/holiday-regions', { regions }),
  addHoliday: (h: Omit<CompanyHoliday, 'id'>) => api.post<CompanyHoliday>('/api/admin/settings/holidays', h),
  updateHoliday: (id: number, h: Omit<CompanyHoliday, 'id'>) => api.put<CompanyHoliday>(`/api/admin/settings/holidays/${id}`, h),
  removeHoliday: (id: number) => api.delete<void>(`/api/admin/settings/holidays/${id}`),
  leavePolicy: () => api.get<LeavePolicy>('/api/admin/settings/leave-policy'),
  ssoSetting: () => api.get<SsoSetting>('/api/admin/settings/sso'),
  setSsoAutoCreate: (autoCreate: boolean) => api.put<SsoSetting>('/api/admin/settings/sso', { auto_create: autoCreate }),
  setDefaultLeave: (days: number) =>
    api.put<{ default_annual_leave: number; moved: number }>('/api/admin/settings/leave-policy', { default_annual_leave: days }),
  setOverride: (code: string, days: number) =>
    api.put<LeaveOverride>(`/api/admin/settings/leave-policy/overrides/${encodeURIComponent(code)}`, { annual_leave_total: days }),
  removeOverride: (code: string) => api.delete<LeaveOverride>(`/api/admin/settings/leave-policy/overrides/${encodeURIComponent(code)}`),
};

/** The message of a failed call, for a banner or a form. */
export function errorText(err: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
