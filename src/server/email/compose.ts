// From a queued notification to the e-mail it becomes: which e-mails the recipient wants (their settings), the
// request's facts, the decision and its reason, and for an approver's waiting item the signed Approve / Reject
// links. The daily digest gathers the items held for it into one e-mail per person, once a day for the whole
// installation (one row per organisation day in email_digest_runs: whichever instance inserts it sends it).
import { businessDate } from '../../domain/business-time.js';
import { type Stage, STAGES } from '../../domain/forms.js';
import { formatDate } from '../../domain/format.js';
import { changeLine } from '../../domain/notifications.js';
import { type Preferences, resolvePreferences } from '../../domain/preferences.js';
import { EMAIL_ACTION_PATH } from '../../domain/web-routes.js';
import type { MailSettings } from '../config.js';
import type { Db, Queryable } from '../db/pool.js';
import { emailLinkRefusal } from '../policies/email-links.js';
import { loadUser } from '../people/service.js';
import { type RecordRow, loadRecordByRef } from '../requests/repo.js';
import { describeRequest, loadDecision, requestStageApprovalLabel } from './content.js';
import { createActionLink, pruneActionLinks } from './links.js';
import type { ActionUrls, DigestItem, MailModel } from './templates.js';

/**
 * The templates (react-email, which loads a syntax highlighter and more) are loaded with the first e-mail, not at
 * start: they cost about a second of CPU that a server without SMTP, or a restart, should not pay.
 */
const renderMail = async (m: MailModel) => (await import('./templates.js')).renderMail(m);

/** A claimed notification with its recipient. */
export interface OutboxRow {
  id: number;
  user_id: number;
  title: string;
  approval_field: string | null;
  old_value: string | null;
  new_value: string | null;
  email_kind: string;
  email_attempts: number;
  /** The request's human id (the notification's form_id), or null. */
  form_id: string | null;
  request_pk: number | null;
  stage: string | null;
  email: string;
  first_name: string;
  preferences: unknown;
}

export interface MailContext {
  db: Db;
  settings: MailSettings;
  /** The key of the action links' signatures (links.ts linkKey). */
  linkKey: Buffer;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
}

/** What to do with a queued e-mail by the recipient's settings: send it, hold it for the digest, or not at all. */
export function routeByPreferences(kind: string, prefs: Preferences): 'send' | 'digest' | 'off' {
  const wanted = kind === 'new_item' ? prefs.email_waiting : prefs.email_decisions;
  if (!wanted) return 'off';
  return prefs.email_digest ? 'digest' : 'send';
}

const url = (ctx: MailContext, path: string) => `${ctx.settings.publicUrl}${path}`;

/** The Approve / Reject links of an approver's waiting item, when the stage still waits and they may decide it. */
async function actionsFor(ctx: MailContext, c: Queryable, row: OutboxRow, req: RecordRow, now: Date): Promise<ActionUrls | null> {
  if (
    !row.stage ||
    // a stage of this request (a built-in chain's or one defined as data); the policy decides the rest
    !req.approvals.some((a) => a.stage === row.stage) ||
    row.stage === 'it_helpdesk' ||
    row.approval_field === 'line_manager_acknowledgement'
  )
    return null;
  const approver = await loadUser(c, row.user_id);
  const probe = {
    approver_id: row.user_id,
    stage: row.stage,
    revision: req.revision,
    expires_at: new Date(now.getTime() + 60_000),
    used_at: null,
    used_decision: null,
  };
  if (emailLinkRefusal(probe, now, null, approver, req)) return null;
  const links = await createActionLink(
    c,
    ctx.linkKey,
    { approverId: row.user_id, requestPk: req.pk, stage: row.stage as Stage, revision: req.revision },
    now,
    ctx.settings.actionTtlHours,
  );
  const link = (token: string) => url(ctx, `${EMAIL_ACTION_PATH}?token=${encodeURIComponent(token)}`);
  return { approve: link(links.approve), reject: link(links.reject), validity: `until ${formatDate(links.expiresAt)}` };
}

/** The stage an item waits on still waits (else the e-mail is moot: someone already acted). */
const stillWaiting = (req: RecordRow, stage: string | null) =>
  !stage || stage === 'it_helpdesk' || req.approvals.find((a) => a.stage === stage)?.decision === 'Pending';

/** The digest entry (or the single e-mail's parts) of one notification; null when there is nothing to tell any more. */
async function itemOf(ctx: MailContext, row: OutboxRow, now: Date): Promise<DigestItem | null> {
  const req = row.request_pk
    ? await loadRecordByRef(ctx.db, row.request_pk)
    : row.form_id
      ? await loadRecordByRef(ctx.db, row.form_id)
      : undefined;
  if (!req) return null;
  const request = describeRequest(req);
  const requestUrl = url(ctx, request.path);
  if (row.email_kind === 'new_item') {
    if (!stillWaiting(req, row.stage)) return null;
    const stageLabel =
      row.stage && req.approvals.some((a) => a.stage === row.stage) ? requestStageApprovalLabel(req, row.stage) : 'your action';
    return { title: row.title, request, requestUrl, decision: null, stageLabel, actions: await actionsFor(ctx, ctx.db, row, req, now) };
  }
  const stage = row.stage && Object.hasOwn(STAGES, row.stage) ? (row.stage as Stage) : null;
  const decision = stage && row.approval_field?.endsWith('_approval') ? await loadDecision(ctx.db, req, stage) : null;
  return { title: row.title, request, requestUrl, decision, stageLabel: null, actions: null };
}

/** The e-mail of one notification sent on its own, or null when it is moot. */
export async function notificationMail(ctx: MailContext, row: OutboxRow, now: Date): Promise<OutgoingMail | null> {
  const item = await itemOf(ctx, row, now);
  if (!item) return null;
  let model: MailModel;
  if (row.email_kind === 'new_item') {
    model = {
      kind: 'waiting',
      firstName: row.first_name,
      subject: row.title,
      request: item.request,
      stageLabel: item.stageLabel ?? 'your action',
      changedByOwner: row.old_value === 'Pending' && row.new_value === 'Pending',
      requestUrl: item.requestUrl,
      actions: item.actions,
    };
  } else {
    model = {
      kind: 'decision',
      firstName: row.first_name,
      subject: row.title,
      request: item.request,
      decision: item.decision,
      statusChange: item.decision ? null : changeLine(row),
      requestUrl: item.requestUrl,
    };
  }
  return { to: row.email, ...(await renderMail(model)) };
}

export const OUTBOX_COLUMNS = `n.id, n.user_id, n.title, n.approval_field, n.old_value, n.new_value, n.email_kind, n.email_attempts, n.form_id,
  n.request_pk::int AS request_pk, n.stage, u.email, u.first_name, u.preferences`;

/** The recipient's preferences of a claimed row. */
export const preferencesOf = (row: Pick<OutboxRow, 'preferences'>) => resolvePreferences(row.preferences);

/**
 * Sends today's digests if no instance has started them yet: claims the organisation day in email_digest_runs,
 * then one e-mail per person with their held items (decisions on their requests, items waiting for them that still
 * wait, with Approve / Reject links). Answers how many e-mails went out, or null when the day's run was someone
 * else's. Items of a failed send go back to the digest of the next day.
 */
export async function runDailyDigest(
  ctx: MailContext,
  send: (mail: OutgoingMail) => Promise<unknown>,
  now: Date,
  log?: { warn(obj: unknown, msg?: string): void },
): Promise<number | null> {
  const day = businessDate(now);
  const claimed = await ctx.db.query(
    'INSERT INTO email_digest_runs (day, started_at) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING RETURNING day',
    [day, now],
  );
  if (claimed.rowCount !== 1) return null;
  let sent = 0;
  const people = await ctx.db.query<{ user_id: number }>(`SELECT DISTINCT user_id FROM notifications WHERE email_state = 'digest'`);
  for (const { user_id } of people.rows) {
    const rows = await ctx.db.query<OutboxRow>(
      `UPDATE notifications n SET email_state = 'sending', email_attempts = n.email_attempts + 1, emailed_at = $2
         FROM users u
        WHERE u.id = n.user_id AND n.id IN (
              SELECT id FROM notifications WHERE user_id = $1 AND email_state = 'digest' ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED)
        RETURNING ${OUTBOX_COLUMNS}`,
      [user_id, now],
    );
    if (rows.rows.length === 0) continue;
    const items: DigestItem[] = [];
    const moot: number[] = [];
    for (const row of rows.rows.sort((a, b) => a.id - b.id)) {
      const item = await itemOf(ctx, row, now);
      if (item) items.push(item);
      else moot.push(row.id);
    }
    const ids = rows.rows.map((r) => r.id);
    if (moot.length) await ctx.db.query(`UPDATE notifications SET email_state = 'skipped' WHERE id = ANY($1::bigint[])`, [moot]);
    const live = ids.filter((id) => !moot.includes(id));
    if (items.length === 0) continue;
    const first = rows.rows[0];
    const mail = await renderMail({
      kind: 'digest',
      firstName: first.first_name,
      subject: `Your AdminEase digest for ${formatDate(day)}: ${items.length === 1 ? '1 update' : `${items.length} updates`}`,
      date: formatDate(day),
      items,
      settingsUrl: url(ctx, '/'),
    });
    try {
      await send({ to: first.email, ...mail });
      await ctx.db.query(`UPDATE notifications SET email_state = 'sent', emailed_at = $2 WHERE id = ANY($1::bigint[])`, [live, now]);
      sent += 1;
    } catch (err) {
      log?.warn({ err: (err as Error).message, user: user_id }, 'digest e-mail not sent');
      await ctx.db.query(`UPDATE notifications SET email_state = 'digest' WHERE id = ANY($1::bigint[])`, [live]);
    }
  }
  await pruneActionLinks(ctx.db, now);
  await ctx.db.query('UPDATE email_digest_runs SET finished_at = $2, sent = $3 WHERE day = $1', [day, now, sent]);
  return sent;
}
