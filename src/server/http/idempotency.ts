// Idempotency-Key on writes that change requests (submissions, edits, withdrawals, decisions, IT work): a client
// that did not hear the answer retries with the same key and gets the answer of the first attempt (same status
// and body, header Idempotent-Replayed: true) instead of a second write. Keys are per signed-in user and kept
// for 24 hours (table idempotency_keys, migration 084).
//
// How: before the handler runs, the key is reserved with the call's fingerprint (method, path, query and body).
// A repeat of a finished call answers the stored answer; a repeat while the first is still running waits for it
// (concurrent duplicates do the write once); the same key with another call answers 422. The answer is stored
// when it is sent. A 5xx answer releases the key only when nothing can have been written (the database was never
// reached, or refused the write outright: read-only, full, out of connections), so the retry does the write; after
// any other failure (a connection lost mid-call, a bug after the commit) the outcome is unknown and the key stays
// unfinished: a retry is told to check whether it took effect rather than writing a second time.
// One hook for every route listed in IDEMPOTENT_ROUTES (matched on the router's route pattern).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/pool.js';
import { databaseTrouble } from '../db/unavailable.js';
import { HttpError, badRequest, conflict } from './errors.js';

/** The routes (method and route pattern) that honour Idempotency-Key. Other routes ignore the header. */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/forms/:formType',
  'POST /api/purchase-requisition/submit',
  'PUT /api/forms/:formType/:id',
  'POST /api/forms/:formType/:id/withdraw',
  'POST /api/manager/update-status',
  'POST /api/manager/acknowledge-it-incident',
  'POST /api/manager/acknowledge-password-reset',
  'POST /api/hr/update-status',
  'POST /api/finance/update-status',
  'POST /api/facilities-desk/update-status',
  'POST /api/facilities-manager/update-status',
  'POST /api/approvals/bulk',
  'POST /api/it-support/save-ticket-details',
  'POST /api/it-support/close-ticket',
  'POST /api/it-support/save-password-reset-details',
  'POST /api/user-confirmation/confirm-problem-solved',
  'POST /api/user-confirmation/reject-resolution',
]);

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a repeat waits for the first attempt still running before answering 409. */
const WAIT_MS = 10_000;
/** A reservation without an answer after this long belongs to an attempt that never finished (a crash). */
const ABANDONED_MS = 60_000;

const KEY_FORMAT = /^[\x21-\x7e]{1,200}$/;

interface Reservation {
  userId: number;
  key: string;
  error?: unknown;
}

/** Failures after which nothing of the call can have been stored: the database was never reached, or refused the write. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN']);
export function nothingWritten(err: unknown): boolean {
  const t = databaseTrouble(err);
  if (!t) return false;
  if (
    t.reason === 'read-only' ||
    t.reason === 'disk-full' ||
    t.reason === 'too-many-connections' ||
    t.reason === 'out-of-memory' ||
    t.reason === 'insufficient-resources'
  )
    return true;
  if (t.code && NEVER_CONNECTED.has(t.code)) return true;
  return t.reason === 'timeout' && /timeout exceeded when trying to connect/.test(String((err as Error)?.message ?? ''));
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Reservation;
  }
}

/** JSON with sorted keys (the fingerprint of a body does not depend on key order); secrets are left out. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => !/password/i.test(k))
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

function fingerprintOf(req: FastifyRequest): string {
  return createHash('sha256')
    .update(`${req.method} ${req.url}\n${canonical(req.body)}`)
    .digest('base64url');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function registerIdempotency(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('preHandler', async (req, reply) => {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined) return;
    if (!IDEMPOTENT_ROUTES.has(`${req.method} ${req.routeOptions.url}`) || !req.user) return;
    const key = Array.isArray(raw) ? '' : raw.trim();
    if (!KEY_FORMAT.test(key)) throw badRequest('Idempotency-Key must be 1 to 200 visible ASCII characters');
    const fingerprint = fingerprintOf(req);
    const userId = req.user.id;
    const deadline = Date.now() + WAIT_MS;

    for (;;) {
      const at = now();
      // Reserve the key; an expired entry of the same key is taken over.
      const r = await db.query(
        `INSERT INTO idempotency_keys (user_id, idem_key, fingerprint, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id, idem_key) DO UPDATE
            SET fingerprint = EXCLUDED.fingerprint, status = NULL, headers = NULL, body = NULL, created_at = EXCLUDED.created_at, completed_at = NULL
          WHERE idempotency_keys.created_at < EXCLUDED.created_at - make_interval(secs => $5::double precision / 1000)
         RETURNING 1`,
        [userId, key, fingerprint, at, IDEMPOTENCY_TTL_MS],
      );
      if (r.rowCount === 1) {
        req.idempotency = { userId, key };
        if (Math.random() < 0.01) {
          await db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(at.getTime() - IDEMPOTENCY_TTL_MS)]);
        }
        return;
      }
      const prev = (
        await db.query('SELECT fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE user_id = $1 AND idem_key = $2', [
          userId,
          key,
        ])
      ).rows[0] as
        | { fingerprint: string; status: number | null; headers: Record<string, string> | null; body: string | null; created_at: Date }
        | undefined;
      if (!prev) continue; // released meanwhile (the first attempt failed): reserve again
      if (prev.fingerprint !== fingerprint) {
        throw new HttpError(422, 'This Idempotency-Key was already used for a different request; use a new key for a new request');
      }
      if (prev.status !== null) return replay(reply, prev.status, prev.headers, prev.body);
      if (at.getTime() - new Date(prev.created_at).getTime() > ABANDONED_MS) {
        throw conflict(
          'An earlier attempt with this Idempotency-Key did not finish; check whether it took effect before trying again with a new key',
        );
      }
      if (Date.now() > deadline) throw conflict('A request with this Idempotency-Key is still in progress; try again shortly');
      await sleep(25);
    }
  });

  app.addHook('onError', async (req, _reply, err) => {
    if (req.idempotency) req.idempotency.error = err;
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const res = req.idempotency;
    if (!res) return payload;
    req.idempotency = undefined;
    try {
      if (reply.statusCode >= 500) {
        if (nothingWritten(res.error)) {
          await db.query('DELETE FROM idempotency_keys WHERE user_id = $1 AND idem_key = $2 AND status IS NULL', [res.userId, res.key]);
        } else {
          req.log.warn({ key: res.key }, 'a call with an Idempotency-Key failed with an unknown outcome; the key stays unfinished');
        }
      } else {
        const type = reply.getHeader('content-type');
        await db.query(
          'UPDATE idempotency_keys SET status = $3, headers = $4, body = $5, completed_at = $6 WHERE user_id = $1 AND idem_key = $2',
          [
            res.userId,
            res.key,
            reply.statusCode,
            JSON.stringify(type ? { 'content-type': String(type) } : {}),
            typeof payload === 'string' ? payload : payload == null ? '' : String(payload),
            now(),
          ],
        );
      }
    } catch (err) {
      // The answer itself stands; a retry then finds the key unfinished (409, outcome unknown) rather than a second write.
      req.log.warn({ err }, 'could not store the answer of an Idempotency-Key');
    }
    return payload;
  });
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string> | null, body: string | null): FastifyReply {
  reply
    .code(status)
    .headers(headers ?? {})
    .header('idempotent-replayed', 'true');
  return reply.send(body ?? '');
}
