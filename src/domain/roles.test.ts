// Unit tests of the role rules over every role name of the spec and every demo account.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  adminRoleMismatch,
  chatbotForRole,
  dashboardForRole,
  isApproverRole,
  isSessionManagerRole,
  sessionFamilyForRole,
  type ChatbotKind,
  type DashboardKind,
  type SessionFamily,
} from './roles';

const here = path.dirname(fileURLToPath(import.meta.url));
const demoOrg = JSON.parse(readFileSync(path.resolve(here, '../server/db/demo-org.json'), 'utf8')) as {
  users: { email: string; role: string; user_type: string }[];
};

describe('dashboardForRole', () => {
  const byRole: [string, DashboardKind][] = [
    ['IT Support', 'it'],
    ['IT Support Officer', 'it'],
    ['IT Staff', 'it'],
    ['HR Manager', 'hr'],
    ['HR', 'hr'],
    ['HR Officer', 'hr'],
    ['HR Staff', 'hr'],
    ['Finance Officer', 'finance'],
    ['Finance Staff', 'finance'],
    ['Facilities Manager', 'facilities_manager'],
    ['Facilities Director', 'facilities_manager'],
    ['Facilities Desk Coordinator', 'facilities_desk'],
    ['Facilities Officer', 'facilities_desk'],
    ['Facilities Staff', 'facilities_desk'],
    ['Department Manager', 'line_manager'],
    ['Team Lead', 'line_manager'],
    ['Employee', 'employee'],
    ['Software Engineer', 'employee'],
    ['Marketing Executive', 'employee'],
    ['Legal Counsel', 'employee'],
    ['Operations Officer', 'employee'],
    ['IT Officer', 'employee'],
    ['Manager', 'employee'],
    ['', 'employee'],
  ];
  it.each(byRole)('role %j opens the %s dashboard', (role, expected) => {
    expect(dashboardForRole(role)).toBe(expected);
  });

  it('matches role names case-insensitively and ignores surrounding whitespace', () => {
    expect(dashboardForRole('it support officer')).toBe('it');
    expect(dashboardForRole('  HR   officer ')).toBe('hr');
    expect(dashboardForRole('TEAM LEAD')).toBe('line_manager');
  });

  it('matches whole role names only', () => {
    expect(dashboardForRole('Senior HR Officer')).toBe('employee');
    expect(dashboardForRole('Finance Officer Assistant')).toBe('employee');
    expect(dashboardForRole('Facilities')).toBe('employee');
  });

  const byUserType: [string, DashboardKind][] = [
    ['it_staff', 'it'],
    ['hr_staff', 'hr'],
    ['finance_staff', 'finance'],
    ['facilities_manager', 'facilities_manager'],
    ['facilities_staff', 'facilities_desk'],
    ['line_manager', 'line_manager'],
    ['employee', 'employee'],
  ];
  it.each(byUserType)('user_type %s opens the %s dashboard whatever the role text', (userType, expected) => {
    expect(dashboardForRole('Analyst', userType)).toBe(expected);
  });

  it('takes the first match in the spec order', () => {
    // An IT role with an HR user_type: IT comes first.
    expect(dashboardForRole('IT Staff', 'hr_staff')).toBe('it');
    // A line manager role with a finance user_type: finance comes before line manager.
    expect(dashboardForRole('Team Lead', 'finance_staff')).toBe('finance');
    // Facilities manager before facilities desk.
    expect(dashboardForRole('Facilities Officer', 'facilities_manager')).toBe('facilities_manager');
    expect(dashboardForRole(null, null)).toBe('employee');
  });
});

describe('the administrator', () => {
  it('gets the admin dashboard, assistant and session family by the role text or the user type', () => {
    for (const [role, type] of [
      ['System Administrator', 'admin'],
      ['system  administrator', undefined],
      ['Analyst', 'admin'],
    ] as const) {
      expect(dashboardForRole(role, type)).toBe('admin');
      expect(chatbotForRole(role, type)).toBe('admin');
      expect(sessionFamilyForRole(role, type)).toBe('admin');
    }
    expect(isApproverRole('System Administrator')).toBe(false);
  });

  it('leaves every other role to the spec rules', () => {
    expect(dashboardForRole('Administrator')).toBe('employee');
    expect(dashboardForRole('Department Manager', 'line_manager')).toBe('line_manager');
    expect(chatbotForRole('Senior System Administrator')).toBe('employee');
    expect(sessionFamilyForRole('IT Administrator')).toBe('it');
  });

  it('needs the role and the user type together', () => {
    expect(adminRoleMismatch('System Administrator', 'admin')).toBeNull();
    expect(adminRoleMismatch('Employee', 'employee')).toBeNull();
    expect(adminRoleMismatch('System Administrator', 'employee')).toMatch(/needs the user type 'admin'/);
    expect(adminRoleMismatch('Employee', 'admin')).toMatch(/needs the role 'System Administrator'/);
  });
});

describe('chatbotForRole', () => {
  const table: [string, ChatbotKind][] = [
    ['Manager', 'manager'],
    ['Department Manager', 'manager'],
    ['Line Manager', 'manager'],
    ['Team Lead', 'manager'],
    ['HR Officer', 'hr'],
    ['HR Staff', 'hr'],
    ['HR Manager', 'hr'],
    ['Finance Officer', 'finance'],
    ['Finance Staff', 'finance'],
    ['IT Officer', 'it'],
    ['IT Staff', 'it'],
    ['IT Support', 'it'],
    ['IT Support Officer', 'it'],
    ['Operations Officer', 'facilities'],
    ['Operations Staff', 'facilities'],
    ['Facilities Desk Coordinator', 'facilities'],
    ['Facilities Officer', 'facilities'],
    ['Facilities Staff', 'facilities'],
    ['Facilities Manager', 'facilities'],
    ['Facilities Director', 'facilities'],
    ['Employee', 'employee'],
    ['Software Engineer', 'employee'],
    ['Marketing Executive', 'employee'],
    ['Legal Counsel', 'employee'],
    ['HR', 'employee'],
    ['', 'employee'],
  ];
  it.each(table)('role %j gets the %s assistant', (role, expected) => {
    expect(chatbotForRole(role)).toBe(expected);
  });

  it('is case-insensitive', () => {
    expect(chatbotForRole('team lead')).toBe('manager');
    expect(chatbotForRole('FACILITIES MANAGER')).toBe('facilities');
  });
});

describe('sessionFamilyForRole', () => {
  const table: [string, SessionFamily][] = [
    ['Manager', 'manager'],
    ['Department Manager', 'manager'],
    ['Line Manager', 'manager'],
    ['Team Lead', 'manager'],
    // 'manager' is the first keyword, so a manager of HR or facilities uses the manager family.
    ['HR Manager', 'manager'],
    ['Facilities Manager', 'manager'],
    ['HR', 'hr'],
    ['HR Officer', 'hr'],
    ['HR Staff', 'hr'],
    ['Finance Officer', 'finance'],
    ['Finance Staff', 'finance'],
    ['IT Officer', 'it'],
    ['IT Staff', 'it'],
    ['IT Support', 'it'],
    ['IT Support Officer', 'it'],
    ['Customer Support Agent', 'it'],
    ['Facilities Desk Coordinator', 'facilities'],
    ['Facilities Officer', 'facilities'],
    ['Facilities Staff', 'facilities'],
    ['Facilities Director', 'facilities'],
    ['Front Desk Assistant', 'facilities'],
    ['Operations Officer', 'simple'],
    ['Employee', 'simple'],
    ['Software Engineer', 'simple'],
    ['Marketing Executive', 'simple'],
    ['Legal Counsel', 'simple'],
    // 'it' and 'hr' inside other words do not count.
    ['Security Analyst', 'simple'],
    ['Editor', 'simple'],
    ['Three Sixty Reviewer', 'simple'],
    ['', 'simple'],
  ];
  it.each(table)('role %j uses the %s session family', (role, expected) => {
    expect(sessionFamilyForRole(role)).toBe(expected);
  });
});

describe('isApproverRole', () => {
  const approvers = [
    'Manager',
    'Department Manager',
    'Line Manager',
    'Team Lead',
    'Shift Supervisor',
    'HR',
    'HR Manager',
    'HR Officer',
    'HR Staff',
    'IT Support',
    'IT Support Officer',
    'IT Staff',
    'IT Officer',
    'Finance Officer',
    'Finance Staff',
    'Operations Officer',
    'Operations Staff',
    'Facilities Manager',
    'Facilities Director',
    'Facilities Desk Coordinator',
    'Facilities Officer',
    'Facilities Staff',
    'team lead',
  ];
  it.each(approvers)('%j is an approver', (role) => {
    expect(isApproverRole(role)).toBe(true);
  });

  const others = [
    'Employee',
    'Software Engineer',
    'Marketing Executive',
    'Legal Counsel',
    'Sales Executive',
    'Editor',
    'Security Analyst',
    '',
    null,
  ];
  it.each(others)('%j is not an approver', (role) => {
    expect(isApproverRole(role)).toBe(false);
  });
});

describe('isSessionManagerRole', () => {
  it.each(['Department Manager', 'Team Lead', 'Line Manager', 'line manager'])('%j is a session manager role', (role) => {
    expect(isSessionManagerRole(role)).toBe(true);
  });
  it.each(['Manager', 'HR Manager', 'Facilities Manager', 'Employee', '', undefined])('%j is not', (role) => {
    expect(isSessionManagerRole(role)).toBe(false);
  });
});

describe('the demo organisation', () => {
  const expected: Record<
    string,
    { dashboard: DashboardKind; chatbot: ChatbotKind; family: SessionFamily; approver: boolean; sessionManager: boolean }
  > = {
    'victoria.adams@adminease.test': {
      dashboard: 'line_manager',
      chatbot: 'manager',
      family: 'manager',
      approver: true,
      sessionManager: true,
    },
    'priya.sharma@adminease.test': {
      dashboard: 'line_manager',
      chatbot: 'manager',
      family: 'manager',
      approver: true,
      sessionManager: true,
    },
    'daniel.okafor@adminease.test': {
      dashboard: 'line_manager',
      chatbot: 'manager',
      family: 'manager',
      approver: true,
      sessionManager: true,
    },
    'grace.liu@adminease.test': { dashboard: 'line_manager', chatbot: 'manager', family: 'manager', approver: true, sessionManager: true },
    'meera.iyer@adminease.test': { dashboard: 'hr', chatbot: 'hr', family: 'manager', approver: true, sessionManager: false },
    'tom.becker@adminease.test': { dashboard: 'hr', chatbot: 'hr', family: 'hr', approver: true, sessionManager: false },
    'arjun.mehta@adminease.test': { dashboard: 'finance', chatbot: 'finance', family: 'finance', approver: true, sessionManager: false },
    'hannah.kim@adminease.test': { dashboard: 'finance', chatbot: 'finance', family: 'finance', approver: true, sessionManager: false },
    'lena.fischer@adminease.test': { dashboard: 'it', chatbot: 'it', family: 'it', approver: true, sessionManager: false },
    'omar.haddad@adminease.test': { dashboard: 'it', chatbot: 'it', family: 'it', approver: true, sessionManager: false },
    'sofia.rossi@adminease.test': {
      dashboard: 'facilities_desk',
      chatbot: 'facilities',
      family: 'facilities',
      approver: true,
      sessionManager: false,
    },
    'kenji.watanabe@adminease.test': {
      dashboard: 'facilities_manager',
      chatbot: 'facilities',
      family: 'manager',
      approver: true,
      sessionManager: false,
    },
    'chloe.martin@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    'rahul.verma@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    'alex.johnson@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    'maria.garcia@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    'sam.wilson@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    'nina.patel@adminease.test': { dashboard: 'employee', chatbot: 'employee', family: 'simple', approver: false, sessionManager: false },
    // The administrator: a dashboard, assistant and session family of their own; no approver.
    'olivia.brooks@adminease.test': {
      dashboard: 'admin',
      chatbot: 'admin',
      family: 'admin',
      approver: false,
      sessionManager: false,
    },
  };

  it('has an expectation for every account', () => {
    expect(demoOrg.users.map((u) => u.email).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(demoOrg.users.map((u) => [u.email, u] as const))('%s', (email, user) => {
    const want = expected[email];
    expect({
      dashboard: dashboardForRole(user.role, user.user_type),
      chatbot: chatbotForRole(user.role),
      family: sessionFamilyForRole(user.role),
      approver: isApproverRole(user.role),
      sessionManager: isSessionManagerRole(user.role),
    }).toEqual(want);
  });
});
