// The confirmation page's calls for an approver's Approve / Reject link from an e-mail (the page itself is the web
// route /email-action?token=...). Both are public (the link is the credential, bound to its approver) and both
// are POSTs with the token in the body, so it stays out of logged URLs: checking changes nothing, deciding goes
// through the decision service. A browser signed in as somebody else than the link's approver is refused. The
// same-origin rule for writes (src/server/http/edge.ts) applies to them as to sign-in.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authenticate } from '../auth/service.js';
import { SESSION_COOKIE } from '../auth/routes.js';
import type { AppContext } from '../http/context.js';
import { PUBLIC_ROUTE } from '../http/edge.js';
import { itSecretKey } from '../it-desk/service.js';
import { checkActionLink, linkKey, useActionLink } from './links.js';

const TokenBody = z.object({ token: z.string().max(200, 'token is too long') }).strict();
const DecideBody = z
  .object({ token: z.string().max(200, 'token is too long'), reason: z.string().max(2000, 'The reason is too long').nullish() })
  .strict();

/** Who is signed in on this browser (cookie or bearer), or null: a missing or ended session is nobody. */
async function sessionUserId(ctx: AppContext, req: FastifyRequest): Promise<number | null> {
  const header = req.headers.authorization;
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : req.cookies[SESSION_COOKIE];
  if (!token) return null;
  try {
    return (await authenticate(ctx, token)).user.id;
  } catch {
    return null;
  }
}

/** The signing key of the action links of this installation (derived from the server key). */
export function emailLinkKey(ctx: Pick<AppContext, 'config'>): Buffer {
  return linkKey(itSecretKey(ctx.config).key);
}

export default async function emailActionRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  let key: Buffer | null = null;
  const keyOf = () => (key ??= emailLinkKey(ctx));

  app.post('/api/email-actions/check', { ...PUBLIC_ROUTE, schema: { body: TokenBody } }, async (req) =>
    checkActionLink(ctx.db, keyOf(), req.body.token, await sessionUserId(ctx, req), ctx.clock.now()),
  );

  app.post('/api/email-actions/decide', { ...PUBLIC_ROUTE, schema: { body: DecideBody } }, async (req) => {
    const done = await useActionLink(ctx.db, keyOf(), req.body, await sessionUserId(ctx, req), ctx.clock.now());
    return {
      success: true,
      decision: done.decision,
      message: `${done.request_label} ${done.decision === 'Approved' ? 'approved' : 'rejected'}. Thank you.`,
      request_id: done.request.request_id,
      version: done.request.version,
    };
  });
}
