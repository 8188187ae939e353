// Role rules: which dashboard, assistant and session family a role gets.
// Pure functions, shared by the server and the web app.

export type DashboardKind = 'admin' | 'it' | 'hr' | 'finance' | 'facilities_manager' | 'facilities_desk' | 'line_manager' | 'employee';

export type ChatbotKind = 'admin' | 'manager' | 'hr' | 'finance' | 'it' | 'facilities' | 'employee';

/** The `{role}` path segment of the /ai/{role}/session/* endpoints. */
export type SessionFamily = 'admin' | 'manager' | 'hr' | 'finance' | 'it' | 'facilities' | 'simple';

/**
 * The administrator (issue 18): user_type 'admin' with the role 'System Administrator', always both together
 * (adminRoleMismatch), so the role text alone, which is all some callers have, tells an administrator too. The
 * administrator's dashboard, assistant and session family are 'admin'; every other role follows the spec's rules.
 */
export const ADMIN_ROLE = 'System Administrator';
export const ADMIN_USER_TYPE = 'admin';

function isAdminRole(role: string | null | undefined, userType?: string | null): boolean {
  return normalise(role) === normalise(ADMIN_ROLE) || normalise(userType) === ADMIN_USER_TYPE;
}

/** Why a role text and user type cannot go together (the administrator's pair is all or nothing), or null. */
export function adminRoleMismatch(role: string | null | undefined, userType: string | null | undefined): string | null {
  const byRole = normalise(role) === normalise(ADMIN_ROLE);
  const byType = normalise(userType) === ADMIN_USER_TYPE;
  if (byRole && !byType) return `The role '${ADMIN_ROLE}' needs the user type '${ADMIN_USER_TYPE}'`;
  if (byType && !byRole) return `The user type '${ADMIN_USER_TYPE}' needs the role '${ADMIN_ROLE}'`;
  return null;
}

/** Lower-cases and collapses whitespace so ' hr  officer ' compares equal to 'HR Officer'. */
function normalise(text: string | null | undefined): string {
  return (text ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}

function hasWord(text: string, word: string): boolean {
  return new RegExp(`\\b${word}\\b`).test(text);
}

interface DashboardRule {
  dashboard: DashboardKind;
  roles: readonly string[];
  userTypes: readonly string[];
}

/**
 * Dashboard choice (after the administrator's, above), first match in this order: IT, HR, finance, facilities manager, facilities desk, line manager,
 * else the employee dashboard. Role names compare whole and case-insensitively.
 */
export const DASHBOARD_RULES: readonly DashboardRule[] = [
  { dashboard: 'it', roles: ['IT Support', 'IT Support Officer', 'IT Staff'], userTypes: ['it_staff'] },
  { dashboard: 'hr', roles: ['HR Manager', 'HR', 'HR Officer', 'HR Staff'], userTypes: ['hr_staff'] },
  { dashboard: 'finance', roles: ['Finance Officer', 'Finance Staff'], userTypes: ['finance_staff'] },
  {
    dashboard: 'facilities_manager',
    roles: ['Facilities Manager', 'Facilities Director'],
    userTypes: ['facilities_manager'],
  },
  {
    dashboard: 'facilities_desk',
    roles: ['Facilities Desk Coordinator', 'Facilities Officer', 'Facilities Staff'],
    userTypes: ['facilities_staff'],
  },
  { dashboard: 'line_manager', roles: ['Department Manager', 'Team Lead'], userTypes: ['line_manager'] },
];

export function dashboardForRole(role: string | null | undefined, userType?: string | null): DashboardKind {
  if (isAdminRole(role, userType)) return 'admin';
  const r = normalise(role);
  const t = normalise(userType);
  for (const rule of DASHBOARD_RULES) {
    if (rule.roles.some((name) => normalise(name) === r) || (t !== '' && rule.userTypes.includes(t))) {
      return rule.dashboard;
    }
  }
  return 'employee';
}

/** Which assistant a role talks to, by exact role name; other roles get the general employee assistant. */
export const CHATBOT_ROLES: Readonly<Record<Exclude<ChatbotKind, 'employee'>, readonly string[]>> = {
  admin: [ADMIN_ROLE],
  manager: ['Manager', 'Department Manager', 'Line Manager', 'Team Lead'],
  hr: ['HR Officer', 'HR Staff', 'HR Manager'],
  finance: ['Finance Officer', 'Finance Staff'],
  it: ['IT Officer', 'IT Staff', 'IT Support', 'IT Support Officer'],
  facilities: [
    'Operations Officer',
    'Operations Staff',
    'Facilities Desk Coordinator',
    'Facilities Officer',
    'Facilities Staff',
    'Facilities Manager',
    'Facilities Director',
  ],
};

export function chatbotForRole(role: string | null | undefined, userType?: string | null): ChatbotKind {
  if (isAdminRole(role, userType)) return 'admin';
  const r = normalise(role);
  for (const [kind, names] of Object.entries(CHATBOT_ROLES) as [Exclude<ChatbotKind, 'employee'>, readonly string[]][]) {
    if (names.some((name) => normalise(name) === r)) return kind;
  }
  return 'employee';
}

/**
 * Session endpoint family by keyword, first match in the spec's order. 'it' and 'hr' must be whole words:
 * as substrings they would match 'Facilities', 'Security' or 'Three'.
 */
export function sessionFamilyForRole(role: string | null | undefined, userType?: string | null): SessionFamily {
  if (isAdminRole(role, userType)) return 'admin';
  const r = normalise(role);
  if (r.includes('manager') || r.includes('team lead') || r.includes('line manager')) return 'manager';
  if (hasWord(r, 'hr')) return 'hr';
  if (r.includes('finance')) return 'finance';
  if (hasWord(r, 'it') || r.includes('support')) return 'it';
  if (r.includes('facilities') || r.includes('desk')) return 'facilities';
  return 'simple';
}

/**
 * Approver roles get the automatic assistant greeting. The spec's keyword list (manager, lead, supervisor, hr,
 * it support, it, finance, operations), with 'it' and 'hr' as whole words; every role that opens an approver
 * dashboard (e.g. Facilities Desk Coordinator) counts too, since it decides requests.
 */
export function isApproverRole(role: string | null | undefined): boolean {
  const r = normalise(role);
  if (r === '') return false;
  const substrings = ['manager', 'lead', 'supervisor', 'it support', 'finance', 'operations'];
  if (substrings.some((k) => r.includes(k)) || hasWord(r, 'hr') || hasWord(r, 'it')) return true;
  const dashboard = dashboardForRole(role);
  return dashboard !== 'employee' && dashboard !== 'admin'; // the administrator decides no requests
}

/** Session-level manager roles: Department Manager, Team Lead, Line Manager. */
export const SESSION_MANAGER_ROLES: readonly string[] = ['Department Manager', 'Team Lead', 'Line Manager'];

export function isSessionManagerRole(role: string | null | undefined): boolean {
  const r = normalise(role);
  return SESSION_MANAGER_ROLES.some((name) => normalise(name) === r);
}
