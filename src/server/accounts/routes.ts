// Accounts over HTTP: the set-password link (public: the token is the proof) and changing one's own password.
// The administrators' routes are in admin-routes.ts, single sign-on in sso.ts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../../domain/password-rules.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { changePassword, describeToken, setPasswordWithToken } from './service.js';

const Token = z.string({ message: 'token is required' }).min(1, 'token is required').max(200);
/** Long enough for the strength rules to answer, short enough that argon2 never hashes a megabyte. */
const Password = (name: string) =>
  z
    .string({ message: `${name} is required` })
    .min(1, `${name} is required`)
    .max(PASSWORD_MAX_LENGTH * 4, `${name} is too long`);

const Success = z.object({ success: z.literal(true) });

export default async function accountRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  // Public: what a set-password link is for (its page asks before showing the form); 410 when it is dead. A POST,
  // so the token stays out of URLs and request logs.
  app.post(
    '/api/auth/password-link',
    {
      ...PUBLIC_ROUTE,
      schema: {
        body: z.object({ token: Token }),
        response: {
          200: z.union([
            z.object({ purpose: z.literal('invite'), email: z.string(), first_name: z.string(), last_name: z.string() }),
            z.object({ purpose: z.literal('setup') }),
          ]),
        },
      },
    },
    async (req) => describeToken(ctx, req.body.token),
  );

  app.post(
    '/api/auth/set-password',
    {
      ...PUBLIC_ROUTE,
      schema: {
        body: z.object({
          token: Token,
          password: Password('password'),
          // Only for the first-run set-up link: who the first administrator is.
          first_name: z.string().max(100).optional(),
          last_name: z.string().max(100).optional(),
          email: z.email('email must be an e-mail address').max(320).optional(),
          employee_code: z.string().max(100).optional(),
        }),
        response: { 200: z.object({ success: z.literal(true), email: z.string() }) },
      },
    },
    async (req) => {
      const { token, password, ...admin } = req.body;
      const { email } = await setPasswordWithToken(ctx, token, password, admin);
      return { success: true as const, email };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      schema: {
        body: z.object({ current_password: Password('current_password'), new_password: Password('new_password') }),
        response: { 200: Success },
      },
    },
    async (req) => {
      await changePassword(ctx, req.user, req.tokenHash, req.body.current_password, req.body.new_password, req.ip);
      return { success: true as const };
    },
  );
}
