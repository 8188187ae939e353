// Assistant sessions under /ai/{family}/session/*. The family (manager, hr, finance, it, facilities,
// simple) only namespaces the session: any signed-in user may open one under any family. Every user_id in a
// body must be the caller's own (user id, employee code, or for HR staff their hr_id), else 403.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSessionManagerRole } from '../../domain/roles.js';
import { endSignInSession } from '../auth/routes.js';
import { badRequest, forbidden } from '../http/errors.js';
import { type AuthUser, isSelfRef } from '../people/service.js';
import {
  type AiSession,
  SESSION_VALIDITY_MS,
  createSession,
  isLive,
  latestSession,
  ownSession,
  recentMessages,
  saveMessage,
} from './sessions.js';

export const FAMILIES = ['manager', 'hr', 'finance', 'it', 'facilities', 'simple', 'admin'] as const;
const FamilyParams = z.object({ family: z.enum(FAMILIES, { message: 'Unknown assistant family' }) });
const UserRef = z.union([z.string().max(100), z.number()], { message: 'user_id is required' });
const SessionLoginSchema = z.object({ user_id: UserRef, user_role: z.string().max(200).optional() });
const UserOnlySchema = z.object({ user_id: UserRef });
/** Signing out needs no id (the session says who signs out); one that is sent must be the caller's own. */
const LogoutSchema = z.object({ user_id: UserRef.nullish() });
const HistorySchema = z.object({ user_id: UserRef, max_items: z.coerce.number().int().min(1).max(100).default(10) });
const CleanupSchema = z.object({
  hours: z.coerce
    .number()
    .min(0)
    .max(24 * 365)
    .default(24),
});
const SaveChatSchema = z.object({
  user_id: UserRef,
  message_type: z.string().trim().min(1, 'message_type is required').max(40),
  content: z.string().max(20_000, 'content can have at most 20000 characters'),
  metadata: z.record(z.string(), z.unknown()).optional().default({}),
});
const ChatHistorySchema = z.object({ user_id: UserRef, max_messages: z.coerce.number().int().min(1).max(500).default(20) });

function assertSelf(user: AuthUser, ref: string | number) {
  if (!isSelfRef(user, ref)) throw forbidden('user_id is not yours');
}

/** The spec's Session entity. */
function sessionView(s: AiSession) {
  return {
    sessionId: s.session_id,
    userId: s.user_id,
    userRole: s.user_role,
    createdAt: new Date(s.created_at).toISOString(),
    lastActivity: new Date(s.last_activity_at).toISOString(),
    isManager: isSessionManagerRole(s.user_role),
  };
}

export default async function assistantSessionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.ctx;

  app.post('/ai/:family/session/login', { schema: { params: FamilyParams, body: SessionLoginSchema } }, async (req) => {
    const { family } = req.params;
    const body = req.body;
    assertSelf(req.user, body.user_id);
    // the role is the signed-in user's: a body cannot claim another one
    const s = await createSession(db, req.user, family, req.user.role, clock.now());
    return { success: true, session_id: s.session_id, user_id: body.user_id, user_role: req.user.role };
  });

  // The spec's client signs out with this call alone ('ends the backend session'): the assistant sessions of the
  // family end, and so does the caller's sign-in session (revoked, cookie cleared), as POST /api/auth/logout does.
  app.post('/ai/:family/session/logout', { schema: { params: FamilyParams, body: LogoutSchema } }, async (req, reply) => {
    const { family } = req.params;
    const body = req.body;
    if (body.user_id !== undefined && body.user_id !== null && String(body.user_id).trim() !== '') assertSelf(req.user, body.user_id);
    const r = await db.query('UPDATE ai_sessions SET ended_at = $3 WHERE user_id = $1 AND family = $2 AND ended_at IS NULL', [
      req.user.id,
      family,
      clock.now(),
    ]);
    await endSignInSession(fastify, req, reply);
    return { success: true, sessions_ended: r.rowCount };
  });

  app.post('/ai/:family/session/status', { schema: { params: FamilyParams, body: UserOnlySchema } }, async (req) => {
    const { family } = req.params;
    const body = req.body;
    assertSelf(req.user, body.user_id);
    const s = await latestSession(db, req.user.id, family);
    const now = clock.now();
    const active = Boolean(s && isLive(s, now));
    return {
      success: true,
      active,
      valid: active,
      session: s ? sessionView(s) : null,
      expires_at: s && active ? new Date(new Date(s.last_activity_at).getTime() + SESSION_VALIDITY_MS).toISOString() : null,
    };
  });

  app.post('/ai/:family/session/conversation-history', { schema: { params: FamilyParams, body: HistorySchema } }, async (req) => {
    const { family } = req.params;
    const body = req.body;
    assertSelf(req.user, body.user_id);
    const header = req.headers['x-session-id'];
    const given = typeof header === 'string' && header.trim() ? header.trim() : undefined;
    // Only an id the server issued to the caller is used; any other (unknown or someone else's) reads as no
    // session at all: an empty history and session_id null, so the answer never tells whether an id exists.
    const sessionId = given
      ? (await ownSession(db, req.user, given))?.session_id
      : (await latestSession(db, req.user.id, family))?.session_id;
    const items = sessionId ? await recentMessages(db, req.user.id, body.max_items, sessionId) : [];
    const history = items.map((m) => ({
      role: m.message_type === 'user' ? 'user' : 'assistant',
      content: m.content,
      timestamp: m.timestamp,
      metadata: m.metadata,
    }));
    return { success: true, session_id: sessionId ?? null, history, count: history.length };
  });

  app.post('/ai/:family/session/cleanup', { schema: { params: FamilyParams, body: CleanupSchema } }, async (req) => {
    const { family } = req.params;
    const body = req.body;
    const now = clock.now();
    // only the caller's own sessions: nobody ends other people's conversations
    const r = await db.query(
      'UPDATE ai_sessions SET ended_at = $3 WHERE user_id = $1 AND family = $2 AND ended_at IS NULL AND last_activity_at <= $4',
      [req.user.id, family, now, new Date(now.getTime() - body.hours * 3_600_000)],
    );
    return { success: true, cleaned: r.rowCount, hours: body.hours };
  });

  app.get('/ai/:family/session/stats', { schema: { params: FamilyParams } }, async (req) => {
    const { family } = req.params;
    const now = clock.now();
    const r = await db.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE ended_at IS NULL AND last_activity_at > $3)::int AS active,
              max(last_activity_at) AS last_activity
         FROM ai_sessions WHERE user_id = $1 AND family = $2`,
      [req.user.id, family, new Date(now.getTime() - SESSION_VALIDITY_MS)],
    );
    const m = await db.query('SELECT count(*)::int AS n FROM chat_messages WHERE user_id = $1', [req.user.id]);
    const row = r.rows[0];
    return {
      success: true,
      family,
      total_sessions: row.total,
      active_sessions: row.active,
      total_messages: m.rows[0].n,
      last_activity: row.last_activity ? new Date(row.last_activity).toISOString() : null,
      session_timeout_hours: SESSION_VALIDITY_MS / 3_600_000,
    };
  });

  app.post('/ai/:family/session/save-chat', { schema: { params: FamilyParams, body: SaveChatSchema } }, async (req) => {
    const { family } = req.params;
    const body = req.body;
    assertSelf(req.user, body.user_id);
    if (JSON.stringify(body.metadata).length > 10_000) throw badRequest('metadata is too large');
    const header = req.headers['x-session-id'];
    const given = typeof header === 'string' && header.trim() ? header.trim() : null;
    // A message is filed under a session only when the server issued that id to the caller; else under none.
    const sessionId = (await ownSession(db, req.user, given))?.session_id ?? null;
    const id = await saveMessage(db, req.user.id, {
      sessionId,
      family,
      type: body.message_type,
      content: body.content,
      metadata: { ...body.metadata, source: 'save-chat' },
      at: clock.now(),
    });
    return { success: true, id };
  });

  app.post('/ai/:family/session/chat-history', { schema: { params: FamilyParams, body: ChatHistorySchema } }, async (req) => {
    const body = req.body;
    assertSelf(req.user, body.user_id);
    return recentMessages(db, req.user.id, body.max_messages);
  });
}
