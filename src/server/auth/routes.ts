// Sign-in, sign-out, the current user and an employee's profile card.
import { businessTimeZone, businessToday } from '../../domain/business-time.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import { assertMayViewPerson, loadUser, toApiUser } from '../people/service.js';
import { deleteDeadSessions, login, logout } from './service.js';
import { PUBLIC_ROUTE } from '../http/edge.js';

export const SESSION_COOKIE = 'adminease_session';

/**
 * Ends the caller's sign-in session: revoked (on every instance), its cookie cleared; the token no longer works.
 * Sign-out, and the assistant's session logout (the spec's client signs out with that call alone).
 */
export async function endSignInSession(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  await logout(app.ctx, req.tokenHash);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

const LoginSchema = z.object({
  email: z.string({ message: 'Email and password are required' }).trim().min(1, 'Email and password are required').max(320),
  password: z.string({ message: 'Email and password are required' }).min(1, 'Email and password are required').max(1000),
});

const ProfileParams = z.object({ employeeCode: z.string() });

/** The signed-in user as the clients read it (the main fields; the rest of toApiUser's answer passes unchanged). */
const ApiUser = z.looseObject({ id: z.number().int(), email: z.string(), role: z.string().nullable(), user_type: z.string() });
const LoginAnswer = z.object({ user: ApiUser, access_token: z.string() });

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  // Sessions that ended (signed out, idle, past their lifetime) are deleted a day later, once an hour across instances.
  ctx.jobs.recurring('sessions-cleanup', { everyMinutes: 60 }, async (run) => {
    await deleteDeadSessions(ctx.db, run.now, ctx.config);
  });

  // Behind a proxy without TRUST_PROXY=1 every client has the proxy's address, and the per-address sign-in
  // throttling then slows everyone down together: say so once, loudly, in the log.
  let proxyWarned = false;
  app.post('/api/auth/login', { ...PUBLIC_ROUTE, schema: { body: LoginSchema, response: { 200: LoginAnswer } } }, async (req, reply) => {
    if (!proxyWarned && req.headers['x-forwarded-for'] !== undefined && !ctx.config.trustProxy) {
      proxyWarned = true;
      req.log.warn(
        "sign-in through a proxy (X-Forwarded-For) while TRUST_PROXY is not 1: every client shares the proxy's address, so sign-in throttling by address holds back everyone behind it; set TRUST_PROXY=1",
      );
    }
    const body = req.body;
    const { user, token } = await login(ctx, body.email, body.password, req.ip);
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: ctx.config.secureCookies,
      maxAge: Math.floor(ctx.config.sessionMaxMs / 1000),
    });
    return { user: toApiUser(user), access_token: token };
  });

  // Public: what the web needs before anyone signs in: whether to show the demo panel and banner, and the
  // organisation's time zone and today's date in it, so the web counts 'today' as the server does.
  app.get(
    '/api/auth/config',
    {
      ...PUBLIC_ROUTE,
      schema: {
        response: {
          200: z.object({ demo: z.boolean(), time_zone: z.string(), business_date: z.string(), sso_provider: z.string().nullable() }),
        },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return {
        demo: ctx.demo === true,
        time_zone: businessTimeZone(),
        business_date: businessToday(ctx.clock.now()),
        // Single sign-on: the provider's name for the 'Sign in with <name>' button, or null when not configured.
        sso_provider: ctx.config.oidc?.name ?? null,
      };
    },
  );

  app.post('/api/auth/logout', { schema: { response: { 200: z.object({ success: z.boolean() }) } } }, async (req, reply) => {
    await endSignInSession(fastify, req, reply);
    return { success: true };
  });

  app.get('/api/auth/me', { schema: { response: { 200: z.object({ user: ApiUser }) } } }, async (req) => ({ user: toApiUser(req.user) }));

  app.get('/api/forms/employee-profile/:employeeCode', { schema: { params: ProfileParams } }, async (req) => {
    const id = await assertMayViewPerson(ctx.db, req.user, req.params.employeeCode);
    const u = await loadUser(ctx.db, id);
    if (!u) throw notFound('Employee not found');
    return {
      employee_code: u.employee_code,
      name: `${u.first_name} ${u.last_name}`,
      email: u.email,
      role: u.role,
      department_name: u.department_name,
      manager_name: u.manager_name,
      hr_contact_name: u.hr_contact_name,
      join_date: u.join_date,
    };
  });
}
