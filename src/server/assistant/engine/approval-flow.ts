// Approvers in the chat: what waits for me (from the caller's own queues, counted like the dashboard's
// Pending tile), the details of one request, and deciding by id or description with a confirmation (and a
// reason on rejection). Who may decide what is the request policy's (decideRefusal, canDecideStage), the chain rules
// the domain's (checkStageDecidable), and what it shows is the request policy's (canViewRequest, canSeeSensitive), so the chat
// can never do or show more than the dashboards: a request the caller may not see is treated exactly like an
// id that does not exist, on every path (one id, several ids, choices, details).
import { businessDate } from '../../../domain/business-time.js';
import { MANAGER_VIEW_ONLY_TYPES, checkStageDecidable, stageState } from '../../../domain/approvals.js';
import { formTitle, formTypeDef, isLeaveType, STAGES } from '../../../domain/forms.js';
import { QUEUE_DEFAULT_LIMIT, decideStage, queueFor, queueSummary } from '../../approvals/service.js';
import { type QueueRole, queuesOf } from '../../policies/groups.js';
import { callerStageOf, canDecideStage, canViewRequest, decideRefusal, isRequestOwner, withoutSensitive } from '../../policies/requests.js';
import { HttpError } from '../../http/errors.js';
import { itQueue } from '../../it-desk/service.js';
import { RECORD_SELECT, type RecordRow, type RequestRecord, loadRecordByRef, toRecord } from '../../requests/repo.js';
import { extractRequestIds } from './extract.js';
import { andList, fieldValue, requestGist, requestLine } from './format.js';
import { formTypesIn } from './info.js';
import { bestByDescription, descriptionWords } from './describe.js';
import type { Normalised } from './text.js';
import { type ApprovalAction, POINT_DOWN, type PendingChoice, type PendingDecision, type Reply, type TurnContext, reply } from './types.js';
import { isAffirmative, isNegative } from './understand.js';

export type { QueueRole };

const ROLE_LABEL: Record<QueueRole, string> = {
  manager: 'line manager',
  hr: 'HR',
  finance: 'finance',
  facilities_desk: 'facilities desk',
  facilities_manager: 'facilities manager',
  it: 'IT support',
};

/** The queues the caller works (the group rule): their group's first, plus 'manager' when people report to them. */
export async function approverRoles(ctx: TurnContext): Promise<QueueRole[]> {
  const r = await ctx.db.query('SELECT 1 FROM users WHERE manager_id = $1 LIMIT 1', [ctx.user.id]);
  return queuesOf(ctx.user, r.rows.length > 0);
}

export interface RoleQueue {
  role: QueueRole;
  /** The dashboard's Pending tile for this role. */
  count: number;
  /** Items waiting at this role (actionable ones first). */
  items: RequestRecord[];
}

const IT_TYPES = MANAGER_VIEW_ONLY_TYPES;

/** A request the caller may see, else undefined: an unseen request and a missing id look the same here. */
async function visibleRow(ctx: TurnContext, id: string): Promise<RecordRow | undefined> {
  const row = await loadRecordByRef(ctx.db, id);
  return row && canViewRequest(ctx.user, row) ? row : undefined;
}

/** What waits for the caller in one role, counted exactly like that dashboard's Pending tile. */
export async function roleQueue(ctx: TurnContext, role: QueueRole): Promise<RoleQueue> {
  if (role === 'it') {
    // up to 300 open tickets, as the IT queue answered before it took a limit
    const items = (await itQueue(ctx.db, ctx.user, { limit: 300 })).filter((r) =>
      ['open', 'in progress', 'pending'].includes(String(r.status).toLowerCase()),
    );
    return { role, count: items.length, items };
  }
  const stage = role === 'manager' ? 'line_manager' : role;
  const list = await queueFor(ctx.db, ctx.user, role, { status: 'Pending' });
  const atStage = list.filter((r) => !IT_TYPES.includes(r.form_type) && stageState(r, stage) === 'Pending');
  if (role === 'finance' || role === 'facilities_manager') {
    const summary = await queueSummary(ctx.db, ctx.user, role);
    const items = [...atStage].sort((a, b) => Number(Boolean(b.actionable)) - Number(Boolean(a.actionable)));
    return { role, count: summary.total_pending, items };
  }
  // The list holds at most QUEUE_DEFAULT_LIMIT rows; when it is full, the exact counters give the total.
  const count =
    list.length >= QUEUE_DEFAULT_LIMIT
      ? Math.max(atStage.length, (await queueSummary(ctx.db, ctx.user, role)).total_pending)
      : atStage.length;
  return { role, count, items: atStage };
}

function actionFor(r: RequestRecord): ApprovalAction {
  const id = r.request_id;
  return {
    request_id: id,
    form_type: r.form_type,
    title: formTitle(r.form_type),
    employee_name: String(r.employee_name ?? ''),
    summary: requestGist(r),
    buttons: [
      { label: 'Approve', action: 'approve', request_id: id, message: `approve ${id}`, style: 'success' },
      { label: 'Reject', action: 'reject', request_id: id, message: `reject ${id}`, style: 'danger' },
      { label: 'View', action: 'view', request_id: id, message: `show details of ${id}`, style: 'secondary' },
    ],
  };
}

function waitingNote(r: RequestRecord): string {
  if (r.actionable === false && r.next_stage) return ` — waiting: ${r.next_stage}`;
  return '';
}

/** 'How many requests wait for me?' (and the automatic greeting of approvers). */
export async function queueReply(ctx: TurnContext, lower: string, opts: { greeting?: string } = {}): Promise<Reply> {
  const roles = await approverRoles(ctx);
  if (roles.length === 0) {
    return reply(
      "You don't have an approval queue — requests wait for your line manager and the other approvers, not for you. I can show you the status of your own requests instead.",
      { intent: 'approvals.none', suggestions: ['Show my requests', 'Request leave', 'Book meeting room', 'Report IT issue'] },
    );
  }
  const queues = await Promise.all(roles.map((r) => roleQueue(ctx, r)));
  const types = opts.greeting ? [] : formTypesIn(lower);
  // 'Leave Request' -> 'leave requests', 'Petty Cash' -> 'petty cash requests'
  const typeLabel = types.length === 1 ? `${formTitle(types[0]).replace(/ Request$/, '')} ` : '';
  const parts: string[] = [];
  const actions: ApprovalAction[] = [];
  const refs: string[] = [];
  let total = 0;
  for (const q of queues) {
    const items = types.length ? q.items.filter((r) => types.includes(r.form_type)) : q.items;
    const count = types.length ? items.length : q.count;
    total += count;
    const noun =
      q.role === 'it' ? (count === 1 ? 'open ticket' : 'open tickets') : count === 1 ? `${typeLabel}request` : `${typeLabel}requests`;
    const asRole = queues.length > 1 || q.role !== roles[0] ? ` as ${ROLE_LABEL[q.role]}` : '';
    if (count === 0) {
      // a secondary queue with nothing in it is not worth a line
      if (q.role === roles[0] || queues.every((x) => x.count === 0)) {
        if (!parts.some((p) => p.startsWith('There are no pending')))
          parts.push(
            `There are no pending ${typeLabel ? typeLabel.toLowerCase() : ''}${q.role === 'it' ? 'tickets' : 'requests'} waiting for you${queues.length > 1 && q.role !== roles[0] ? asRole : ''}.`,
          );
      }
      continue;
    }
    const lines = items.slice(0, 5).map((r, i) => `${i + 1}. ${requestLine(r, { who: true })}${waitingNote(r)}`);
    const more = count > lines.length ? `\n…and ${count - lines.length} more.` : '';
    // finance and the facilities manager see items still at an earlier stage: say how many can be decided now
    const waiting = items.filter((r) => r.actionable === false).length;
    const split =
      waiting > 0 && q.role !== 'it'
        ? ` ${items.length - waiting} can be decided now; ${waiting} ${waiting === 1 ? 'is' : 'are'} still waiting on an earlier stage (${andList([...new Set(items.filter((r) => r.actionable === false).map((r) => String(r.next_stage ?? 'an earlier approver')))])}).`
        : '';
    parts.push(
      `You have ${count} ${noun} waiting for your ${q.role === 'it' ? 'attention' : 'approval'}${asRole}:\n${lines.join('\n')}${more}${split ? `\n${split.trim()}` : ''}`,
    );
    for (const r of items.slice(0, 5)) {
      refs.push(r.request_id);
      if (q.role !== 'it' && r.actionable !== false) actions.push(actionFor(r));
    }
  }
  ctx.state.lastRefs = refs;
  const hasItems = total > 0;
  let text = parts.join('\n\n');
  if (opts.greeting)
    text =
      `${opts.greeting} ${hasItems ? '' : 'Nothing is waiting for your approval right now — enjoy the calm! 😊'}${hasItems ? `\n${text}` : ''}`.trim();
  if (hasItems && actions.length > 0)
    text += `\n\nYou can decide them right here (e.g. "approve ${actions[0].request_id}"), or in the approval table ${POINT_DOWN} [View Approvals]`;
  else if (hasItems) text += `\n\nYou can work on them in the table ${POINT_DOWN} [View Approvals]`;
  const suggestions = actions.length
    ? [`Approve ${actions[0].request_id}`, `Show ${actions[0].request_id}`, 'Show pending approvals', 'Request leave']
    : refs.length
      ? [`Show ${refs[0]}`, 'Request leave', 'Book meeting room', 'Report IT issue']
      : ['Request leave', 'Book meeting room', 'Report IT issue', 'Update info'];
  return reply(text, { intent: 'approvals.queue', approvalActions: actions, showApprovalAction: hasItems, suggestions });
}

// ---- finding the request an approver means ---------------------------------------------------

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth'];

/** A request named by reference to the last reply: 'it' / 'that one' (when it named one), 'the second one', 'the last one'. */
export function referencedId(ctx: TurnContext, lower: string): string | undefined {
  const last = ctx.state.lastRefs ?? [];
  const ord = ORDINALS.findIndex((o) => new RegExp(`\\b${o}\\b`).test(lower));
  if (ord >= 0) return last[ord];
  const n = /\b(?:number|no\.?|#)\s*(\d)\b/.exec(lower);
  if (n) return last[Number(n[1]) - 1];
  if (/\b(last|latest)\s+(one|request)\b/.test(lower)) return last[last.length - 1];
  if (/\b(it|this|that|this one|that one|this request|that request|the request)\b/.test(lower) && last.length === 1) return last[0];
  return undefined;
}

/** The request ids a message refers to: ids, 'it'/'that' (the last one named), 'the second one', or a description. */
async function resolveTargets(ctx: TurnContext, nm: Normalised, rest: string): Promise<{ ids: string[]; described: boolean }> {
  const ids = extractRequestIds(nm.original);
  if (ids.length) return { ids, described: false };
  const last = ctx.state.lastRefs ?? [];
  const ord = ORDINALS.findIndex((o) => new RegExp(`\\b${o}\\b`).test(rest));
  if (ord >= 0 && last[ord]) return { ids: [last[ord]], described: false };
  if (/\b(last|latest)\s+(one|request)\b/.test(rest) && last.length) return { ids: [last[last.length - 1]], described: false };
  // described: a person's name and/or a form type among the items waiting for me
  const roles = await approverRoles(ctx);
  const queues = await Promise.all(roles.filter((r) => r !== 'it').map((r) => roleQueue(ctx, r)));
  // items still at an earlier stage count too: deciding one of them explains the chain, as asking by id does
  const candidates = queues.flatMap((q) => q.items);
  const types = formTypesIn(rest);
  const words = (nm.original.toLowerCase().match(/[a-z][a-z'-]+/g) ?? []).map((w) => w.replace(/'s$/, ''));
  const byName = candidates.filter((r) => {
    const name = String(r.employee_name ?? '')
      .toLowerCase()
      .split(/\s+/);
    return name.some((n) => n.length >= 2 && words.includes(n));
  });
  let pool = byName.length ? byName : types.length ? candidates : [];
  if (types.length) pool = pool.filter((r) => types.includes(r.form_type));
  if (pool.length > 1) {
    // more words of the description narrow it down ('Maria's casual leave', 'the Berlin trip')
    const names = new Set(
      pool.flatMap((r) =>
        String(r.employee_name ?? '')
          .toLowerCase()
          .split(/\s+/),
      ),
    );
    const content = descriptionWords(rest).filter((w) => !names.has(w));
    const narrowed = bestByDescription(pool, content);
    if (narrowed.length >= 1) pool = narrowed;
  }
  // 'the one about the printer toner': the words of the description among everything waiting
  if (pool.length === 0) pool = bestByDescription(candidates, descriptionWords(rest));
  // a described request that is not (yet) in the caller's queue ('Alex's leave for the wedding' still with the line
  // manager, for HR): found among the pending requests they may see, so that deciding it explains the chain
  if (pool.length === 0 || (byName.length === 0 && words.some((w) => /^[a-z]+$/.test(w) && isPersonWord(w, nm.original)))) {
    const wider = await pendingVisible(ctx, types);
    const found = bestByDescription(wider, descriptionWords(rest).concat(possessiveNames(nm.original)));
    if (found.length >= 1 && found.length <= 5) pool = found;
  }
  if (pool.length > 1) {
    const actionable = pool.filter((r) => r.actionable !== false);
    if (actionable.length >= 1) pool = actionable;
  }
  if (pool.length) return { ids: [...new Set(pool.map((r) => r.request_id))], described: true };
  if (/^(it|this|that|this one|that one|this request|that request|the request)?$/.test(rest.trim()) && last.length === 1)
    return { ids: [last[0]], described: false };
  return { ids: [], described: byName.length > 0 || types.length > 0 || rest.trim().length > 0 };
}

/** Names written as possessives or capitalised words ('Alex's', 'Maria'). */
function possessiveNames(original: string): string[] {
  return [...original.matchAll(/\b([A-Za-z][a-z]+)(?:'s|’s)\b/g)].map((m) => m[1].toLowerCase());
}
function isPersonWord(w: string, original: string): boolean {
  return possessiveNames(original).includes(w);
}

/** Pending requests of the given types (all types when none) that the caller may see and does not own. */
async function pendingVisible(ctx: TurnContext, types: string[]): Promise<RequestRecord[]> {
  const rows = await ctx.db.query(
    `${RECORD_SELECT} WHERE r.status = 'Pending' AND ($1::text[] IS NULL OR r.form_type = ANY($1::text[])) ORDER BY r.created_at DESC, r.id DESC LIMIT 300`,
    [types.length ? types : null],
  );
  return (rows.rows as RecordRow[])
    .filter((row) => canViewRequest(ctx.user, row) && !isRequestOwner(ctx.user, row))
    .map((row) => withoutSensitive(ctx.user, row, toRecord(row)));
}

interface Checked {
  ok: true;
  record: RequestRecord;
  stage: string;
}
interface Refused {
  ok: false;
  message: string;
}

/** Can the caller decide this request now? The same checks decideStage makes, before asking to confirm. */
async function checkDecidable(ctx: TurnContext, id: string, decision: 'Approved' | 'Rejected'): Promise<Checked | Refused> {
  const row = await visibleRow(ctx, id);
  if (!row) return { ok: false, message: `I couldn't find ${id} among the requests you can decide.` };
  const verb = decision === 'Approved' ? 'approve' : 'reject';
  if (isRequestOwner(ctx.user, row)) return { ok: false, message: `You cannot ${verb} your own request ${row.request_id}.` };
  // The request policy's rules, as decideStage applies them: the caller's stage, then may they decide it.
  const stage = callerStageOf(ctx.user, row);
  const refusal = typeof stage === 'string' ? decideRefusal(ctx.user, row, stage) : stage;
  if (refusal || typeof stage !== 'string') return { ok: false, message: `I can't ${verb} ${row.request_id}: ${refusal?.message}.` };
  const record = withoutSensitive(ctx.user, row, toRecord(row));
  const check = checkStageDecidable(record, stage);
  if (!check.ok) return { ok: false, message: `I can't ${verb} ${row.request_id} yet: ${check.message}.` };
  return { ok: true, record, stage };
}

/** The reason given with the command, as typed ('decline PC-000116 - Budget's frozen till April, sorry!'). */
function reasonFrom(text: string): string | undefined {
  const m =
    /\b(?:because|since|as|reason(?: is|:)?|due to|with (?:the )?reason|saying|:)\s+(.{3,300})$/i.exec(text) ??
    /\b[A-Za-z]{2,4}-\d{3,9}\b\s*(?:[-–—:,;]|\s-)\s*(.{3,300})$/.exec(text);
  return m ? m[1].trim() : undefined;
}

/** 'approve LR-000123', 'reject Chloe's leave because ...' */
export async function startDecision(ctx: TurnContext, nm: Normalised, decision: 'Approved' | 'Rejected', rest: string): Promise<Reply> {
  const roles = await approverRoles(ctx);
  const verb = decision === 'Approved' ? 'approve' : 'reject';
  if (roles.length === 0) {
    return reply(
      `I'm sorry, I can't ${verb} requests for you — only the assigned approvers can decide them, and nothing is waiting for your approval. I can show you the status of your own requests instead.`,
      { intent: 'approvals.refused', suggestions: ['Show my requests', 'Request leave', 'Book meeting room', 'Report IT issue'] },
    );
  }
  const resolved = await resolveTargets(ctx, nm, rest);
  let ids = resolved.ids;
  if (ids.length > 1) {
    // Several ids: only those the caller may see count (the others are as if never typed); one left is decided alone.
    const seen: RecordRow[] = [];
    for (const id of ids) {
      const row = await visibleRow(ctx, id);
      if (row && !seen.some((r) => r.pk === row.pk)) seen.push(row);
    }
    ids = seen.map((r) => r.request_id);
  }
  if (ids.length === 0) {
    return reply(
      `I couldn't find a pending request matching that in your queue. Say "show pending approvals" to see what is waiting for you.`,
      { intent: `approvals.${verb}.notfound`, suggestions: ['Show pending approvals'] },
    );
  }
  if (ids.length > 1) {
    const lines: string[] = [];
    for (const id of ids.slice(0, 5)) {
      const row = await visibleRow(ctx, id);
      if (row) lines.push(`• ${requestLine(withoutSensitive(ctx.user, row, toRecord(row)), { who: true })}`);
    }
    const choice: PendingChoice = {
      kind: 'choose',
      purpose: decision === 'Approved' ? 'approve' : 'reject',
      options: ids.slice(0, 5),
      reason: reasonFrom(nm.original),
    };
    ctx.state.pending = choice;
    ctx.state.lastRefs = choice.options;
    return reply(`Several requests match — which one should I ${verb}?\n${lines.join('\n')}`, {
      intent: `approvals.${verb}.choose`,
      suggestions: ids.slice(0, 4).map((id) => `${verb[0].toUpperCase()}${verb.slice(1)} ${id}`),
    });
  }
  return decisionFor(ctx, ids[0], decision, reasonFrom(nm.original));
}

/** The version of a record as its summary shows it (undefined for records read before versions existed). */
const versionOf = (r: object): number | undefined => {
  const v = (r as { version?: unknown }).version;
  return typeof v === 'number' ? v : undefined;
};

async function decisionFor(ctx: TurnContext, id: string, decision: 'Approved' | 'Rejected', reason?: string): Promise<Reply> {
  const verb = decision === 'Approved' ? 'approve' : 'reject';
  const check = await checkDecidable(ctx, id, decision);
  if (!check.ok) {
    ctx.state.pending = undefined;
    return reply(check.message, {
      intent: `approvals.${verb}.refused`,
      suggestions: ['Show pending approvals', 'Request leave', 'Book meeting room', 'Report IT issue'],
    });
  }
  const r = check.record;
  ctx.state.lastRefs = [r.request_id];
  const line = requestLine(r, { who: true });
  if (decision === 'Rejected' && !reason) {
    ctx.state.pending = { kind: 'decide', requestId: r.request_id, decision, step: 'reason', version: versionOf(r) };
    return reply(`You're rejecting ${line}. What is the reason? (The employee will see it. Say cancel to stop.)`, {
      intent: 'approvals.reject.reason',
      suggestions: ['Cancel'],
    });
  }
  ctx.state.pending = { kind: 'decide', requestId: r.request_id, decision, step: 'confirm', reason, version: versionOf(r) };
  const reasonText = reason ? ` with the reason "${reason}"` : '';
  return reply(`${verb === 'approve' ? 'Approve' : 'Reject'} ${line}${reasonText}? (yes / no)`, {
    intent: `approvals.${verb}.confirm`,
    suggestions: [`Yes, ${verb}`, 'No'],
  });
}

async function execute(ctx: TurnContext, p: PendingDecision): Promise<Reply> {
  ctx.state.pending = undefined;
  const verb = p.decision === 'Approved' ? 'approved' : 'rejected';
  try {
    // Bound to the content the summary showed: if the owner edited it since, the decision is refused (409).
    const rec = await decideStage(
      ctx.db,
      ctx.user,
      { ref: p.requestId, decision: p.decision, reason: p.reason ?? null, version: p.version ?? null },
      ctx.now,
    );
    const next = p.decision === 'Approved' && rec.next_stage && rec.next_stage !== 'Completed' ? ` Next stage: ${rec.next_stage}.` : '';
    const roles = await approverRoles(ctx);
    const remaining = (await Promise.all(roles.filter((r) => r !== 'it').map((r) => roleQueue(ctx, r)))).reduce(
      (n, q) => n + q.items.filter((i) => i.actionable !== false).length,
      0,
    );
    const tail = remaining > 0 ? ` You have ${remaining} more waiting for you.` : ' Nothing else is waiting for you. 🎉';
    return reply(`Done — ${rec.request_id} (${formTitle(rec.form_type)} from ${rec.employee_name}) is ${verb}.${next}${tail}`, {
      intent: `approvals.${p.decision === 'Approved' ? 'approve' : 'reject'}.done`,
      requestId: rec.request_id,
      suggestions: remaining > 0 ? ['Show pending approvals', 'Request leave', 'Book meeting room', 'Report IT issue'] : undefined,
    });
  } catch (err) {
    if (err instanceof HttpError) return reply(`I couldn't do that: ${err.message}.`, { intent: 'approvals.failed' });
    throw err;
  }
}

/** The next message while a decision is open. Undefined when it is about something else. */
export async function continueDecision(
  ctx: TurnContext,
  p: PendingDecision,
  nm: Normalised,
  otherIntent: boolean,
): Promise<Reply | undefined> {
  const lower = nm.lower;
  if (isNegative(lower) && lower.split(/\s+/).length <= 4) {
    ctx.state.pending = undefined;
    return reply(`OK, I left ${p.requestId} as it is.`, { intent: 'approvals.cancelled' });
  }
  if (p.step === 'reason') {
    // whatever follows the question is the reason (it may well mention other things: 'ordered by procurement')
    const reason = nm.original.trim().replace(/^(because|reason:?|the reason is)\s+/i, '');
    if (reason.length < 3)
      return reply('Please give a short reason for the rejection (or say cancel).', {
        intent: 'approvals.reject.reason',
        suggestions: ['Cancel'],
      });
    if (reason.length > 300)
      return reply('The rejection reason can have at most 300 characters — please shorten it.', {
        intent: 'approvals.reject.reason',
        suggestions: ['Cancel'],
      });
    return execute(ctx, { ...p, reason });
  }
  if (isAffirmative(lower, { action: p.decision === 'Approved' ? 'approve' : 'reject', requestId: p.requestId })) return execute(ctx, p);
  if (otherIntent) return undefined;
  return reply(`Please say yes to ${p.decision === 'Approved' ? 'approve' : 'reject'} ${p.requestId}, or no to leave it.`, {
    intent: 'approvals.confirm',
    suggestions: [`Yes, ${p.decision === 'Approved' ? 'approve' : 'reject'}`, 'No'],
  });
}

/** A choice among several matching requests ('the second one', an id). */
export async function continueChoice(ctx: TurnContext, p: PendingChoice, nm: Normalised): Promise<Reply | undefined> {
  const ids = extractRequestIds(nm.original);
  const ord = ORDINALS.findIndex((o) => new RegExp(`\\b${o}\\b`).test(nm.lower));
  const num = /^\s*(\d)\s*$/.exec(nm.lower);
  let picked = ids.find((id) => p.options.includes(id)) ?? (ord >= 0 ? p.options[ord] : num ? p.options[Number(num[1]) - 1] : undefined);
  if (!picked && !isNegative(nm.lower)) {
    // answered by description: 'the one about the printer cartridges', 'the tripod one'
    const rows: RequestRecord[] = [];
    for (const id of p.options) {
      const row = await visibleRow(ctx, id);
      if (row) rows.push(withoutSensitive(ctx.user, row, toRecord(row)));
    }
    const best = bestByDescription(rows, descriptionWords(nm.original));
    if (best.length === 1) picked = best[0].request_id;
  }
  if (isNegative(nm.lower) && !picked) {
    ctx.state.pending = undefined;
    return reply('OK, nothing was changed.', { intent: 'choose.cancelled' });
  }
  if (!picked) return undefined;
  ctx.state.pending = undefined;
  if (p.purpose === 'approve' || p.purpose === 'reject')
    return decisionFor(ctx, picked, p.purpose === 'approve' ? 'Approved' : 'Rejected', p.reason);
  if (p.purpose === 'details') return detailsReply(ctx, picked);
  const { confirmWithdraw } = await import('./withdraw-flow.js');
  return confirmWithdraw(ctx, picked);
}

// ---- details of one request ------------------------------------------------------------------

export async function detailsReply(ctx: TurnContext, id: string): Promise<Reply> {
  const row = await visibleRow(ctx, id);
  if (!row) {
    return reply(`I couldn't find ${id} among the requests you can see.`, { intent: 'approvals.details.notfound' });
  }
  const r = withoutSensitive(ctx.user, row, toRecord(row));
  const def = formTypeDef(r.form_type);
  const lines = [
    `${r.request_id} · ${formTitle(r.form_type)} from ${r.employee_name} (${r.department}), submitted ${r.created_at ? businessDate(String(r.created_at)) : ''}. Status: ${r.status}.`,
  ];
  for (const f of def?.fields ?? []) {
    const v = r[f.name];
    if (v === undefined || v === null || v === '') continue;
    lines.push(`• ${f.label}: ${fieldValue(f, v)}`);
  }
  if (isLeaveType(r.form_type) && r.total_days !== undefined) lines.push(`• Working days: ${r.total_days}`);
  const chain = (def?.chain ?? []).map((s) => `${STAGES[s].label}: ${r[`${STAGES[s].prefix}_approval`] ?? 'Pending'}`);
  if (chain.length) lines.push(`Approvals — ${chain.join(' → ')}. Next stage: ${r.next_stage}.`);
  const reason = Object.entries(r).find(([k, v]) => k.endsWith('_rejected_reason') && typeof v === 'string' && v.trim() !== '')?.[1];
  if (reason) lines.push(`Rejection reason: ${reason}`);
  ctx.state.lastRefs = [r.request_id];
  const stage = callerStageOf(ctx.user, row);
  const actionable = typeof stage === 'string' && canDecideStage(ctx.user, row, stage);
  if (actionable) lines.push(`It is waiting for your decision ${POINT_DOWN}`);
  return reply(lines.join('\n'), {
    intent: 'approvals.details',
    approvalActions: actionable ? [actionFor(r)] : [],
    showApprovalAction: actionable,
    suggestions: actionable ? [`Approve ${r.request_id}`, `Reject ${r.request_id}`, 'Show pending approvals'] : undefined,
  });
}

/** Names of the ids for a reply ('LR-000001 and PC-000002'). */
export function idList(ids: string[]): string {
  return andList(ids);
}

/** A decision prepared by the external model's tool: the same checks and confirmation as a typed command. */
export async function decisionForTool(ctx: TurnContext, id: string, decision: 'Approved' | 'Rejected', reason?: string): Promise<Reply> {
  if ((await approverRoles(ctx)).length === 0) {
    return reply("Only approvers can decide requests, and nothing is waiting for this user's approval.", { intent: 'approvals.refused' });
  }
  return decisionFor(ctx, id, decision, reason);
}
