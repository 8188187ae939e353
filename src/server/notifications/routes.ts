// The form-state API (/api/form-state: save-snapshot, check-changes, notifications, mark-read, health), the live
// stream GET /api/events (Server-Sent Events, resumable with Last-Event-ID) and, when SMTP is configured, the
// notification mailer.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { setEmailQueueing } from '../events/notify.js';
import { LiveHub } from './hub.js';
import { Mailer } from './mailer.js';
import { emailLinkKey } from '../email/routes.js';
import { changesSinceSnapshot, markRead, ownUserId, saveSnapshot, unreadCount, unreadNotifications } from './service.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { DATABASE_RETRY_AFTER_S } from '../db/unavailable.js';
import { databaseHealth } from '../health/routes.js';

const UserIdBody = z.object({ user_id: z.union([z.string().max(100), z.number()], { message: 'user_id is required' }) }).loose();
const UserParams = z.object({ userId: z.string() });
const IdParams = z.object({ id: z.string() });
/** Where a reconnecting stream resumes (the Last-Event-ID header wins); anything but a number replays nothing. */
const EventsQuery = z.object({
  lastEventId: z.unknown().optional().meta({ type: 'string', description: 'Id of the last event received (as the Last-Event-ID header)' }),
});

const hubs = new WeakMap<object, LiveHub>();

/** The live-update hub of an app instance (feature plugins are encapsulated, so it is looked up by the app's context). */
export function liveHubOf(app: FastifyInstance): LiveHub | undefined {
  return hubs.get(app.ctx);
}

export default async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const settings = ctx.config.mail;
  let mailer: Mailer | null = null;
  if (settings) {
    mailer = new Mailer(ctx.db, settings, app.log, emailLinkKey(ctx), 10_000, () => ctx.clock.now());
    setEmailQueueing(true);
    mailer.start();
    // The daily digest of those who chose it: once a day across all instances (src/server/jobs/).
    const m = mailer;
    ctx.jobs.recurring('email-daily-digest', { dailyAt: `${String(settings.digestHour).padStart(2, '0')}:00` }, async (run) => {
      await m.digest(run.now);
    });
  }
  const hub = new LiveHub(ctx.db, app.log, { onPayload: (p) => (p.k === 'n' && mailer ? void mailer.kick() : undefined) });
  hubs.set(ctx, hub);
  ctx.sessionEnded?.push((tokenHash) => hub.endSession(tokenHash)); // this instance's logouts, at once
  if (mailer) hub.ensureListening().catch((err) => app.log.warn({ err: (err as Error).message }, 'live update listener not started'));

  // Streams end before the HTTP server closes (it would wait for them); the listener and mailer after.
  app.addHook('preClose', async () => hub.endAll());
  ctx.onClose.push(async () => {
    await hub.close();
    await mailer?.close();
  });

  app.post('/api/form-state/save-snapshot', { schema: { body: UserIdBody } }, async (req) => {
    const userId = ownUserId(req.user, req.body.user_id);
    return { success: true, ...(await saveSnapshot(ctx.db, userId, ctx.clock.now())) };
  });

  app.post('/api/form-state/check-changes', { schema: { body: UserIdBody } }, async (req) => {
    const userId = ownUserId(req.user, req.body.user_id);
    const { snapshot_at, notifications } = await changesSinceSnapshot(ctx.db, userId, ctx.clock.now());
    return { success: true, has_changes: notifications.length > 0, count: notifications.length, snapshot_at, notifications };
  });

  app.get('/api/form-state/notifications/:userId', { schema: { params: UserParams } }, async (req) => {
    const userId = ownUserId(req.user, req.params.userId);
    const [notifications, count] = await Promise.all([unreadNotifications(ctx.db, userId), unreadCount(ctx.db, userId)]);
    return { success: true, unread_count: count, notifications };
  });

  app.post('/api/form-state/mark-read/:id', { schema: { params: IdParams } }, async (req) => {
    return { success: true, ...(await markRead(ctx.db, req.user, req.params.id, ctx.clock.now())) };
  });

  app.get('/api/form-state/health', PUBLIC_ROUTE, async (_req, reply) => {
    // The same database check as /api/health (a write, and recent resource errors), so the two never disagree.
    const h = await databaseHealth(ctx.db);
    if (h.status !== 'ok') {
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ status: 'unhealthy', service: 'form-state', database: h.status === 'error' ? h.reason : 'degraded' });
    }
    return { status: 'healthy', service: 'form-state', live_updates: hub.state, email: settings ? 'enabled' : 'disabled' };
  });

  app.get('/api/events', { schema: { querystring: EventsQuery } }, async (req, reply) => {
    const lastHeader = req.headers['last-event-id'];
    const lastRaw = (Array.isArray(lastHeader) ? lastHeader[0] : lastHeader) ?? req.query.lastEventId;
    const replayAfter = lastRaw !== undefined && /^\d{1,15}$/.test(String(lastRaw).trim()) ? Number(String(lastRaw).trim()) : undefined;
    try {
      await hub.ensureListening();
    } catch (err) {
      // The stream still opens; the hub keeps reconnecting and catches the client up when it is back.
      req.log.warn({ err: (err as Error).message }, 'live update listener unavailable');
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      'x-request-id': String(req.id),
    });
    res.write('retry: 3000\n\n');
    res.flushHeaders?.();
    let client: Awaited<ReturnType<LiveHub['addClient']>> | null = null;
    let gone = false;
    res.on('close', () => {
      gone = true;
      if (client) hub.removeClient(client);
    });
    try {
      client = await hub.addClient({
        userId: req.user.id,
        userType: req.user.user_type,
        tokenHash: req.tokenHash,
        sessionRemainingMs: req.sessionExpiresAt - ctx.clock.now().getTime(),
        res,
        replayAfter,
      });
      if (gone) hub.removeClient(client);
    } catch (err) {
      req.log.error({ err }, 'live stream failed to start');
      res.end();
    }
  });
}
