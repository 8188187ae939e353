// The database handle: one pg pool, a query helper and transactions. Every feature reaches PostgreSQL through it.
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { DatabaseLimits } from '../config.js';
import { type Log, currentLogger, moduleLogger } from '../logger.js';
import { databaseTrouble } from './unavailable.js';

// bigint ids and counts fit in a JS number here; numeric amounts are read as numbers.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
// dates stay 'YYYY-MM-DD' strings: no time-zone shifts.
pg.types.setTypeParser(1082, (v) => v);

/**
 * A statement PostgreSQL parses and plans once per connection and then reuses (a named prepared statement). For
 * the hot, fixed-text queries whose planning costs more than running them: reading one request with its people
 * and approvals takes about 0.34 ms to plan and 0.06 ms to execute. Make them once, at module level.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

export function prepared(text: string): Prepared {
  let p = preparedByText.get(text);
  if (!p) {
    p = { name: `ae_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
    if (preparedByText.size < 500) preparedByText.set(text, p);
  }
  return p;
}
const preparedByText = new Map<string, Prepared>();

/** Text or a prepared statement, as pg's query takes it. */
export type Sql = string | Prepared;

/** Anything that runs a query: the Db, a pool client inside a transaction (pg's clients take a Prepared as it is). */
export interface Queryable {
  query<R extends pg.QueryResultRow = any>(text: Sql, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface Db {
  /** The pool: transactions (tx) and anything that needs a connection of its own. */
  pool: pg.Pool;
  url: string;
  /** The time limits every connection of this handle has (dedicated LISTEN connections use them too). */
  limits: DatabaseLimits;
  /** A statement on its own (its own transaction): through the pipelined connections when there are some, else the pool. */
  query: <R extends pg.QueryResultRow = any>(text: Sql, params?: unknown[]) => Promise<pg.QueryResult<R>>;
  tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The time limits when none are given (the defaults of the configuration's DATABASE_*_TIMEOUT_MS). */
export const DEFAULT_DATABASE_LIMITS: DatabaseLimits = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
};

/** Pool connections when none are given (the configuration's DATABASE_POOL_MAX default). */
export const DEFAULT_POOL_MAX = 20;

/** Pipelined connections for statements on their own when none are given (DATABASE_PIPELINE_CONNECTIONS' default). */
export const DEFAULT_PIPELINE_CONNECTIONS = 4;

/** A lost connection: logged with the request's logger when it happens while serving one, else the db logger. */
const logDbError = (log: Log, msg: string, err: Error) => currentLogger(log).error({ err: err.message, code: (err as any).code }, msg);

/**
 * The settings of every connection to `url`: a connection attempt gives up after the connect timeout; PostgreSQL
 * cancels a statement after the statement timeout and ends a session left idle inside a transaction; the client
 * itself gives up on an answer a little after the statement timeout (a network stall, which the server cannot
 * see); TCP keepalives find a vanished peer on idle connections.
 */
export function connectionConfig(url: string, limits: DatabaseLimits = DEFAULT_DATABASE_LIMITS): pg.ClientConfig {
  return {
    connectionString: url,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(limits.connectTimeoutMs ? { connectionTimeoutMillis: limits.connectTimeoutMs } : {}),
    ...(limits.statementTimeoutMs
      ? { statement_timeout: limits.statementTimeoutMs, query_timeout: limits.statementTimeoutMs + 5_000 }
      : {}),
    ...(limits.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs } : {}),
  };
}

/**
 * A pg client that always has an 'error' listener: pg emits 'error' on a client whose connection breaks, and an
 * EventEmitter with no listener throws it, which would end the process. pg-pool listens only while a client is
 * idle, so a connection lost while checked out (inside a transaction, during a migration) would do exactly that.
 * The client is unusable afterwards and the pool drops it when it is released.
 */
function guardedClient(log: Log): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super(config);
      // Logged here only when nobody else handles it (the pool logs its idle clients' errors itself).
      this.on('error', (err) => {
        if (this.listenerCount('error') === 1) logDbError(log, 'database connection lost', err);
      });
    }
  };
}

/**
 * An error that leaves its connection unusable: a FATAL or PANIC from PostgreSQL (the session was ended: terminated,
 * shutting down), or a broken socket (no severity, and database trouble: refused, reset, terminated, timed out).
 */
function connectionLost(err: unknown): boolean {
  const e = err as { severity?: string } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.severity !== undefined) return e.severity === 'FATAL' || e.severity === 'PANIC';
  return databaseTrouble(err) !== undefined;
}

/**
 * PostgreSQL ended the session on purpose and said so before closing it: admin_shutdown (pg_terminate_backend, a
 * fast shutdown, a failover tool) or idle_session_timeout. It raises these where it checks for interrupts, never
 * while committing, and a statement's CommandComplete goes out before its commit: a statement that had no
 * CommandComplete when this arrived, on its connection, did not take effect. (A socket that simply breaks says no
 * such thing: the statements on it may or may not have run.)
 */
const sessionEnded = (err: unknown): boolean => {
  const code = (err as { code?: string } | null)?.code;
  return code === '57P01' || code === '57P05';
};

/** A statement, text or prepared, on the pool. */
function send(on: pg.Pool, text: Sql, params: unknown[] | undefined): Promise<pg.QueryResult> {
  const values = params as any[];
  return on.query(typeof text === 'string' ? { text, values } : { name: text.name, text: text.text, values });
}

/**
 * How one prepared statement's rows are made: its columns (name and type, checked against every result's
 * description) and a function that makes a row from the values of a DataRow. pg builds the same things again for
 * every result (a template object, then a copy of it per row filled by name); on a one-row read that was about a
 * tenth of the server's time (bench/README.md, diary of 2026-11-30 05:00). The function is compiled once per statement
 * and column list, as an object literal of the columns in order, so every row has one fixed shape; a value is null
 * or the type's parser applied to its text, as pg does. Results in binary, or with a column named `__proto__`, are
 * left to pg. The type parsers are pg's global ones when the shape is first made (this module sets them on load; the
 * pipelined connections have no parsers of their own).
 */
interface RowShape {
  names: string[];
  types: number[];
  row: (values: Array<string | null>) => Record<string, unknown>;
}

const rowShapes = new Map<string, RowShape | null>();

function rowShapeOf(name: string, fields: pg.FieldDef[]): RowShape | null {
  const known = rowShapes.get(name);
  if (known === null) return null;
  if (
    known &&
    known.names.length === fields.length &&
    fields.every((f, i) => f.name === known.names[i] && f.dataTypeID === known.types[i] && f.format !== 'binary')
  )
    return known;
  if (!known && rowShapes.size >= 1000) return null;
  const shape = makeRowShape(fields);
  rowShapes.set(name, shape);
  return shape;
}

function makeRowShape(fields: pg.FieldDef[]): RowShape | null {
  if (fields.some((f) => f.format === 'binary' || f.name === '__proto__')) return null;
  const parsers = fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text'));
  const locals = fields.map((_, i) => `const p${i} = p[${i}];`).join(' ');
  const props = fields.map((f, i) => `${JSON.stringify(f.name)}: v[${i}] === null ? null : p${i}(v[${i}])`).join(', ');
  // The column names are written as JSON string literals: nothing of them is read as code.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const row = new Function('p', `${locals} return function row(v) { return { ${props} }; };`)(parsers) as RowShape['row'];
  return { names: fields.map((f) => f.name), types: fields.map((f) => f.dataTypeID), row };
}

/** A pipelined connection, how many statements it carries now, and whether PostgreSQL ended its session. */
interface Slot {
  client: pg.Client;
  inFlight: number;
  ended: boolean;
  /** Its socket is corked until the end of this turn of the event loop. */
  held: boolean;
  /** The prepared statements described on it: their rows' shape and columns. */
  described: Map<string, { shape: RowShape; fields: pg.FieldDef[] }>;
}

/**
 * One statement on a pipelined connection: whether PostgreSQL completed it (CommandComplete), and the connection
 * marked ended when its session was ended, before the statements behind it fail with the closed socket.
 */
class Statement extends pg.Query {
  completed = false;
  /** The prepared statement's name; null for a text. */
  private readonly preparedName: string | null;

  constructor(
    sql: Sql,
    params: unknown[] | undefined,
    private readonly slot: Slot,
    callback: (err: Error | undefined, result: any) => void,
  ) {
    // The text alone, not a config object: pg copies a config object property by property for every statement.
    super(typeof sql === 'string' ? sql : sql.text, params as any[], callback);
    this.preparedName = typeof sql === 'string' ? null : sql.name;
    if (this.preparedName !== null) (this as unknown as { name: string }).name = this.preparedName;
  }

  handleRowDescription(msg: { fields: pg.FieldDef[] }): void {
    const result = (this as any)._result;
    // Prepared statements only: their texts are few and fixed (a one-off text would compile a shape for one use).
    const name = this.preparedName;
    const shape = name !== null && result.command === null ? rowShapeOf(name, msg.fields) : null;
    if (!shape) return (pg.Query.prototype as any).handleRowDescription.call(this, msg);
    // The columns are kept for the statement's next results on this connection: shared, so frozen.
    const fields = Object.freeze(msg.fields) as pg.FieldDef[];
    this.useShape(shape, fields);
    this.slot.described.set(name!, { shape, fields });
  }

  /**
   * A prepared statement already described on this connection is not described again: PostgreSQL keeps its result's
   * columns for the session (a change of them fails the statement: "cached plan must not change result type"), so
   * its rows are made with the columns it had, and no RowDescription is sent and read for each execution.
   */
  prepare(connection: { describe: (msg: unknown) => void }): void {
    const known = this.preparedName === null ? undefined : this.slot.described.get(this.preparedName);
    if (!known) return (pg.Query.prototype as any).prepare.call(this, connection);
    this.useShape(known.shape, known.fields);
    const describe = connection.describe;
    connection.describe = () => undefined;
    try {
      (pg.Query.prototype as any).prepare.call(this, connection);
    } finally {
      connection.describe = describe;
    }
  }

  private useShape(shape: RowShape, fields: pg.FieldDef[]): void {
    const result = (this as any)._result;
    result.fields = fields;
    result.parseRow = shape.row;
    (this as any)._accumulateRows = true;
  }

  handleCommandComplete(msg: unknown, connection: unknown): void {
    this.completed = true;
    (pg.Query.prototype as any).handleCommandComplete.call(this, msg, connection);
  }

  handleError(err: Error, connection: unknown): void {
    if (sessionEnded(err)) this.slot.ended = true;
    (pg.Query.prototype as any).handleError.call(this, err, connection);
  }
}

/**
 * A few connections in pipeline mode for the statements that run on their own (`db.query`: each its own
 * transaction, as pool.query runs them). A pooled connection carries one statement at a time: PostgreSQL's process
 * answers it and goes to sleep until the next one arrives, and the server waits for the answer before it can send
 * another on it. A pipelined connection carries every statement written to it, each ended by its own Sync (so an
 * error fails that statement only), answered in order: PostgreSQL finds the next statement already waiting, and
 * answers arrive several to a read. Measured on form details: about a quarter more answers a second on the same
 * machine (bench/README.md, diary of 2026-11-30).
 *
 * A statement goes to the connection with the fewest statements in flight, so one slow statement does not hold up
 * the statements sent after it (those queued behind it on its connection do wait; the pool's transactions never
 * do). A connection that breaks fails the statements it carried (503, as a lost pooled connection does) and is
 * replaced by the next statement that needs it; one that cannot be opened fails that statement and is tried again
 * by the next. A statement sent on a connection whose session PostgreSQL was ending at that moment (the ending is
 * only seen when its message arrives) and that did not complete is sent once more, on a new connection: after a
 * restart or a terminate, every connection would otherwise fail one request each.
 */
class Pipeline {
  private readonly slots: Array<Slot | null>;

  constructor(
    private readonly config: pg.ClientConfig,
    size: number,
    private readonly log: Log,
  ) {
    this.slots = Array.from({ length: size }, () => null);
  }

  query(text: Sql, params: unknown[] | undefined): Promise<pg.QueryResult> {
    return this.run(text, params, false);
  }

  /** The statement on a connection; `again`: its second sending, on a connection opened for it. */
  private run(text: Sql, params: unknown[] | undefined, again: boolean): Promise<pg.QueryResult> {
    const slot = again ? this.fresh() : this.pick();
    slot.inFlight += 1;
    return new Promise<pg.QueryResult>((resolve, reject) => {
      const statement = new Statement(text, params, slot, (err, result) => {
        slot.inFlight -= 1;
        if (!err) return resolve(result);
        // The connection is gone (PostgreSQL ended the session, or the socket broke): the statements behind it must
        // not be sent on it while the client has yet to notice. Its slot is reopened by the next statement.
        if (connectionLost(err)) this.discard(slot);
        if (!again && slot.ended && !statement.completed) resolve(this.run(text, params, true));
        else reject(err);
      });
      this.hold(slot);
      slot.client.query(statement);
    }).catch((err) => {
      // As pg's own promise does: the stack leads back to the code that sent the statement, not to the socket read.
      Error.captureStackTrace(err);
      throw err;
    });
  }

  /**
   * The statements written to a connection in one turn of the event loop (every request whose bytes arrived in it)
   * leave in one write, at its end (setImmediate): one system call and one wake-up of PostgreSQL's process for all of
   * them, instead of one each.
   */
  private hold(slot: Slot): void {
    const stream = (slot.client as unknown as { connection?: { stream?: { cork?(): void; uncork(): void } } }).connection?.stream;
    if (slot.held || !stream?.cork) return;
    slot.held = true;
    stream.cork();
    setImmediate(() => {
      slot.held = false;
      stream.uncork();
    });
  }

  private discard(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots[i] = null;
    slot.client.end().catch(() => undefined);
  }

  /** An idle connection, else a new one while there is room, else the least busy. */
  private pick(): Slot {
    let best: Slot | null = null;
    let empty = -1;
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i];
      if (!s) {
        if (empty < 0) empty = i;
      } else if (s.inFlight === 0) {
        return s;
      } else if (!best || s.inFlight < best.inFlight) {
        best = s;
      }
    }
    if (empty >= 0) return this.open(empty);
    return best!;
  }

  /** A new connection in a free slot (the other connections may be ending too), else the usual pick. */
  private fresh(): Slot {
    const empty = this.slots.indexOf(null);
    return empty >= 0 ? this.open(empty) : this.pick();
  }

  private open(i: number): Slot {
    const client = new pg.Client({ ...this.config, pipeline: true });
    const slot: Slot = { client, inFlight: 0, ended: false, held: false, described: new Map() };
    this.slots[i] = slot;
    const drop = () => {
      if (this.slots[i] === slot) this.slots[i] = null;
    };
    // A broken connection: its statements fail with the error (the request answers 503) and the slot is reopened
    // by the next statement. Logged once, here.
    client.on('error', (err) => {
      drop();
      logDbError(this.log, 'database connection lost', err);
    });
    client.on('end', drop);
    // Statements written before the connection is open wait in the client's queue; if it cannot open, they fail
    // with the reason.
    client.connect().catch(drop);
    return slot;
  }

  async close(): Promise<void> {
    const open = this.slots.filter((s): s is Slot => s !== null);
    this.slots.fill(null);
    await Promise.all(open.map((s) => s.client.end().catch(() => undefined)));
  }
}

/**
 * A pooled connection inside BEGIN. An idle connection whose session PostgreSQL was ending as it was taken (a
 * restart, a terminate: the pool drops it only once the message arrives) fails the BEGIN, which did nothing: that
 * one is closed and the BEGIN runs once more on another.
 */
async function begin(pool: pg.Pool, again = false): Promise<pg.PoolClient> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    return client;
  } catch (err) {
    client.release(err as Error);
    if (!again && sessionEnded(err)) return begin(pool, true);
    throw err;
  }
}

/**
 * The pool of `url` with `max` connections and the time limits `limits` (main.ts passes the configuration's
 * DATABASE_POOL_MAX, DATABASE_PIPELINE_CONNECTIONS and DATABASE_*_TIMEOUT_MS; tools and tests take the defaults),
 * and `pipelined` connections for statements on their own (0: those go through the pool). Errors outside a request
 * are logged by `log` (default: the 'db' module logger).
 */
export function createDb(
  url: string,
  max = DEFAULT_POOL_MAX,
  limits: DatabaseLimits = DEFAULT_DATABASE_LIMITS,
  log: Log = moduleLogger('db'),
  pipelined = DEFAULT_PIPELINE_CONNECTIONS,
): Db {
  const pool = new pg.Pool({ ...connectionConfig(url, limits), max, idleTimeoutMillis: 30_000, Client: guardedClient(log) });
  pool.on('error', (err) => logDbError(log, 'idle database client error', err));
  const pipeline = pipelined > 0 ? new Pipeline(connectionConfig(url, limits), pipelined, log) : null;
  return {
    pool,
    url,
    limits,
    query: (text, params) => (pipeline ? pipeline.query(text, params) : send(pool, text, params)),
    async tx(fn) {
      const client = await begin(pool);
      // A connection that failed (lost, or left with a statement the client stopped waiting for) is not
      // returned to the pool for the next request: release(err) closes it.
      let broken: Error | undefined;
      try {
        const out = await fn(client);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        if (databaseTrouble(err)) broken = err as Error;
        await client.query('ROLLBACK').catch((e) => {
          broken = broken ?? e;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: async () => {
      await pipeline?.close();
      await pool.end();
    },
  };
}
