// What every feature receives: the database, the clock, configuration and the live-event bus.
import type { AuthContext, Clock, LoginLimiter } from '../auth/service.js';
import type { Config } from '../config.js';
import type { Db } from '../db/pool.js';
import type { JobScheduler } from '../jobs/scheduler.js';
import type { AuthUser } from '../people/service.js';

export interface AppContext extends AuthContext {
  db: Db;
  clock: Clock;
  config: Config;
  limiter: LoginLimiter;
  /** Background jobs on PostgreSQL (src/server/jobs/): features define theirs when registered. */
  jobs: JobScheduler;
  /** Functions run when the app closes (listeners, timers). */
  onClose: Array<() => Promise<void> | void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    user: AuthUser;
    tokenHash: string;
    /** When the caller's session ends at the latest (ms since epoch; 0 without a session). */
    sessionExpiresAt: number;
  }
}
