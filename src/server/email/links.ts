// Approve / Reject links of approvers' e-mails (issue 22). One row per e-mail and approver in email_action_links
// binds the link to the approver, the request, the stage and the request's version, with its expiry; the token in
// the URL is `<row id>.<a|r>.<HMAC-SHA256 of the row's binding and the decision>`, keyed by a key derived from the
// server key (ADMINEASE_SECRET_KEY or its key file), so a changed id, decision or binding fails the signature.
// Checking a link changes nothing; using it decides through the decision service (decideStage) and marks the row
// used in the decision's own transaction, so a link decides once even when clicked twice at the same moment.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Stage } from '../../domain/forms.js';
import { formTypeLabel } from '../../domain/notifications.js';
import type { Db, Queryable } from '../db/pool.js';
import { type Decision, decideStage } from '../approvals/service.js';
import { HttpError } from '../http/errors.js';
import { type AuthUser, loadUser } from '../people/service.js';
import { type EmailLinkFacts, type EmailLinkRefusal, INVALID_LINK_MESSAGE, emailLinkRefusal } from '../policies/email-links.js';
import { type RecordRow, type RequestRecord, loadRecordByRef } from '../requests/repo.js';
import { describeRequest, requestStageApprovalLabel } from './content.js';
import type { EmailLinkView } from '../../domain/email.js';

/** The page of an action link (a web route: domain/web-routes.ts). */
export { EMAIL_ACTION_PATH } from '../../domain/web-routes.js';

const DECISION_CODE: Record<Decision, string> = { Approved: 'a', Rejected: 'r' };
const CODE_DECISION: Record<string, Decision> = { a: 'Approved', r: 'Rejected' };
const TOKEN = /^([A-Za-z0-9_-]{22})\.([ar])\.([A-Za-z0-9_-]{43})$/;

/** The key of the links' signatures, derived from the server key (never the key itself). */
export function linkKey(serverKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', serverKey, Buffer.alloc(0), 'adminease e-mail action links v1', 32));
}

interface LinkRow extends EmailLinkFacts {
  id: string;
  request_pk: number;
}

function signature(
  key: Buffer,
  link: Pick<LinkRow, 'id' | 'approver_id' | 'request_pk' | 'stage' | 'revision' | 'expires_at'>,
  code: string,
) {
  const bound = [link.id, code, link.approver_id, link.request_pk, link.stage, link.revision, new Date(link.expires_at).getTime()].join(
    '|',
  );
  return createHmac('sha256', key).update(bound).digest('base64url');
}

export interface ActionLinks {
  approve: string;
  reject: string;
  expiresAt: Date;
}

/** Records a link for `approverId` on `stage` of the request at `revision`, and answers its two tokens. */
export async function createActionLink(
  c: Queryable,
  key: Buffer,
  input: { approverId: number; requestPk: number; stage: Stage; revision: number },
  now: Date,
  ttlHours: number,
): Promise<ActionLinks> {
  const id = randomBytes(16).toString('base64url');
  // Whole milliseconds, as PostgreSQL keeps microseconds and the signature covers the stored value.
  const expiresAt = new Date(Math.floor(now.getTime() + ttlHours * 3_600_000));
  await c.query(
    `INSERT INTO email_action_links (id, approver_id, request_pk, stage, revision, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, input.approverId, input.requestPk, input.stage, input.revision, now, expiresAt],
  );
  const row = {
    id,
    approver_id: input.approverId,
    request_pk: input.requestPk,
    stage: input.stage,
    revision: input.revision,
    expires_at: expiresAt,
  };
  const token = (d: Decision) => `${id}.${DECISION_CODE[d]}.${signature(key, row, DECISION_CODE[d])}`;
  return { approve: token('Approved'), reject: token('Rejected'), expiresAt };
}

/** The link of a token and the decision it carries, or null when the token is malformed, unknown or its signature fails. */
async function linkOf(c: Queryable, key: Buffer, token: unknown): Promise<{ link: LinkRow; decision: Decision } | null> {
  const m = typeof token === 'string' ? TOKEN.exec(token.trim()) : null;
  if (!m) return null;
  const r = await c.query<LinkRow>(
    `SELECT id, approver_id, request_pk::int AS request_pk, stage, revision, expires_at, used_at, used_decision FROM email_action_links WHERE id = $1`,
    [m[1]],
  );
  const link = r.rows[0];
  if (!link) return null;
  const expected = Buffer.from(signature(key, link, m[2]));
  const given = Buffer.from(m[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { link, decision: CODE_DECISION[m[2]] };
}

/** What the confirmation page shows of a usable link. */
export type LinkView = EmailLinkView & { stage: Stage };

const invalid = () => new HttpError(400, INVALID_LINK_MESSAGE, { code: 'invalid' });
const refusalError = (r: EmailLinkRefusal) => new HttpError(r.status, r.message, { code: r.code });

interface Checked {
  link: LinkRow;
  decision: Decision;
  approver: AuthUser;
  row: RecordRow;
}

/** Reads a token and applies the link rules (policies/email-links.ts); throws the refusal as a 4xx with its code. */
async function checked(db: Queryable, key: Buffer, token: unknown, sessionUserId: number | null, now: Date): Promise<Checked> {
  const found = await linkOf(db, key, token);
  if (!found) throw invalid();
  const { link, decision } = found;
  const active = await db.query('SELECT active FROM users WHERE id = $1', [link.approver_id]);
  const approver = active.rows[0]?.active ? await loadUser(db, link.approver_id) : undefined;
  const row = await loadRecordByRef(db, link.request_pk);
  const refusal = emailLinkRefusal(link, now, sessionUserId, approver, row);
  if (refusal) throw refusalError(refusal);
  return { link, decision, approver: approver!, row: row! };
}

/** The confirmation page's view of a link (changes nothing). */
export async function checkActionLink(
  db: Queryable,
  key: Buffer,
  token: unknown,
  sessionUserId: number | null,
  now: Date,
): Promise<LinkView> {
  const { link, decision, approver, row } = await checked(db, key, token, sessionUserId, now);
  const stage = link.stage as Stage;
  return {
    decision,
    stage,
    stage_label: requestStageApprovalLabel(row, stage),
    approver_name: `${approver.first_name} ${approver.last_name}`,
    request: describeRequest(row),
    expires_at: new Date(link.expires_at).toISOString(),
  };
}

/**
 * Decides with a link: the link's rules, then the decision service as the link's approver on the link's stage and
 * version (recorded as decided from e-mail); the link is marked used in the same transaction.
 */
export async function useActionLink(
  db: Db,
  key: Buffer,
  input: { token: unknown; reason?: string | null },
  sessionUserId: number | null,
  now: Date,
): Promise<{ decision: Decision; request: RequestRecord; request_label: string }> {
  const { link, decision, approver, row } = await checked(db, key, input.token, sessionUserId, now);
  const request = await decideStage(
    db,
    approver,
    {
      ref: row.pk,
      stage: link.stage as Stage,
      decision,
      reason: decision === 'Rejected' ? (input.reason ?? '') : null,
      version: link.revision,
      via: 'email',
      inTransaction: async (c) => {
        const used = await c.query(
          'UPDATE email_action_links SET used_at = $2, used_decision = $3 WHERE id = $1 AND used_at IS NULL RETURNING id',
          [link.id, now, decision],
        );
        if (used.rowCount !== 1)
          throw new HttpError(409, 'This link was already used. A link from an e-mail works once; nothing was changed.', { code: 'used' });
      },
    },
    now,
  );
  return { decision, request, request_label: `${formTypeLabel(row.form_type)} ${row.request_id}` };
}

/** Removes links that expired more than a week ago (used ones too: the decision's event keeps the record). */
export async function pruneActionLinks(db: Queryable, now: Date): Promise<number> {
  const r = await db.query(`DELETE FROM email_action_links WHERE expires_at < $1::timestamptz - interval '7 days'`, [now]);
  return r.rowCount ?? 0;
}
