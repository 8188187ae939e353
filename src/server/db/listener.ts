// One LISTEN connection to PostgreSQL with reconnection: the per-instance caches (queues, sessions) hear
// every committed change of every instance through it. While it is not connected `listening` is false and
// the caches keep nothing; `onReset` runs whenever the connection is lost or (re)established, so a cache can
// drop what it holds, since changes may have been missed meanwhile. Reconnection backs off from 250 ms to 10 s;
// a ping every `pingMs` finds a connection that went silent (a network stall) without an error.
import pg from 'pg';
import type { DatabaseLimits } from '../config.js';
import { connectionConfig } from './pool.js';

export interface ListenerLogger {
  warn(obj: unknown, msg?: string): void;
}

export class PgListener {
  private client: pg.Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private closed = false;
  private pingTimer: NodeJS.Timeout | null = null;
  listening = false;
  /** Times the connection was (re)established after a loss (for tests and metrics). */
  reconnects = 0;

  private readonly url: string;
  private readonly limits: DatabaseLimits | undefined;

  constructor(
    /** A database URL (default time limits), or the Db handle whose URL and time limits it uses. */
    target: string | { url: string; limits: DatabaseLimits },
    private readonly channels: string[],
    private readonly handlers: {
      onMessage: (channel: string, payload: string) => void;
      onReset: () => void;
    },
    private readonly log: ListenerLogger,
    private readonly name: string,
    private readonly pingMs = 15_000,
  ) {
    this.url = typeof target === 'string' ? target : target.url;
    this.limits = typeof target === 'string' ? undefined : target.limits;
  }

  async start(): Promise<void> {
    if (this.closed || this.client) return;
    const client = new pg.Client(connectionConfig(this.url, this.limits));
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.listening = false;
      this.handlers.onReset();
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (!this.closed) {
        this.log.warn({ err: err?.message }, `${this.name} listener lost; reconnecting`);
        this.scheduleReconnect();
      }
    };
    client.on('notification', (msg) => {
      if (this.channels.includes(msg.channel)) this.handlers.onMessage(msg.channel, msg.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      for (const ch of this.channels) await client.query(`LISTEN ${ch}`);
    } catch (err) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      if (!this.closed) {
        this.log.warn({ err: (err as Error).message }, `${this.name} listener could not connect; caching off`);
        this.scheduleReconnect();
      }
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    if (this.attempts > 0 || this.hadConnection) this.reconnects += 1;
    this.hadConnection = true;
    this.client = client;
    this.attempts = 0;
    this.handlers.onReset(); // changes made while nobody listened
    this.listening = true;
    this.startPing();
  }

  private hadConnection = false;

  private startPing() {
    if (this.pingTimer || !this.pingMs) return;
    this.pingTimer = setInterval(() => {
      const c = this.client;
      // A ping that fails or gets no answer in time (query timeout) counts as a lost connection.
      if (c) c.query('SELECT 1').catch((err) => c.emit('error', err));
    }, this.pingMs);
    this.pingTimer.unref?.();
  }

  private scheduleReconnect() {
    if (this.closed || this.reconnectTimer) return;
    const delay = Math.min(10_000, 250 * 2 ** this.attempts);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.start();
    }, delay);
    this.reconnectTimer.unref?.();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners();
      c.on('error', () => undefined);
      await c.end().catch(() => undefined);
    }
  }
}
