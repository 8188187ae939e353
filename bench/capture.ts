// The raw database path of an endpoint: the app is built in-process on the bench database with a Db that
// records every statement; one call of the endpoint (through inject) yields the statements its service ran,
// after the one of session authentication. Replaying them through pg is "the same reads, without HTTP".
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { type Db, type Sql, createDb } from '../src/server/db/pool.js';

/** A statement as the server ran it; `name` when it was a prepared statement (the replay prepares it too). */
export interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

const asStatement = (q: Sql | { name?: string; text: string; values?: unknown[] }, values: unknown): Statement =>
  typeof q === 'string'
    ? { text: q, values: Array.isArray(values) ? values : [] }
    : { text: q.text, name: q.name, values: Array.isArray(values) ? values : ((q as { values?: unknown[] }).values ?? []) };

/**
 * Runs a captured statement the way the server did: through a pg pool (the raw path), or through a database handle
 * of the server's (createDb: its pipelined connections).
 */
export function replay(via: pg.Pool | Db, st: Statement) {
  if ('tx' in via) return via.query(st.name ? { name: st.name, text: st.text } : st.text, st.values);
  return st.name ? via.query({ name: st.name, text: st.text, values: st.values as any[] }) : via.query(st.text, st.values as any[]);
}

export interface Capturer {
  app: FastifyInstance;
  /** The statements one call of `url` runs after authentication. */
  capture(token: string, url: string, method?: 'GET' | 'POST', body?: unknown, headers?: Record<string, string>): Promise<Statement[]>;
  close(): Promise<void>;
}

export async function startCapturer(databaseUrl: string): Promise<Capturer> {
  const db: Db = createDb(databaseUrl, 4);
  let log: Statement[] | null = null;
  const realQuery = db.query;
  db.query = (text: Sql, values?: unknown[]) => {
    log?.push(asStatement(text, values));
    return realQuery(text, values);
  };
  // Clients taken for transactions (db.tx) record too, while they are checked out that way. pool.query itself
  // calls connect with a callback and then the client's query: that path is recorded once, by db.query above (a
  // client once used for a transaction and back in the pool must not record it a second time).
  const realConnect = db.pool.connect.bind(db.pool) as (cb?: any) => any;
  (db.pool as any).connect = (cb?: any) => {
    if (typeof cb === 'function') return realConnect(cb);
    return (realConnect() as Promise<pg.PoolClient>).then((client) => {
      const c = client as any;
      if (!c.__recording) {
        const q = client.query.bind(client) as (...a: any[]) => any;
        c.query = (text: any, ...rest: any[]) => {
          if (c.__checkedOut && (typeof text === 'string' || typeof text?.text === 'string')) log?.push(asStatement(text, rest[0]));
          return q(text, ...rest);
        };
        c.__recording = true;
      }
      // pg-pool gives the client a new release function at every checkout: it is wrapped each time, so the
      // client stops recording when this checkout ends (a client still marked checked out would record the
      // statements of later pool.query calls a second time).
      const release = client.release.bind(client);
      c.release = (...a: any[]) => {
        c.__checkedOut = false;
        return release(...a);
      };
      c.__checkedOut = true;
      return client;
    });
  };
  // Without the per-instance answer cache: a capture records the statements an answer costs. (Until 2026-11-29 queues
  // answered from it whatever the request's Cache-Control said, so a call repeated while capturing recorded nothing;
  // they honour no-cache now, and the cache stays off here all the same.)
  const config = {
    ...loadConfig({ ...process.env, ADMINEASE_WEB_DIR: '/nonexistent', ADMINEASE_QUEUE_CACHE: '0' }),
    databaseUrl,
    logLevel: 'silent',
  };
  const app = await buildApp({ db, config, logger: false });
  await app.ready();
  // What the app starts on its own (the reset-password sweep's first pass) is not part of any endpoint's work.
  await new Promise((r) => setTimeout(r, 1500));
  return {
    app,
    async capture(token, url, method = 'GET', body, headers = {}) {
      log = [];
      const res = await app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      const got = log;
      log = null;
      if (res.statusCode !== 200) throw new Error(`capture ${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      // Authentication runs first: the session lookup (with its user, in one statement), unless the session
      // cache already knows the session.
      return /FROM sessions/.test(got[0]?.text ?? '') ? got.slice(1) : got;
    },
    async close() {
      await app.close();
      await db.close();
    },
  };
}
