// Every action the administrators' audit log records (docs/admin.md, 'Audit log'), with the words the audit screen
// shows for it. The one list: the server's writeAudit takes only these names (a new action is a type error until it
// is added here) and the audit screen's action filter is made from it, so the two cannot drift apart.

export const AUDIT_ACTIONS = {
  'person.create': 'Person added',
  'person.update': 'Person changed',
  'person.deactivate': 'Person deactivated',
  'person.reactivate': 'Person reactivated',
  'person.invite': 'Invitation sent',
  'person.require_password_change': 'New password required',
  'person.out_of_office.set': 'Out of office set',
  'person.out_of_office.clear': 'Out of office cleared',
  'department.create': 'Department added',
  'department.rename': 'Department renamed',
  'people.import': 'CSV import applied',
  'holiday.create': 'Holiday added',
  'holiday.update': 'Holiday changed',
  'holiday.delete': 'Holiday removed',
  'holiday_regions.update': 'Regional calendars changed',
  'leave_policy.update': 'Default leave allowance changed',
  'leave_override.update': 'Leave override set',
  'leave_override.delete': 'Leave override removed',
  'group.create': 'Approver group added',
  'group.update': 'Approver group changed',
  'form_type.create': 'Form type added',
  'form_type.update': 'Form type changed',
  'reminders.settings': 'Reminder settings changed',
  'settings.sso_auto_create': 'Single sign-on account creation switched',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The part of an action before its first dot: what the action is about. */
export type AuditFamily = AuditAction extends infer A ? (A extends `${infer F}.${string}` ? F : never) : never;

/** The filter's heading for each family (a new family is a type error until it has one). */
export const AUDIT_FAMILIES: Record<AuditFamily, string> = {
  person: 'People',
  department: 'Departments',
  people: 'CSV imports',
  holiday: 'Company holidays',
  holiday_regions: 'Regional calendars',
  leave_policy: 'Leave policy',
  leave_override: 'Leave overrides',
  group: 'Approver groups',
  form_type: 'Form types',
  reminders: 'Reminders',
  settings: 'Sign-in settings',
};

export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, action);
}

export interface AuditFilterGroup {
  label: string;
  /** [value for GET /api/admin/audit?action=, label]: the whole family (a prefix ending in '.') first when it has several. */
  options: Array<[string, string]>;
}

/** The audit screen's action filter: one group per family, in the order of AUDIT_ACTIONS. */
export function auditActionFilters(): AuditFilterGroup[] {
  const groups = new Map<string, AuditFilterGroup>();
  for (const [action, label] of Object.entries(AUDIT_ACTIONS)) {
    const family = action.slice(0, action.indexOf('.')) as AuditFamily;
    let g = groups.get(family);
    if (!g) groups.set(family, (g = { label: AUDIT_FAMILIES[family], options: [] }));
    g.options.push([action, label]);
  }
  for (const [family, g] of groups) if (g.options.length > 1) g.options.unshift([`${family}.`, `All: ${g.label.toLowerCase()}`]);
  return [...groups.values()];
}
