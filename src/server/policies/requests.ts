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
//   - IT staff: every IT incident and password reset;
//   - whoever signed a stage of the request (decided it), even once they no longer work that dashboard: whoever
//     may act on or has acted on a stage of a request may view it, through every read path alike.
// Sensitive fields (bank details, new passwords and the like) go further only to the owner and to the people
// who decide a stage of the request; everyone else gets the request without them. A few fields are the owner's
// alone (the new password of a password reset): not even the people who decide the request see them.
// A refused read answers exactly like a request that does not exist: callers throw their not-found error.
import {
  type ApproverRole,
  type DecisionCheck,
  checkDataStageDecidable,
  checkStageDecidable,
  isViewOnlyForManager,
} from '../../domain/approvals.js';
import { FORM_TYPES, type Stage, formTypeDef, itLifecycleOf } from '../../domain/forms.js';
import { BUILTIN_GROUPS, stageKeyLabel } from '../../domain/form-types.js';
import { HttpError } from '../http/errors.js';
import { type RecordRow, toRecord } from '../requests/repo.js';
import { type ActingFor, type Cover, actingForRule } from './cover.js';
import { GROUP_USER_TYPE, isInStageGroup, isItStaff } from './groups.js';

/** The facts of a viewer the rule reads (an AuthUser has them). */
export interface Viewer {
  id: number;
  role: string;
  user_type: string;
  /** The people this viewer decides for today as their delegate (policies/cover.ts; the session's user has them). */
  covers?: readonly Cover[];
}

/** The facts of a request the rule reads (a RecordRow has them). */
export interface RequestFacts {
  employee_user_id: number;
  line_manager_id: number | null;
  hr_contact_id: number | null;
  form_type: string;
  /** The request's stages and who signed them (needed for the HR step passed on, below). */
  approvals?: ReadonlyArray<StageFacts> | null;
}

/** A stage row of a request: who signed it and, for a chain defined as data, whom it names. */
export interface StageFacts {
  stage: string;
  decision: string;
  signer_id?: number | null;
  /** 'line_manager', 'managers_manager', 'hr_contact', 'group:<name>', 'person:<code>' (null: a built-in chain stage). */
  approver?: string | null;
  /** The people resolved when the request was submitted (null: a built-in group, by user_type). */
  approver_ids?: readonly number[] | null;
  stage_label?: string | null;
  /** The approver a delegate decided this stage for (policies/cover.ts). */
  on_behalf_of_id?: number | null;
  /** Who an overdue stage escalated to (they may decide it too). */
  escalated_to_id?: number | null;
}

/** How a viewer relates to a request: the owner, or the dashboard on which they see it. */
export type ViewRelation =
  'owner' | 'manager' | 'hr' | 'finance' | 'facilities_desk' | 'facilities_manager' | 'it' | 'signer' | 'approver' | 'cover';

const chainOf = (formType: string): readonly Stage[] => formTypeDef(formType)?.chain ?? [];
const typesWithStage = (stage: Stage) => FORM_TYPES.filter((t) => t.chain.includes(stage)).map((t) => t.formType);

/** Types on the line manager's dashboard: every type with a line-manager stage plus the view-only IT types. */
export const MANAGER_VIEW_TYPES: readonly string[] = FORM_TYPES.map((t) => t.formType).filter(
  (t) => chainOf(t).includes('line_manager') || isViewOnlyForManager(t),
);
/** Types of each role-wide or per-person approver stage (the types whose chain has that stage). */
export const STAGE_VIEW_TYPES: Record<'hr' | 'finance' | 'facilities_desk' | 'facilities_manager' | 'it_helpdesk', readonly string[]> = {
  hr: typesWithStage('hr'),
  finance: typesWithStage('finance'),
  facilities_desk: typesWithStage('facilities_desk'),
  facilities_manager: typesWithStage('facilities_manager'),
  it_helpdesk: typesWithStage('it_helpdesk'),
};

/** Did `userId` sign (decide) a stage of this request? */
export function signedAStage(req: Pick<RequestFacts, 'approvals'>, userId: number): boolean {
  return (req.approvals ?? []).some((a) => a.signer_id === userId && a.decision !== 'Pending');
}

/** The stage other than `stage` of this request that `userId` signed (or a delegate signed for them), or null. */
export function decidedOtherStep(req: Pick<RequestFacts, 'approvals'>, userId: number, stage: string): Stage | null {
  const a = (req.approvals ?? []).find(
    (x) => x.stage !== stage && (x.signer_id === userId || x.on_behalf_of_id === userId) && x.decision !== 'Pending',
  );
  return a ? (a.stage as Stage) : null;
}

/**
 * decidedOtherStep as SQL: has the person `who` decided a stage other than `stage` of the request whose id is
 * `requestPk` (all three SQL expressions), themselves or through a delegate who decided it on their behalf?
 */
export function decidedOtherStepSql(requestPk: string, who: string, stage: string, alias = 'so'): string {
  return `EXISTS (SELECT 1 FROM approvals ${alias} WHERE ${alias}.request_pk = ${requestPk} AND ${alias}.stage <> ${stage}
                   AND ${alias}.decision <> 'Pending' AND (${alias}.signer_id = ${who} OR ${alias}.on_behalf_of_id = ${who}))`;
}

/**
 * The people separation of duties keeps from `stage` of this request: its requester, whoever decided another step
 * of it and whoever another step was decided for by a delegate (decidedOtherStep), and for a password reset's IT step
 * the line manager who acknowledged it. The same people separationOfDutiesRefusal refuses: the lists of who a stage
 * waits on (notifications, reminders, escalation) leave them out, so nobody is told to decide what they may not.
 */
export function separatedFrom(req: DutyFacts, stage: string): number[] {
  const out = new Set<number>([req.employee_user_id]);
  for (const a of req.approvals ?? []) {
    if (a.stage === stage || a.decision === 'Pending') continue;
    if (typeof a.signer_id === 'number') out.add(a.signer_id);
    if (typeof a.on_behalf_of_id === 'number') out.add(a.on_behalf_of_id);
  }
  if (stage === 'it_helpdesk' && acknowledgementGatesIt(req.form_type) && req.line_manager_id !== null && managerAcknowledged(req))
    out.add(req.line_manager_id);
  return [...out];
}

/**
 * Does the line manager's acknowledgement of this type send it on to IT: a password reset waits for it (and the
 * manager who gave it does not also set the password), an IT incident's is a view only. The IT lifecycle the
 * registry gives the type decides, not its id.
 */
export function acknowledgementGatesIt(formType: string): boolean {
  return itLifecycleOf(formType) === 'password-reset';
}

/** Has the owner's line manager acknowledged this IT item (line_manager_acknowledgement, set by the IT desk)? */
export function managerAcknowledged(req: Pick<DutyFacts, 'data'>): boolean {
  return req.data?.line_manager_acknowledgement === true;
}

/**
 * The IT helpdesk step's separation of duties (separationOfDutiesRefusal for 'it_helpdesk') as an SQL condition on
 * the request row `r`: true when the person `who` (an SQL expression) may work it, i.e. it is not their own and not
 * a password reset they acknowledged as its line manager. (An IT type's chain is the IT helpdesk step alone, so no
 * other step of it can have been decided: the test checks this against the registry.)
 */
export function itWorkAllowedSql(who: string, r = 'r'): string {
  const gated = FORM_TYPES.filter((t) => acknowledgementGatesIt(t.formType)).map((t) => `'${t.formType}'`);
  const ackBy = gated.length
    ? ` AND NOT (${r}.form_type IN (${gated.join(', ')}) AND ${r}.line_manager_id IS NOT DISTINCT FROM ${who}
         AND coalesce(${r}.data->'line_manager_acknowledgement' = 'true'::jsonb, false))`
    : '';
  return `(${r}.employee_id <> ${who}${ackBy})`;
}

/** The label of a stage of a request (built-in stages by name, data-defined ones by their own label). */
function stageLabelOf(req: Pick<RequestFacts, 'approvals'>, stage: string): string {
  return (req.approvals ?? []).find((a) => a.stage === stage)?.stage_label || stageKeyLabel(stage);
}

/** The data-defined stage row `stage` of a request, if its chain was defined as data. */
function dataStage(req: Pick<RequestFacts, 'approvals'>, stage: string): StageFacts | undefined {
  return (req.approvals ?? []).find((a) => a.stage === stage && a.approver);
}

/** Does the request follow a chain defined as data (its approval rows name their approvers)? */
export function hasDataChain(req: Pick<RequestFacts, 'approvals'>): boolean {
  return (req.approvals ?? []).some((a) => a.approver);
}

/** The user_type of a built-in group a data-defined stage names ('group:finance'), else undefined. */
function builtinGroupType(approver: string | null | undefined): string | undefined {
  const m = /^group:(.+)$/.exec(approver ?? '');
  return m ? BUILTIN_GROUPS[m[1]]?.userType : undefined;
}

/**
 * Is `user` an approver of a data-defined stage: one of the people it resolved to when the request was submitted
 * (line manager, their manager, the named person, an admin-defined group's members), or a member of the built-in
 * group it names (by user_type). Separation of duties is separate (separationOfDutiesRefusal).
 */
export function isDataStageApprover(user: Pick<Viewer, 'id' | 'user_type'>, a: StageFacts): boolean {
  if (!a.approver) return false;
  if (a.approver_ids) return a.approver_ids.includes(user.id);
  const type = builtinGroupType(a.approver);
  return type !== undefined && user.user_type === type;
}

/** The built-in groups' approvers ('group:finance', ...) `user` belongs to, by user_type. */
function builtinGroupApprovers(user: Pick<Viewer, 'user_type'>): string[] {
  return Object.entries(BUILTIN_GROUPS)
    .filter(([, g]) => g.userType === user.user_type)
    .map(([name]) => `group:${name}`);
}

/**
 * isDataStageApprover as SQL over an approvals row (alias `a`) for the viewer in query parameter `userParam`: the
 * queues and list scopes of data-defined chains read it. (Delegation and escalation extend this and
 * isDataStageApprover together.)
 */
export function dataStageApproverSql(user: Pick<Viewer, 'user_type'>, userParam: string, a = 'da'): string {
  const groups = builtinGroupApprovers(user);
  const byGroup = groups.length ? ` OR (${a}.approver_ids IS NULL AND ${a}.approver IN (${sqlList(groups)}))` : '';
  // The requester's HR contact's stage passed on to the HR staff (hrContactPassedOn).
  const passedOn = isInStageGroup(user, 'hr')
    ? ` OR (${a}.approver = 'hr_contact' AND ${decidedOtherStepSql(`${a}.request_pk`, `${a}.approver_ids[1]`, `${a}.stage`, 'hx')})`
    : '';
  // approver_ids @> ARRAY[user] (not = ANY): the GIN index of migration 140 answers it.
  return `(${a}.approver IS NOT NULL AND (${a}.approver_ids @> ARRAY[${userParam}]::int[]${byGroup}${passedOn}))`;
}

/**
 * The requests (alias `r`) whose current stage is a data-defined stage `user` may decide now: they approve it, it
 * is not their own request and they decided no other stage of it (separation of duties). The generic approver queue.
 */
export function dataQueueScopeSql(user: Pick<Viewer, 'user_type'>, userParam: string, r = 'r'): string {
  // Driven by the caller's pending data-chain stages (a small set, by the partial indexes of migration 140).
  return `(${r}.id, ${r}.current_stage) IN (SELECT da.request_pk, da.stage FROM approvals da WHERE da.decision = 'Pending'
                   AND ${dataStageApproverSql(user, userParam, 'da')})
      AND ${r}.employee_id <> ${userParam} AND ${r}.status NOT IN ('Rejected', 'Cancelled', 'Withdrawn')
      AND NOT ${decidedOtherStepSql(`${r}.id`, userParam, `${r}.current_stage`)}`;
}

/**
 * Is `user` the approver of `stage` on this request? Line manager and HR are the request's own people; the other
 * stages are everyone of a group; IT is every member of IT support. When the HR contact already decided another
 * step of this request (they are also its line manager), the HR step passes to the other HR staff (separation of
 * duties: one person decides at most one step of a request).
 */
export function isStageApprover(user: Viewer, req: RequestFacts, stage: string): boolean {
  return isOwnStageApprover(user, req, stage) || actingFor(user, req, stage) !== null;
}

/**
 * When `user` decides `stage` for someone else (as their delegate while they are away, or because the overdue stage
 * escalated to them): whom for and how; null when they decide it in their own right or not at all. The clauses are
 * policies/cover.ts's.
 */
export function actingFor(user: Viewer, req: RequestFacts, stage: string): ActingFor | null {
  if (isOwnStageApprover(user, req, stage)) return null;
  return actingForRule(user, req, stage, isOwnStageApprover, separationOfDutiesRefusal);
}

/**
 * A data-defined stage of the requester's HR contact whose HR contact decided another step of the request (they are
 * also its line manager): like the built-in HR step, it passes on to the other HR staff. The HR contact, else null.
 */
function hrContactPassedOn(req: Pick<RequestFacts, 'approvals'>, data: StageFacts): number | null {
  const h = data.approver === 'hr_contact' ? data.approver_ids?.[0] : undefined;
  return h !== undefined && decidedOtherStep(req, h, data.stage) !== null ? h : null;
}

/** The stage's own approvers (no delegation, no escalation). */
function isOwnStageApprover(user: Viewer, req: RequestFacts, stage: string): boolean {
  const data = dataStage(req, stage);
  if (data) return isDataStageApprover(user, data) || (hrContactPassedOn(req, data) !== null && isInStageGroup(user, 'hr'));
  switch (stage) {
    case 'line_manager':
      return req.line_manager_id !== null && req.line_manager_id === user.id;
    case 'hr':
      if (!isInStageGroup(user, 'hr') || req.hr_contact_id === null) return false;
      if (req.hr_contact_id === user.id) return true;
      return decidedOtherStep(req, req.hr_contact_id, 'hr') !== null;
    case 'it_helpdesk':
    case 'finance':
    case 'facilities_desk':
    case 'facilities_manager':
      return isInStageGroup(user, stage);
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
    if (isInStageGroup(user, stage) && STAGE_VIEW_TYPES[stage].includes(type)) out.push(stage);
  }
  if (isItStaff(user) && STAGE_VIEW_TYPES.it_helpdesk.includes(type)) out.push('it');
  if (signedAStage(req, user.id)) out.push('signer');
  if ((req.approvals ?? []).some((a) => isDataStageApprover(user, a))) out.push('approver');
  // A delegate of an approver who is away, or the person an overdue stage escalated to, while it waits on them.
  const stages = req.approvals?.length ? req.approvals.map((a) => a.stage) : chainOf(type);
  if (stages.some((stage) => actingFor(user, req, stage) !== null)) out.push('cover');
  return out;
}

/** May `user` view this request (its details, its history, its line in a list or in the assistant)? */
export function canViewRequest(user: Viewer, req: RequestFacts): boolean {
  return viewRelations(user, req).length > 0;
}

/** Does `user` decide a stage of this request (the people who may see its sensitive fields besides the owner)? */
function decidesAStage(user: Viewer, req: RequestFacts): boolean {
  if (hasDataChain(req)) return (req.approvals ?? []).some((a) => isStageApprover(user, req, a.stage));
  return chainOf(req.form_type).some((stage) => isStageApprover(user, req, stage));
}

/** May `user` see the sensitive fields of this request: only its owner and the people who decide it. */
export function canSeeSensitive(user: Viewer, req: RequestFacts): boolean {
  if (req.employee_user_id === user.id) return true;
  return canViewRequest(user, req) && decidesAStage(user, req);
}

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
  // Beyond the generic names: the fields the type's registry entry marks (an info update's old and new data).
  return SENSITIVE_NAME.test(field) || (formTypeDef(formType)?.sensitiveFields?.includes(field) ?? false);
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

/**
 * Whether the line manager acknowledged a view-only IT item (alias `r`), as SQL: the acknowledgement is a field of the
 * request's data (written by it-desk/service.ts). `notAcknowledgedSql` is also the predicate of migration 020's partial
 * index, word for word, so a queue's condition built with it can use the index.
 */
export const notAcknowledgedSql = (r = 'r') => `coalesce(${r}.data->>'line_manager_acknowledgement', 'false') <> 'true'`;
export const acknowledgedSql = (r = 'r') => `${r}.data->>'line_manager_acknowledgement' = 'true'`;

const sqlList = (xs: readonly string[]) => (xs.length ? xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ') : 'NULL');

/** The requests (alias `r`) whose HR step passed on to the other HR staff: their HR contact decided another step. */
const hrPassedOnSql = (r: string) =>
  `(${r}.line_manager_id = ${r}.hr_contact_id AND ${r}.form_type IN (${sqlList(STAGE_VIEW_TYPES.hr)})
      AND ${decidedOtherStepSql(`${r}.id`, `${r}.hr_contact_id`, "'hr'", 'pv')})`;

/**
 * The requests (alias `r`) on the dashboard of `role` for the viewer in query parameter `userParam`, as SQL: the
 * same sets as viewRelations' 'manager', 'hr', 'finance', ... relations. `extra` (HR) are the requests whose HR
 * step passed on to the viewer from a colleague (never their own requests, nor ones whose HR contact they are).
 * The approver queues select from these scopes; viewScopeSql below is their union with the owner and the signers.
 */
export function queueScopeSql(role: ApproverRole, userParam: string, r = 'r'): { scope: string; extra?: string } {
  switch (role) {
    case 'manager':
      return { scope: `${r}.line_manager_id = ${userParam} AND ${r}.form_type IN (${sqlList(MANAGER_VIEW_TYPES)})` };
    case 'hr':
      return {
        scope: `${r}.hr_contact_id = ${userParam} AND ${r}.form_type IN (${sqlList(STAGE_VIEW_TYPES.hr)})`,
        extra: `${hrPassedOnSql(r)} AND ${r}.hr_contact_id <> ${userParam} AND ${r}.employee_id <> ${userParam}`,
      };
    default:
      return { scope: `${r}.form_type IN (${sqlList(STAGE_VIEW_TYPES[role])})` };
  }
}

/**
 * The same rule as canViewRequest, as an SQL condition over a requests row (alias `r`), for lists: `userParam` is
 * the query parameter that holds the viewer's user id ('$1'). Role-wide parts are decided here from the viewer's group.
 */
export function viewScopeSql(user: Viewer, userParam: string, r = 'r'): string {
  const parts = [
    `${r}.employee_id = ${userParam}`,
    `(${queueScopeSql('manager', userParam, r).scope})`,
    `EXISTS (SELECT 1 FROM approvals sg WHERE sg.request_pk = ${r}.id AND sg.signer_id = ${userParam} AND sg.decision <> 'Pending')`,
  ];
  if (isInStageGroup(user, 'hr')) {
    parts.push(`(${queueScopeSql('hr', userParam, r).scope})`);
    parts.push(hrPassedOnSql(r));
  }
  const wide: string[] = [];
  for (const stage of ['finance', 'facilities_desk', 'facilities_manager'] as const) {
    if (isInStageGroup(user, stage)) wide.push(...STAGE_VIEW_TYPES[stage]);
  }
  if (isItStaff(user)) wide.push(...STAGE_VIEW_TYPES.it_helpdesk);
  if (wide.length) parts.push(`${r}.form_type IN (${sqlList([...new Set(wide)])})`);
  parts.push(`EXISTS (SELECT 1 FROM approvals da WHERE da.request_pk = ${r}.id AND ${dataStageApproverSql(user, userParam, 'da')})`);
  return `(${parts.join(' OR ')})`;
}

// ---- deciding a stage ---------------------------------------------------------------------------

/** A refusal: the HTTP status and the message the caller gets (404 answers exactly like a missing request). */
export interface Refusal {
  status: number;
  message: string;
}

export const NOT_FOUND_MESSAGE = 'Request not found';

/** Why someone who is not the approver of a stage may not decide it. */
export const NOT_APPROVER: Record<Stage, string> = {
  line_manager: "Only the employee's line manager can decide this request",
  hr: "Only the employee's HR contact can decide this request",
  finance: 'Only finance staff can decide the finance step',
  facilities_desk: 'Only the facilities desk can decide this step',
  facilities_manager: 'Only the facilities manager can decide this step',
  it_helpdesk: 'IT tickets and password resets are handled on the IT support dashboard',
};

/** The facts separation of duties reads (a RecordRow has them). */
export type DutyFacts = RequestFacts & { data?: Record<string, unknown> | null };

/**
 * Separation of duties, the one rule every decision and every piece of IT work goes through: one person decides at
 * most one step of a request and never works on their own request. For IT, the line manager who acknowledged a
 * password reset (which sends it to IT) does not also set the password. Answers the refusal message, or null when
 * `user` may act on `stage`. Another member of the step's group does it instead (the queues offer it to them).
 */
export function separationOfDutiesRefusal(user: Pick<Viewer, 'id'>, req: DutyFacts, stage: string): string | null {
  if (req.employee_user_id === user.id) {
    return stage === 'it_helpdesk'
      ? 'You cannot work on your own ticket; a colleague in IT support will handle it'
      : 'You cannot decide on your own request';
  }
  const other = decidedOtherStep(req, user.id, stage);
  if (other) {
    return `You already decided the ${stageLabelOf(req, other)} step of this request; another ${stageLabelOf(req, stage)} approver must decide this step`;
  }
  if (stage === 'it_helpdesk' && acknowledgementGatesIt(req.form_type) && req.line_manager_id === user.id && managerAcknowledged(req)) {
    return 'You acknowledged this password reset as the line manager; another member of IT support must set the password';
  }
  return null;
}

/**
 * Who may decide `stage` of this request, whatever its state: someone who may see it (else 404, like a missing
 * request), is that stage's approver (403) and no duty separates them from it (403). The IT helpdesk step is not
 * decided but worked on the IT dashboard (it.ts). Null when they may.
 */
export function decideRefusal(user: Viewer, req: DutyFacts, stage: string): Refusal | null {
  if (!canViewRequest(user, req)) return { status: 404, message: NOT_FOUND_MESSAGE };
  if (stage === 'it_helpdesk' || !isStageApprover(user, req, stage)) {
    const data = dataStage(req, stage);
    const message = data
      ? `Only the ${data.stage_label || 'named'} approver can decide this step`
      : (NOT_APPROVER[stage as Stage] ?? 'You are not an approver of this step');
    return { status: 403, message };
  }
  const duty = separationOfDutiesRefusal(user, req, stage);
  return duty ? { status: 403, message: duty } : null;
}

/**
 * Does `stage` of this request wait on a decision now (whoever decides it): a chain defined as data by the request's
 * own stages as submitted (checkDataStageDecidable), a built-in chain by its type's stages (checkStageDecidable). The
 * one state rule of every decision path: decideStage, the e-mail links, the covering list and canDecideStage.
 */
export function stageStateCheck(row: RecordRow, stage: string): DecisionCheck {
  const rec = toRecord(row);
  return hasDataChain(row) ? checkDataStageDecidable(rec, row.approvals, stage) : checkStageDecidable(rec, stage as Stage);
}

/** May `user` decide `stage` of this request now: the person rule above and the stage waiting on a decision. */
export function canDecideStage(user: Viewer, row: RecordRow, stage: Stage): boolean {
  return decideRefusal(user, row, stage) === null && stageStateCheck(row, stage).ok;
}

/** The stage `user` decides on this request, or a 403 refusal when they approve none of it. */
export function callerStageOf(
  user: Viewer,
  row: Pick<RecordRow, 'form_type' | 'current_stage' | 'approvals'> & RequestFacts,
): Stage | Refusal {
  const chain = hasDataChain(row) ? row.approvals.map((a) => a.stage) : chainOf(row.form_type);
  const mine = chain.filter((s) => isStageApprover(user, row, s));
  if (mine.length === 0) {
    if (chain.length === 1 && chain[0] === 'it_helpdesk') return { status: 403, message: NOT_APPROVER.it_helpdesk };
    return { status: 403, message: 'You are not an approver of this request' };
  }
  if (row.current_stage && mine.includes(row.current_stage as Stage)) return row.current_stage as Stage;
  const pending = mine.find((s) => row.approvals.find((a) => a.stage === s)?.decision === 'Pending');
  return pending ?? mine[mine.length - 1];
}

// ---- the live stream ------------------------------------------------------------------------------

/**
 * Who hears live that a request changed: the people who may see it (the same rule as canViewRequest), as user
 * ids and, for the role-wide dashboards, the user_types of their groups.
 */
export function liveAudience(req: RequestFacts): { users: number[]; userTypes: string[] } {
  const users = new Set<number>([req.employee_user_id]);
  const types = new Set<string>();
  const type = req.form_type;
  if (req.line_manager_id !== null && MANAGER_VIEW_TYPES.includes(type)) users.add(req.line_manager_id);
  if (STAGE_VIEW_TYPES.hr.includes(type)) {
    if (req.hr_contact_id !== null) users.add(req.hr_contact_id);
    if (req.hr_contact_id !== null && decidedOtherStep(req, req.hr_contact_id, 'hr') !== null) types.add(GROUP_USER_TYPE.hr!);
  }
  for (const stage of ['finance', 'facilities_desk', 'facilities_manager', 'it_helpdesk'] as const) {
    if (STAGE_VIEW_TYPES[stage].includes(type)) types.add(GROUP_USER_TYPE[stage]!);
  }
  for (const a of req.approvals ?? []) if (typeof a.signer_id === 'number' && a.decision !== 'Pending') users.add(a.signer_id);
  for (const a of req.approvals ?? []) {
    if (!a.approver) continue;
    for (const id of a.approver_ids ?? []) users.add(id);
    const type = a.approver_ids ? undefined : builtinGroupType(a.approver);
    if (type) types.add(type);
  }
  return { users: [...users], userTypes: [...types] };
}

// ---- changing a request -----------------------------------------------------------------------------

/**
 * Who may edit or withdraw a request: its owner alone. Someone else who may see it learns why not (403); to everyone
 * else it does not exist (404), so a refusal never tells a stranger that an id exists or what type it is. (Whether
 * the request's state still allows the change is the caller's check.)
 */
export function changeRefusal(user: Viewer, req: RequestFacts): Refusal | null {
  if (isRequestOwner(user, req)) return null;
  if (!canViewRequest(user, req)) return { status: 404, message: NOT_FOUND_MESSAGE };
  return { status: 403, message: 'You can only change your own requests' };
}

/** A refusal as the error to throw; a 404 carries `notFoundMessage`, the caller's answer for a missing item. */
export function refusalError(refusal: Refusal, notFoundMessage = NOT_FOUND_MESSAGE): HttpError {
  return new HttpError(refusal.status, refusal.status === 404 ? notFoundMessage : refusal.message);
}

/**
 * Who decides `stage` of a request now, for the notifications that it waits on them: the line manager or HR contact
 * (isStageApprover), or every member of a group (its user_type) except `exclude`. The HR step passed on (its HR
 * contact decided another step) goes to the other HR staff. Whoever separation of duties keeps from the stage
 * (separatedFrom: the owner, whoever decided another step or had it decided for them by a delegate) is left out.
 */
export function stageDeciders(req: DutyFacts, stage: string): { ids: number[] } | { userType: string; exclude: number[] } {
  const others = separatedFrom(req, stage);
  const notOthers = (ids: ReadonlyArray<number | null>) => ({
    ids: ids.filter((id): id is number => id !== null && !others.includes(id)),
  });
  const data = dataStage(req, stage);
  if (data) {
    if (hrContactPassedOn(req, data) !== null) return { userType: GROUP_USER_TYPE.hr!, exclude: [...new Set(others)] };
    if (data.approver_ids) return notOthers(data.approver_ids);
    const type = builtinGroupType(data.approver);
    return type ? { userType: type, exclude: [...new Set(others)] } : { ids: [] };
  }
  if (stage === 'line_manager') return notOthers([req.line_manager_id]);
  if (stage === 'hr') {
    if (req.hr_contact_id === null) return { ids: [] };
    if (decidedOtherStep(req, req.hr_contact_id, 'hr')) return { userType: GROUP_USER_TYPE.hr!, exclude: [...new Set(others)] };
    return notOthers([req.hr_contact_id]);
  }
  const type = GROUP_USER_TYPE[stage as Stage];
  return type ? { userType: type, exclude: [...new Set(others)] } : { ids: [] };
}

/** Is `user` the request's owner (who alone changes it, reads a reset's new password and confirms it saved)? */
export function isRequestOwner(user: Pick<Viewer, 'id'>, req: Pick<RequestFacts, 'employee_user_id'>): boolean {
  return req.employee_user_id === user.id;
}
