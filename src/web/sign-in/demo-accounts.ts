// The Demo Credentials panel of the sign-in screen: the demo organisation's accounts by group (a copy of
// shared/seed/demo-org.json, which is not shipped beside the built app; a unit test keeps the two equal).

export const DEMO_PASSWORD = 'Demo@12345';

/** Panel groups, in the spec's order. */
export const DEMO_GROUPS = [
  'Line Managers',
  'HR Staff',
  'Finance Staff',
  'IT Staff',
  'Operations Staff',
  'Marketing Staff',
  'Legal Staff',
  'Employees',
  'Administrators',
] as const;

export type DemoGroup = (typeof DEMO_GROUPS)[number];

export interface DemoAccount {
  group: DemoGroup;
  name: string;
  role: string;
  email: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { group: 'Line Managers', name: 'Victoria Adams', role: 'Department Manager', email: 'victoria.adams@adminease.test' },
  { group: 'Line Managers', name: 'Priya Sharma', role: 'Department Manager', email: 'priya.sharma@adminease.test' },
  { group: 'Line Managers', name: 'Daniel Okafor', role: 'Team Lead', email: 'daniel.okafor@adminease.test' },
  { group: 'Line Managers', name: 'Grace Liu', role: 'Line Manager', email: 'grace.liu@adminease.test' },
  { group: 'HR Staff', name: 'Meera Iyer', role: 'HR Manager', email: 'meera.iyer@adminease.test' },
  { group: 'HR Staff', name: 'Tom Becker', role: 'HR Officer', email: 'tom.becker@adminease.test' },
  { group: 'Finance Staff', name: 'Arjun Mehta', role: 'Finance Officer', email: 'arjun.mehta@adminease.test' },
  { group: 'Finance Staff', name: 'Hannah Kim', role: 'Finance Staff', email: 'hannah.kim@adminease.test' },
  { group: 'IT Staff', name: 'Lena Fischer', role: 'IT Support Officer', email: 'lena.fischer@adminease.test' },
  { group: 'IT Staff', name: 'Omar Haddad', role: 'IT Staff', email: 'omar.haddad@adminease.test' },
  { group: 'Operations Staff', name: 'Sofia Rossi', role: 'Facilities Desk Coordinator', email: 'sofia.rossi@adminease.test' },
  { group: 'Operations Staff', name: 'Kenji Watanabe', role: 'Facilities Manager', email: 'kenji.watanabe@adminease.test' },
  { group: 'Marketing Staff', name: 'Chloe Martin', role: 'Marketing Executive', email: 'chloe.martin@adminease.test' },
  { group: 'Legal Staff', name: 'Rahul Verma', role: 'Legal Counsel', email: 'rahul.verma@adminease.test' },
  { group: 'Employees', name: 'Alex Johnson', role: 'Software Engineer', email: 'alex.johnson@adminease.test' },
  { group: 'Employees', name: 'Maria Garcia', role: 'Employee', email: 'maria.garcia@adminease.test' },
  { group: 'Employees', name: 'Sam Wilson', role: 'Sales Executive', email: 'sam.wilson@adminease.test' },
  { group: 'Employees', name: 'Nina Patel', role: 'Employee', email: 'nina.patel@adminease.test' },
  { group: 'Administrators', name: 'Olivia Brooks', role: 'System Administrator', email: 'olivia.brooks@adminease.test' },
];

/** The accounts of one group, in the seed's order. */
export function demoAccountsIn(group: DemoGroup): DemoAccount[] {
  return DEMO_ACCOUNTS.filter((a) => a.group === group);
}
