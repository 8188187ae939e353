// The live-update hub of one server instance: a dedicated PostgreSQL connection LISTENs on the live channel
// (reconnecting on error), and every Server-Sent Events client of this instance gets its user's new notifications
// and the request changes it may see, whichever instance made the change. A stream belongs to the session that
// opened it and ends with it: at logout (on this instance at once, on the others through the session signal
// of migration 060), when the session is revoked or deleted, and when it reaches its idle or absolute end.
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { LIVE_CHANNEL, type LivePayload } from '../events/notify.js';
import { SESSION_CHANNEL } from '../auth/session-cache.js';
import { type Db, connectionConfig } from '../db/pool.js';
import { NOTIFICATION_SELECT, toApiNotification, type NotificationRow } from './service.js';

export interface HubLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface HubOptions {
  /** Comment line sent to every client this often, so proxies keep the stream open (default 20 s). */
  heartbeatMs?: number;
  /** A stream is ended after this long so the browser reconnects and its session is checked again (default 30 min). */
  maxStreamMs?: number;
  /** Called for every payload received (the mailer wakes up on new notifications). */
  onPayload?: (p: LivePayload) => void;
}

export interface LiveClient {
  userId: number;
  userType: string;
  /** The session that opened the stream (SHA-256 of its token). */
  tokenHash: string;
  res: ServerResponse;
  /** Notifications with an id up to this one existed when the stream opened (or were acknowledged by Last-Event-ID). */
  baseline: number;
  /** Ids already sent on this stream (bounded). */
  sent: Set<number>;
  timer?: NodeJS.Timeout;
}

const SENT_LIMIT = 1000;

export class LiveHub {
  readonly clients = new Set<LiveClient>();
  private readonly byUser = new Map<number, Set<LiveClient>>();
  private readonly bySession = new Map<string, Set<LiveClient>>();
  private listener: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private attempts = 0;
  private closed = false;
  state: 'idle' | 'connecting' | 'listening' | 'reconnecting' | 'closed' = 'idle';

  constructor(
    private readonly db: Db,
    private readonly log: HubLogger,
    private readonly opts: HubOptions = {},
  ) {}

  /** Starts listening (once); resolves when LISTEN is active. Rejects if the first connection fails. */
  ensureListening(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('live hub is closed'));
    if (this.state === 'listening') return Promise.resolve();
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async connect(): Promise<void> {
    this.state = this.state === 'idle' ? 'connecting' : 'reconnecting';
    // The pool's connect timeout and keepalives (a stalled connection attempt must not hang the stream's start).
    const client = new pg.Client(connectionConfig(this.db.url, this.db.limits));
    client.on('notification', (msg) => {
      if (msg.channel === SESSION_CHANNEL) {
        // A revoked or deleted session names its token hash; '' (people or sessions changed in bulk): check all.
        if (msg.payload) this.endSession(msg.payload);
        else void this.recheckSessions().catch((err) => this.log.error({ err }, 'live stream session check failed'));
        return;
      }
      if (msg.channel !== LIVE_CHANNEL || !msg.payload) return;
      let p: LivePayload;
      try {
        p = JSON.parse(msg.payload);
      } catch {
        return;
      }
      this.opts.onPayload?.(p);
      void this.dispatch(p).catch((err) => this.log.error({ err }, 'live update delivery failed'));
    });
    const lost = (err?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.log.warn({ err: err?.message }, 'live update listener lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${LIVE_CHANNEL}; LISTEN ${SESSION_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      if (this.closed) return;
      this.state = 'reconnecting';
      this.scheduleReconnect();
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    const wasReconnect = this.attempts > 0 || this.state === 'reconnecting';
    this.listener = client;
    this.state = 'listening';
    this.attempts = 0;
    this.startHeartbeat();
    // Changes committed while nobody listened: sessions ended meanwhile close their streams, and the connected
    // clients get what they have not had yet. Not awaited: while this connection attempt is pending, a reconnect
    // of a connection lost meanwhile would join it and be lost.
    if (wasReconnect) {
      void this.recheckSessions()
        .catch((err) => this.log.error({ err: (err as Error).message }, 'live stream session check failed'))
        .then(() => this.catchUp())
        .catch((err) => this.log.error({ err: (err as Error).message }, 'live update catch-up failed'));
    }
  }

  private scheduleReconnect() {
    if (this.closed || this.reconnectTimer) return;
    this.state = 'reconnecting';
    const delay = Math.min(5000, 250 * 2 ** this.attempts);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.ensureListening().catch((err) => this.log.warn({ err: (err as Error).message }, 'live update listener reconnect failed'));
    }, delay);
    this.reconnectTimer.unref?.();
  }

  private startHeartbeat() {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const c of this.clients) this.write(c, `: heartbeat ${Date.now()}\n\n`);
      // A listening connection that fails to answer a ping (a silent network stall) counts as lost.
      const l = this.listener;
      if (l) l.query('SELECT 1').catch((err) => l.emit('error', err));
    }, this.opts.heartbeatMs ?? 20_000);
    this.heartbeat.unref?.();
  }

  /** Registers an open stream; `replayAfter` is the Last-Event-ID the browser sent on reconnect, if any. */
  async addClient(input: {
    userId: number;
    userType: string;
    tokenHash: string;
    sessionRemainingMs?: number;
    res: ServerResponse;
    replayAfter?: number;
  }): Promise<LiveClient> {
    const max = await this.db.query('SELECT coalesce(max(id), 0) AS id FROM notifications WHERE user_id = $1', [input.userId]);
    const client: LiveClient = {
      userId: input.userId,
      userType: input.userType,
      tokenHash: input.tokenHash,
      res: input.res,
      baseline: input.replayAfter ?? max.rows[0].id,
      sent: new Set(),
    };
    this.clients.add(client);
    const set = this.byUser.get(client.userId) ?? new Set();
    set.add(client);
    this.byUser.set(client.userId, set);
    const sessionSet = this.bySession.get(client.tokenHash) ?? new Set();
    sessionSet.add(client);
    this.bySession.set(client.tokenHash, sessionSet);
    // Ends at the stream's own limit or when the session does, whichever comes first (the browser reconnects
    // and its session is checked again).
    const maxMs = Math.max(
      0,
      Math.min(
        this.opts.maxStreamMs ?? 30 * 60_000,
        Number.isFinite(input.sessionRemainingMs) ? input.sessionRemainingMs! : Number.POSITIVE_INFINITY,
      ),
    );
    client.timer = setTimeout(() => this.end(client), maxMs);
    client.timer.unref?.();
    this.write(client, `event: ready\ndata: ${JSON.stringify({ last_id: max.rows[0].id })}\n\n`);
    if (input.replayAfter !== undefined) await this.sendPending(client);
    return client;
  }

  removeClient(client: LiveClient) {
    if (client.timer) clearTimeout(client.timer);
    this.clients.delete(client);
    const set = this.byUser.get(client.userId);
    if (set) {
      set.delete(client);
      if (set.size === 0) this.byUser.delete(client.userId);
    }
    const sessionSet = this.bySession.get(client.tokenHash);
    if (sessionSet) {
      sessionSet.delete(client);
      if (sessionSet.size === 0) this.bySession.delete(client.tokenHash);
    }
  }

  /** Ends every stream of a session that ended (logout, revocation, deletion). */
  endSession(tokenHash: string) {
    for (const c of [...(this.bySession.get(tokenHash) ?? [])]) this.end(c);
  }

  /** Ends the streams whose session is no longer stored as live (after a bulk change or a missed signal). */
  private async recheckSessions() {
    const hashes = [...this.bySession.keys()];
    if (hashes.length === 0) return;
    const r = await this.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM sessions WHERE token_hash = ANY($1::text[]) AND revoked_at IS NULL',
      [hashes],
    );
    const live = new Set(r.rows.map((row) => row.token_hash));
    for (const h of hashes) if (!live.has(h)) this.endSession(h);
  }

  private end(client: LiveClient) {
    this.removeClient(client);
    if (!client.res.writableEnded) client.res.end();
  }

  private write(client: LiveClient, chunk: string) {
    if (client.res.writableEnded || client.res.destroyed) {
      this.removeClient(client);
      return;
    }
    client.res.write(chunk);
  }

  private sendNotification(client: LiveClient, row: NotificationRow) {
    if (client.sent.has(row.id) || row.read_at) return;
    client.sent.add(row.id);
    if (client.sent.size > SENT_LIMIT) client.sent.delete(client.sent.values().next().value as number);
    this.write(client, `id: ${row.id}\nevent: notification\ndata: ${JSON.stringify(toApiNotification(row))}\n\n`);
  }

  /** Sends a client the unread notifications after its baseline that it has not had. */
  private async sendPending(client: LiveClient) {
    const r = await this.db.query(`${NOTIFICATION_SELECT} WHERE user_id = $1 AND id > $2 AND read_at IS NULL ORDER BY id LIMIT 100`, [
      client.userId,
      client.baseline,
    ]);
    for (const row of r.rows) this.sendNotification(client, row);
  }

  private async catchUp() {
    for (const client of [...this.clients]) await this.sendPending(client);
  }

  private async dispatch(p: LivePayload) {
    if (p.k === 'n') {
      // Only the notifications of people with an open stream here are read.
      const owner = new Map<number, number>();
      for (let i = 0; i < p.n.length; i += 1) if (this.byUser.get(p.u[i])?.size) owner.set(Number(p.n[i]), p.u[i]);
      if (owner.size === 0) return;
      const r = await this.db.query(`${NOTIFICATION_SELECT} WHERE id = ANY($1::bigint[]) ORDER BY id`, [[...owner.keys()]]);
      for (const row of r.rows) for (const c of this.byUser.get(owner.get(Number(row.id))!) ?? []) this.sendNotification(c, row);
      return;
    }
    if (p.k === 'r') {
      const data = `event: request-changed\ndata: ${JSON.stringify({ request_id: p.r, form_type: p.f })}\n\n`;
      for (const c of this.clients) if (p.u.includes(c.userId) || p.t.includes(c.userType)) this.write(c, data);
    }
  }

  /** Ends every stream (before the HTTP server closes, so it does not wait for them). */
  endAll() {
    for (const c of [...this.clients]) this.end(c);
  }

  async close() {
    this.closed = true;
    this.state = 'closed';
    this.endAll();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.reconnectTimer = null;
    this.heartbeat = null;
    const l = this.listener;
    this.listener = null;
    if (l) await l.end().catch(() => undefined);
    if (this.connecting) await this.connecting.catch(() => undefined);
  }

  /** For tests: drops the listening connection as a network failure would. */
  simulateConnectionLoss() {
    this.listener?.emit('error', new Error('simulated connection loss'));
  }
}
