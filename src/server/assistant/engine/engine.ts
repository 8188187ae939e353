// The built-in assistant engine: one turn of a conversation. Continues an open flow (a form being filled, a
// confirmation, a rejection reason, a choice) or understands a new request and hands it to its skill.
// A message about something else in the middle of a flow is answered, and the open question repeated.
import { businessDate } from '../../../domain/business-time.js';
import { isApproverRole } from '../../../domain/roles.js';
import { calendarVersion } from '../../calendar/company.js';
import { continueChoice, continueDecision, detailsReply, queueReply, startDecision } from './approval-flow.js';
import { continueForm, pendingQuestion, startForm } from './form-flow.js';
import {
  clarifyExisting,
  greetingReply,
  helpReply,
  holidayNames,
  holidayReply,
  leaveBalanceReply,
  myRequestsReply,
  partOfDay,
} from './info.js';
import { type Normalised, normalise } from './text.js';
import { ASSISTANT_NAME, type Reply, type TurnContext, reply } from './types.js';
import { type Understanding, decisionCommand, understand } from './understand.js';
import { extractRequestIds } from './extract.js';
import { continueWithdraw, startWithdraw } from './withdraw-flow.js';
import { canViewRequest, isRequestOwner } from '../../policies/requests.js';
import { loadRecordByRef } from '../../requests/repo.js';
import { approverRoles, referencedId, roleQueue } from './approval-flow.js';

export const MAX_MESSAGE_LENGTH = 2000;

let namesCache: { day: string; version: number; names: string[] } | undefined;
function knownHolidayNames(now: Date): string[] {
  const day = businessDate(now);
  const version = calendarVersion();
  if (!namesCache || namesCache.day !== day || namesCache.version !== version) namesCache = { day, version, names: holidayNames(now) };
  return namesCache.names;
}

export async function understandMessage(ctx: TurnContext, nm: Normalised): Promise<Understanding> {
  return understand(nm.lower, {
    approver: isApproverRole(ctx.user.role) || (await approverRoles(ctx)).length > 0,
    holidayNames: knownHolidayNames(ctx.now),
    lastIntent: ctx.state.lastIntent,
  });
}

/** Runs the skill of an understood message. */
export async function dispatch(ctx: TurnContext, nm: Normalised, und: Understanding): Promise<Reply> {
  const first = ctx.user.first_name;
  switch (und.intent) {
    case 'greet':
      return greetingReply(ctx);
    case 'help':
      return helpReply(ctx);
    case 'thanks':
      return reply(`You're welcome, ${first}! 😊 Anything else I can do for you?`, { intent: 'thanks' });
    case 'bye':
      return reply(`Goodbye, ${first}! Have a great day. 😊`, { intent: 'bye' });
    case 'identity':
      return reply(
        `I'm ${ASSISTANT_NAME} (CSO), the AdminEase assistant. I submit requests for you, tell you their status, your leave balance and the holidays${isApproverRole(ctx.user.role) ? ', and help you work through your approvals' : ''}.`,
        { intent: 'identity' },
      );
    case 'leave.balance':
      return leaveBalanceReply(ctx, nm.lower);
    case 'requests.status': {
      const ids = extractRequestIds(nm.original);
      if (ids.length === 1) {
        // Someone else's request the caller may see: its details; one they may not see is as if it did not exist.
        const row = await loadRecordByRef(ctx.db, ids[0]);
        if (row && !isRequestOwner(ctx.user, row) && canViewRequest(ctx.user, row)) return detailsReply(ctx, ids[0]);
      }
      return myRequestsReply(ctx, nm.original, nm.lower);
    }
    case 'holiday.info':
      return holidayReply(ctx, nm.original, nm.lower);
    case 'request.withdraw':
      return startWithdraw(ctx, nm);
    case 'approvals.queue':
      return queueReply(ctx, nm.lower);
    case 'approvals.details': {
      const ids = extractRequestIds(nm.original);
      const id = ids[0] ?? referencedId(ctx, nm.lower);
      if (id) return detailsReply(ctx, id);
      return (await approverRoles(ctx)).length ? queueReply(ctx, nm.lower) : myRequestsReply(ctx, nm.original, nm.lower);
    }
    case 'approvals.approve':
    case 'approvals.reject': {
      const cmd = decisionCommand(nm.lower);
      const decision = und.intent === 'approvals.approve' ? 'Approved' : 'Rejected';
      return startDecision(ctx, nm, decision, cmd?.rest ?? nm.lower);
    }
    case 'form': {
      if (und.source !== 'rule') {
        const ask = await clarifyExisting(ctx, nm.original, nm.lower, und.formType!);
        if (ask) return ask;
      }
      return startForm(ctx, und.formType!, nm);
    }
    default:
      return reply(
        `Sorry ${first}, I'm not sure I understood that. I can submit requests (leave, meeting rooms, IT issues, password resets, petty cash, travel, purchases and more), tell you their status, your leave balance and the holidays${isApproverRole(ctx.user.role) ? ', and help with your approvals' : ''}. Could you rephrase?`,
        { intent: 'unknown' },
      );
  }
}

/** Is the message clearly about something other than the open flow? */
function isOtherIntent(und: Understanding, lower: string, formType?: string): boolean {
  if (und.intent === 'unknown') return false;
  // another form only when asked for ('book a room instead'), not when its words merely occur in an answer
  if (und.intent === 'form') {
    return (
      und.formType !== formType &&
      und.score >= 2.5 &&
      /\b(book|apply|request|raise|submit|report|reserve|order|buy|file|open|create|start|need a|want a|want to|need to|i'd like|get me)\b/.test(
        lower,
      )
    );
  }
  return und.source === 'rule' || und.score >= 0.7;
}

/** The automatic greeting of approvers (auto_greeting with an empty message) or a plain greeting. */
export async function autoGreeting(ctx: TurnContext): Promise<Reply> {
  ctx.state.greeted = true;
  const roles = await approverRoles(ctx);
  if (roles.length > 0)
    return queueReply(ctx, '', { greeting: `${partOfDay(ctx.now)}, ${ctx.user.first_name}! 👋 I'm ${ASSISTANT_NAME}.` });
  return greetingReply(ctx);
}

/** The personal greeting of POST /ai/{family}/login-greeting. */
export async function loginGreeting(ctx: TurnContext): Promise<string> {
  const roles = await approverRoles(ctx);
  let text = `${partOfDay(ctx.now)}, ${ctx.user.first_name}! 😊 Welcome back to AdminEase. I'm ${ASSISTANT_NAME}, here to help with your requests.`;
  if (roles.length > 0) {
    const queues = await Promise.all(roles.map((r) => roleQueue(ctx, r)));
    const n = queues.reduce((s, q) => s + q.count, 0);
    text +=
      n > 0
        ? ` You have ${n} item${n === 1 ? '' : 's'} waiting for your approval ${'👇'}`
        : ' Nothing is waiting for your approval right now.';
  }
  return text;
}

/** One turn: `message` from the user, with the session's state in ctx.state (updated in place). */
export async function handleTurn(ctx: TurnContext, message: string, opts: { autoGreeting?: boolean } = {}): Promise<Reply> {
  ctx.state.turns = (ctx.state.turns ?? 0) + 1;
  const nm = normalise(message.slice(0, MAX_MESSAGE_LENGTH));
  if (!nm.original) {
    if (opts.autoGreeting) return autoGreeting(ctx);
    return reply(`I'm here, ${ctx.user.first_name}! What can I do for you?`, { intent: 'empty' });
  }
  const clarify = ctx.state.clarify;
  ctx.state.clarify = undefined;
  if (clarify && !ctx.state.pending) {
    // the answer to 'check on your request, or request a new one?'
    if (/\b(new|another|request a|submit|book|apply|raise|create|start)\b/.test(nm.lower) && !/\b(check|status)\b/.test(nm.lower)) {
      const r = await startForm(ctx, clarify.formType, nm);
      ctx.state.lastIntent = r.intent;
      return r;
    }
    if (
      /^(?:(?:the|that|yes|yeah|yep|ok|please|just)\W+)*(check|status|existing|old|that one|the one|it|that|check on it|the existing one)\b/.test(
        nm.lower,
      )
    ) {
      const r = await myRequestsReply(ctx, clarify.requestId, clarify.requestId.toLowerCase());
      ctx.state.lastIntent = r.intent;
      return r;
    }
  }
  const und = await understandMessage(ctx, nm);
  const r = await continueOrDispatch(ctx, nm, und);
  ctx.state.lastIntent = r.intent;
  return r;
}

async function continueOrDispatch(ctx: TurnContext, nm: Normalised, und: Understanding): Promise<Reply> {
  // A question the user never saw (opened during this very turn, e.g. by a model tool before the provider failed)
  // is no question: the message is answered on its own and can confirm nothing.
  if (ctx.state.pending && ctx.state.pending.shown !== true) ctx.state.pending = undefined;
  const pending = ctx.state.pending;
  if (!pending) return dispatch(ctx, nm, und);

  // 'tell me more about it before I approve it': the details of the request being decided, and the question stays open
  if (
    pending.kind === 'decide' &&
    pending.step === 'confirm' &&
    und.intent === 'approvals.details' &&
    extractRequestIds(nm.original).every((id) => id === pending.requestId)
  ) {
    const r = await detailsReply(ctx, pending.requestId);
    r.text += `\n\nShall I ${pending.decision === 'Approved' ? 'approve' : 'reject'} ${pending.requestId}? (yes / no)`;
    return r;
  }
  const other = isOtherIntent(und, nm.lower, pending.kind === 'form' ? pending.formType : undefined);
  let handled: Reply | undefined;
  switch (pending.kind) {
    case 'form':
      handled = await continueForm(ctx, pending, nm, other, other && und.source === 'rule');
      break;
    case 'decide':
      handled = await continueDecision(ctx, pending, nm, other);
      break;
    case 'withdraw':
      handled = await continueWithdraw(ctx, pending, nm, other);
      break;
    case 'choose':
      handled = await continueChoice(ctx, pending, nm);
      break;
  }
  if (handled) return handled;
  // something else: answer it, then repeat the open question if the flow is still open
  const answer = await dispatch(ctx, nm, und);
  if (ctx.state.pending === pending && pending.kind === 'form') {
    const q = pendingQuestion(pending);
    if (q) answer.text += `\n\n${q}`;
  } else if (ctx.state.pending === pending && pending.kind !== 'form') {
    ctx.state.pending = undefined;
  }
  return answer;
}
