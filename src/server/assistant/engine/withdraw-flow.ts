// Withdrawing one's own pending request by conversation: find it (by id, or the only pending one of a type),
// confirm, then withdraw through the forms feature's withdrawRequest (same rules as the REST route).
import { formTitle } from '../../../domain/forms.js';
import { withdrawRequest } from '../../forms/service.js';
import { HttpError } from '../../http/errors.js';
import { RECORD_SELECT, type RecordRow, loadRecordByRef, toRecord } from '../../requests/repo.js';
import { extractRequestIds } from './extract.js';
import { requestLine } from './format.js';
import { formTypesIn } from './info.js';
import type { Normalised } from './text.js';
import { type PendingWithdraw, type Reply, type TurnContext, reply } from './types.js';
import { isAffirmative, isNegative } from './understand.js';
import { changeRefusal } from '../../policies/requests.js';

const WITHDRAWABLE = ['Pending', 'Open'];

export async function confirmWithdraw(ctx: TurnContext, id: string): Promise<Reply> {
  const row = await loadRecordByRef(ctx.db, id);
  if (!row || changeRefusal(ctx.user, row)) {
    return reply(`I couldn't find ${id} among your requests. I can only withdraw your own requests.`, { intent: 'withdraw.notfound' });
  }
  const r = toRecord(row);
  if (!WITHDRAWABLE.includes(r.status)) {
    return reply(`${r.request_id} is already ${r.status}, so it can't be withdrawn any more.`, { intent: 'withdraw.refused' });
  }
  ctx.state.pending = { kind: 'withdraw', requestId: r.request_id };
  ctx.state.lastRefs = [r.request_id];
  return reply(`Withdraw ${requestLine(r)}? It will be cancelled and leave the approvers' queues. (yes / no)`, {
    intent: 'withdraw.confirm',
    suggestions: ['Yes, withdraw it', 'No, keep it'],
  });
}

export async function startWithdraw(ctx: TurnContext, nm: Normalised): Promise<Reply> {
  const ids = extractRequestIds(nm.original);
  if (ids.length > 0) return confirmWithdraw(ctx, ids[0]);
  const rows = await ctx.db.query(
    `${RECORD_SELECT} WHERE r.employee_id = $1 AND r.status = ANY($2::text[]) ORDER BY r.created_at DESC, r.id DESC LIMIT 50`,
    [ctx.user.id, WITHDRAWABLE],
  );
  let list = (rows.rows as RecordRow[]).map(toRecord);
  const types = formTypesIn(nm.lower);
  if (types.length) list = list.filter((r) => types.includes(r.form_type));
  if (/\b(last|latest|most recent)\b/.test(nm.lower) && list.length > 1) list = list.slice(0, 1);
  const what = types.length === 1 ? `${formTitle(types[0])} requests` : 'requests';
  if (list.length === 0) return reply(`You have no pending ${what} that could be withdrawn.`, { intent: 'withdraw.none' });
  if (list.length === 1) return confirmWithdraw(ctx, list[0].request_id);
  const options = list.slice(0, 5).map((r) => r.request_id);
  ctx.state.pending = { kind: 'choose', purpose: 'withdraw', options };
  ctx.state.lastRefs = options;
  return reply(
    `You have ${list.length} pending ${what}. Which one should I withdraw?\n${list
      .slice(0, 5)
      .map((r) => `• ${requestLine(r)}`)
      .join('\n')}`,
    {
      intent: 'withdraw.choose',
      suggestions: options.slice(0, 4).map((id) => `Withdraw ${id}`),
    },
  );
}

export async function continueWithdraw(
  ctx: TurnContext,
  p: PendingWithdraw,
  nm: Normalised,
  otherIntent: boolean,
): Promise<Reply | undefined> {
  if (isNegative(nm.lower)) {
    ctx.state.pending = undefined;
    return reply(`OK, ${p.requestId} stays as it is.`, { intent: 'withdraw.cancelled' });
  }
  if (!isAffirmative(nm.lower, { requestId: p.requestId })) {
    if (otherIntent) return undefined;
    return reply(`Shall I withdraw ${p.requestId}? Please say yes or no.`, {
      intent: 'withdraw.confirm',
      suggestions: ['Yes, withdraw it', 'No, keep it'],
    });
  }
  ctx.state.pending = undefined;
  try {
    const rec = await withdrawRequest(ctx.db, ctx.user, p.requestId, { now: ctx.now });
    return reply(`Done — ${rec.request_id} (${formTitle(rec.form_type)}) has been withdrawn. Its status is now ${rec.status}.`, {
      intent: 'withdraw.done',
      requestId: rec.request_id,
    });
  } catch (err) {
    if (err instanceof HttpError) return reply(`I couldn't withdraw ${p.requestId}: ${err.message}.`, { intent: 'withdraw.failed' });
    throw err;
  }
}
