// Assistant sessions and chat history in PostgreSQL: a session row per conversation (ai_sessions, with the
// conversation state as jsonb) and every message in chat_messages, per user, so both survive restarts and
// work across server instances.
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../db/pool.js';
import { forbidden } from '../http/errors.js';
import type { AuthUser } from '../people/service.js';
import type { SessionState } from './engine/types.js';

/** A session is live while its last activity is under 24 hours old; an older one has expired. */
export const SESSION_VALIDITY_MS = 24 * 60 * 60 * 1000;
const SESSION_ID = /^[A-Za-z0-9_.:-]{8,100}$/;

export interface AiSession {
  session_id: string;
  user_id: number;
  family: string;
  user_role: string;
  state: SessionState;
  created_at: Date;
  last_activity_at: Date;
  ended_at: Date | null;
}

export function newSessionId(family: string): string {
  return `${family}-${randomBytes(16).toString('hex')}`;
}

export async function createSession(
  db: Queryable,
  user: AuthUser,
  family: string,
  role: string,
  now: Date,
  id = newSessionId(family),
): Promise<AiSession> {
  const r = await db.query(
    `INSERT INTO ai_sessions (session_id, user_id, family, user_role, created_at, last_activity_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (session_id) DO NOTHING RETURNING *`,
    [id, user.id, family, role, now],
  );
  if (!r.rows[0]) throw forbidden('This session belongs to someone else');
  return r.rows[0];
}

/**
 * The session a chat turn belongs to: the given id when it is one the server issued to the caller; else (no id,
 * an unknown, malformed or someone else's id: all alike, so nothing tells whether an id exists) the caller's
 * most recent live session of the family, else a new one with a server-made id. A client never chooses an id.
 * The id in use is returned with every answer. A session idle for 24 hours starts over with an empty state.
 */
export async function resolveSession(
  db: Queryable,
  user: AuthUser,
  family: string,
  sessionId: string | undefined,
  now: Date,
): Promise<AiSession> {
  const s = await ownSession(db, user, sessionId);
  if (s) {
    if (s.ended_at || now.getTime() - new Date(s.last_activity_at).getTime() >= SESSION_VALIDITY_MS) {
      await db.query('UPDATE ai_sessions SET state = $2, ended_at = NULL, last_activity_at = $3 WHERE session_id = $1', [
        s.session_id,
        {},
        now,
      ]);
      return { ...s, state: {}, ended_at: null, last_activity_at: now };
    }
    return s;
  }
  const r = await db.query(
    `SELECT * FROM ai_sessions WHERE user_id = $1 AND family = $2 AND ended_at IS NULL AND last_activity_at > $3
      ORDER BY last_activity_at DESC LIMIT 1`,
    [user.id, family, new Date(now.getTime() - SESSION_VALIDITY_MS)],
  );
  return r.rows[0] ?? createSession(db, user, family, user.role, now);
}

/** The caller's own session of this id, or undefined (no id, malformed, unknown, or another user's: alike). */
export async function ownSession(db: Queryable, user: AuthUser, sessionId: string | null | undefined): Promise<AiSession | undefined> {
  if (!sessionId || !SESSION_ID.test(sessionId)) return undefined;
  const r = await db.query('SELECT * FROM ai_sessions WHERE session_id = $1 AND user_id = $2', [sessionId, user.id]);
  return r.rows[0];
}

export async function saveState(db: Queryable, sessionId: string, state: SessionState, now: Date): Promise<void> {
  await db.query('UPDATE ai_sessions SET state = $2, last_activity_at = $3 WHERE session_id = $1', [sessionId, JSON.stringify(state), now]);
}

export interface ChatMessage {
  id: number;
  message_type: string;
  content: string;
  metadata: Record<string, unknown>;
  session_id: string | null;
  family: string | null;
  timestamp: string;
}

export async function saveMessage(
  db: Queryable,
  userId: number,
  m: { sessionId?: string | null; family?: string | null; type: string; content: string; metadata?: Record<string, unknown>; at: Date },
): Promise<number> {
  const r = await db.query(
    `INSERT INTO chat_messages (user_id, session_id, family, message_type, content, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [userId, m.sessionId ?? null, m.family ?? null, m.type, m.content, JSON.stringify(m.metadata ?? {}), m.at],
  );
  return r.rows[0].id;
}

function toMessage(row: any): ChatMessage {
  return {
    id: row.id,
    message_type: row.message_type,
    content: row.content,
    metadata: row.metadata ?? {},
    session_id: row.session_id,
    family: row.family,
    timestamp: new Date(row.created_at).toISOString(),
  };
}

/** The newest `max` messages of a user (optionally of one session), oldest first. */
export async function recentMessages(db: Queryable, userId: number, max: number, sessionId?: string): Promise<ChatMessage[]> {
  const r = sessionId
    ? await db.query('SELECT * FROM chat_messages WHERE user_id = $1 AND session_id = $2 ORDER BY id DESC LIMIT $3', [
        userId,
        sessionId,
        max,
      ])
    : await db.query('SELECT * FROM chat_messages WHERE user_id = $1 ORDER BY id DESC LIMIT $2', [userId, max]);
  return r.rows.map(toMessage).reverse();
}

export async function latestSession(db: Queryable, userId: number, family: string): Promise<AiSession | undefined> {
  const r = await db.query('SELECT * FROM ai_sessions WHERE user_id = $1 AND family = $2 ORDER BY last_activity_at DESC LIMIT 1', [
    userId,
    family,
  ]);
  return r.rows[0];
}

export function isLive(s: AiSession, now: Date): boolean {
  return !s.ended_at && now.getTime() - new Date(s.last_activity_at).getTime() < SESSION_VALIDITY_MS;
}

export async function withTx<T>(db: Db, fn: (c: Queryable) => Promise<T>): Promise<T> {
  return db.tx(fn);
}
