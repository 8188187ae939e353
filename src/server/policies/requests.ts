// Who may see which request: one rule for every read path (REST details and lists, the approver and IT
// dashboards' details, audit history, the assistant's engine and model tools). It is the dashboards' own
// scope: a person sees a request when it is theirs or when it is on a dashboard they work:
//   - the line manager: their reports' requests of every type with a line-manager stage, plus the view-only
//     IT items (incidents and password resets) they acknowledge;
//   - HR staff: the requests of the people they are HR contact for, of the types with an HR stage, in every
//     state (the HR queue lists them from the HR stage on; the assistant tells HR a leave request still waits
//     on the line manager, so HR may know of it before);
//   - finance staff, the facilities desk and the facilities manager: every request of the types whose chain
//     has their stage, in every state (their queues are role-wide);
//   - IT staff: every IT incident and password reset.
// Sensitive fields (bank details, new passwords and the like) go further only to the owner and to the people
// who decide a stage of the request; everyone else gets the request without them. A few fields are the owner's
// alone (the new password of a password reset): not even the people who decide the request see them.
// A refused read answers exactly like a request that does not exist: callers throw their not-found error.
import { STAGE_USER_TYPE, isViewOnlyForManager } from '../../domain/approvals.js';
import { FORM_TYPES, type Stage, formTypeDef } from '../../domain/forms.js';
import { dashboardForRole } from '../../domain/roles.js';

/** The facts of a viewer the rule reads (an AuthUser has them). */
export interface Viewer { id: number; role: string; user_type: string }

/** The facts of a request the rule reads (a RecordRow has them). */
export interface RequestFacts {
  employee_user_id: number;
  line_manager_id: number | null;
  hr_contact_id: number | null;
  form_type: string;
  /** The request's stages and who signed them (needed for the HR step passed on, below). */
  approvals?: ReadonlyArray<{ stage: string; decision: string; signer_id?: number | null }> | null;
}

/** How a viewer relates to a request: the owner, or the dashboard on which they see it. */
export type ViewRelation = 'owner' | 'manager' | 'hr' | 'finance' | 'facilities_desk' | 'facilities_manager' | 'it';

const chainOf = (formType: string): readonly Stage[] => formTypeDef(formType)?.chain ?? [];
const typesWithStage = (stage: Stage) => FORM_TYPES.filter((t) => t.chain.includes(stage)).map((t) => t.formType);

/** Types on the line manager's dashboard: every type with a line-manager stage plus the view-only IT types. */
export const MANAGER_VIEW_TYPES: readonly string[] = FORM_TYPES.map((t) => t.formType).filter((t) => chainOf(t).includes('line_manager') || isViewOnlyForManager(t));
/** Types of each role-wide or per-person approver stage (the types whose chain has that stage). */
export const STAGE_VIEW_TYPES: Record<'hr' | 'finance' | 'facilities_desk' | 'facilities_manager' | 'it_helpdesk', readonly string[]> = {
  hr: typesWithStage('hr'),
  finance: typesWithStage('finance'),
  facilities_desk: typesWithStage('facilities_desk'),
  facilities_manager: typesWithStage('facilities_manager'),
  it_helpdesk: typesWithStage('it_helpdesk'),
};

export function isItStaffViewer(user: Pick<Viewer, 'role' | 'user_type'>): boolean {
  return dashboardForRole(user.role, user.user_type) === 'it';
}

/** The stage other than `stage` of this request that `userId` signed, or null. */
export function decidedOtherStep(req: Pick<RequestFacts, 'approvals'>, userId: number, stage: Stage): Stage | null {
  const a = (req.approvals ?? []).find((x) => x.stage !== stage && x.signer_id === userId && x.decision !== 'Pending');
  return a ? (a.stage as Stage) : null;
}

/**
 * Is `user` the approver of `stage` on this request? Line manager and HR are the request's own people; the other
 * stages are everyone of a group; IT is every member of IT support. When the HR contact already decided another
 * step of this request (they are also its line manager), the HR step passes to the other HR staff (separation of
 * duties: one person decides at most one step of a request).
 */
export function isStageApprover(user: Viewer, req: RequestFacts, stage: Stage): boolean {
  switch (stage) {
    case 'line_manager':
      return req.line_manager_id !== null && req.line_manager_id === user.id;
    case 'hr':
      if (user.user_type !== STAGE_USER_TYPE.hr || req.hr_contact_id === null) return false;
      if (req.hr_contact_id === user.id) return true;
      return decidedOtherStep(req, req.hr_contact_id, 'hr') !== null;
    case 'it_helpdesk':
      return isItStaffViewer(user);
    case 'finance':
    case 'facilities_desk':
    case 'facilities_manager':
      return user.user_type === STAGE_USER_TYPE[stage];
    default:
      return false;
  }
}

/** Every relation through which `user` sees `req` (empty: the request is not theirs to see). */
export function viewRelations(user: Viewer, req: RequestFacts): ViewRelation[] {
  const out: ViewRelation[] = [];
  const type = req.form_type;
  if (req.employee_user_id === user.id) out.push('owner');
  if (req.line_manager_id !== null && req.line_manager_id === user.id && MANAGER_VIEW_TYPES.includes(type)) out.push('manager');
  if (STAGE_VIEW_TYPES.hr.includes(type) && isStageApprover(user, req, 'hr')) out.push('hr');
  for (const stage of ['finance', 'facilities_desk', 'facilities_manager'] as const) {
    if (user.user_type === STAGE_USER_TYPE[stage] && STAGE_VIEW_TYPES[stage].includes(type)) out.push(stage);
  }
  if (isItStaffViewer(user) && STAGE_VIEW_TYPES.it_helpdesk.includes(type)) out.push('it');
  return out;
}

/** May `user` view this request (its details, its history, its line in a list or in the assistant)? */
export function canViewRequest(user: Viewer, req: RequestFacts): boolean {
  return viewRelations(user, req).length > 0;
}

/** Does `user` decide a stage of this request (the people who may see its sensitive fields besides the owner)? */
function decidesAStage(user: Viewer, req: RequestFacts): boolean {
  return chainOf(req.form_type).some((stage) => isStageApprover(user, req, stage));
}

/** May `user` see the sensitive fields of this request: only its owner and the people who decide it. */
export function canSeeSensitive(user: Viewer, req: RequestFacts): boolean {
  if (req.employee_user_id === user.id) return true;
  return canViewRequest(user, req) && decidesAStage(user, req);
}

/** Fields of a type that only the owner and the deciders see (beyond the generic ones below). */
const SENSITIVE_BY_TYPE: Record<string, readonly string[]> = {
  // An info update carries the old and new personal data (bank account, address, phone ...).
  'info-update': ['old_information', 'new_information'],
};
/** Field names that are sensitive in any request: passwords, bank details, account numbers. */
const SENSITIVE_NAME = /(^|_)(password|passcode|bank|iban|swift|account_number|card_number|ssn)(_|$)/i;
/** Flags about a sensitive field that are not the field ('a new password is set'). */
const NOT_SENSITIVE = new Set(['has_new_password']);
/** Fields only the request's owner ever sees: IT sets a reset password but never reads it back. */
const OWNER_ONLY = new Set(['new_password']);

export function isOwnerOnlyField(field: string): boolean {
  return OWNER_ONLY.has(field);
}

export function isSensitiveField(formType: string, field: string): boolean {
  if (NOT_SENSITIVE.has(field)) return false;
  return SENSITIVE_NAME.test(field) || (SENSITIVE_BY_TYPE[formType]?.includes(field) ?? false);
}

/**
 * The record as `user` may see it (a copy when anything is left out; the input is left alone): without the
 * sensitive fields unless they may see those, and without the owner-only fields unless it is their own request.
 */
export function withoutSensitive<T extends Record<string, unknown>>(user: Viewer, req: RequestFacts, rec: T): T {
  if (req.employee_user_id === user.id) return rec;
  const sensitive = canSeeSensitive(user, req);
  if (sensitive && !Object.keys(rec).some(isOwnerOnlyField)) return rec;
  const out: Record<string, unknown> = {};
  for (const k in rec) if (!isOwnerOnlyField(k) && (sensitive || !isSensitiveField(req.form_type, k))) out[k] = rec[k];
  // Server-side facts kept under symbol keys (who signed which stage) are never sent but still needed by the rules.
  for (const sym of Object.getOwnPropertySymbols(rec)) (out as Record<symbol, unknown>)[sym] = (rec as Record<symbol, unknown>)[sym];
  return out as T;
}

const sqlList = (xs: readonly string[]) => (xs.length ? xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ') : 'NULL');

/**
 * The same rule as an SQL condition over a requests row (alias `r`), for lists: `userParam` is the
 * query parameter that holds the viewer's user id ('$1'). Role-wide parts are decided here from the viewer's type.
 */
export function viewScopeSql(user: Viewer, userParam: string, r = 'r'): string {
  const parts = [
    `${r}.employee_id = ${userParam}`,
    `(${r}.line_manager_id = ${userParam} AND ${r}.form_type IN (${sqlList(MANAGER_VIEW_TYPES)}))`,
  ];
  if (user.user_type === STAGE_USER_TYPE.hr) {
    parts.push(`(${r}.hr_contact_id = ${userParam} AND ${r}.form_type IN (${sqlList(STAGE_VIEW_TYPES.hr)}))`);
    // The HR step passed on to the other HR staff (its HR contact decided another step as line manager).
    parts.push(`(${r}.line_manager_id = ${r}.hr_contact_id AND ${r}.form_type IN (${sqlList(STAGE_VIEW_TYPES.hr)})
      AND EXISTS (SELECT 1 FROM approvals pv WHERE pv.request_pk = ${r}.id AND pv.stage <> 'hr' AND pv.signer_id = ${r}.hr_contact_id AND pv.decision <> 'Pending'))`);
  }
  const wide: string[] = [];
  for (const stage of ['finance', 'facilities_desk', 'facilities_manager'] as const) {
    if (user.user_type === STAGE_USER_TYPE[stage]) wide.push(...STAGE_VIEW_TYPES[stage]);
  }
  if (isItStaffViewer(user)) wide.push(...STAGE_VIEW_TYPES.it_helpdesk);
  if (wide.length) parts.push(`${r}.form_type IN (${sqlList([...new Set(wide)])})`);
  return `(${parts.join(' OR ')})`;
}
