// Request schemas and the API's own documentation. Every route declares its inputs (params, querystring, body)
// as zod schemas in its `schema`; Fastify validates them before the handler with the compiler below, and the same
// schemas describe the route in the OpenAPI document served at /api/docs/json and browsed at /api/docs.
//
// Bad input is answered exactly as the hand-written parsing did: 400 `{ error }` with the first readable message
// (firstIssueMessage), and an absent body reads as `{}`. The document and its page are public and read-only.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { firstIssueMessage } from '../../domain/forms.js';
import { SESSION_COOKIE } from '../auth/routes.js';
import { badRequest } from './errors.js';

/** Where the browsable API documentation is served; its OpenAPI document is `${DOCS_PREFIX}/json`. */
export const DOCS_PREFIX = '/api/docs';

/**
 * Validates one part of a request (params, querystring, body, headers) with the route's zod schema. The parsed
 * value (with its defaults and conversions) replaces the raw one; a failure is a 400 with the first readable
 * message. A request without a body is validated as an empty object, as before. A part whose schema is
 * z.unknown() (a form's fields, checked by the service against the form type) is passed on as sent.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodTypeAny> =
  ({ schema }) =>
  (data: unknown) => {
    // A part described for the document only (z.unknown / z.any) reaches the handler untouched, null included.
    const kind = schema._zod.def.type;
    if (kind === 'unknown' || kind === 'any') return {};
    const r = schema.safeParse(data ?? {});
    // The zod error stays reachable as the cause, for a route that words its answer itself (speech).
    if (!r.success) return { error: Object.assign(badRequest(firstIssueMessage(r.error)), { cause: r.error }) };
    return { value: r.data };
  };

/** Sets the zod validator and serializer on the app (before any route is registered). */
export function useZodSchemas(app: FastifyInstance): void {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
}

/**
 * Path segments listed under a wider group: the approver dashboards' calls under 'approvals', the form types and
 * the catalogue's own submit paths under 'forms', the signed-in person's own calls under 'auth'. The page's
 * swagger-ui stopped drawing operations past about two dozen groups (e2e/api-docs.spec.ts), so keep it short.
 */
const TAG_GROUPS: Record<string, string> = {
  manager: 'approvals',
  hr: 'approvals',
  finance: 'approvals',
  'facilities-desk': 'approvals',
  'facilities-manager': 'approvals',
  requests: 'approvals',
  'form-types': 'forms',
  'purchase-requisition': 'forms',
  me: 'auth',
  users: 'auth',
  health: 'operations',
};

/** The first path segment after /api or /ai names the group a route is listed under (auth, forms, approvals ...). */
function tagOf(url: string): string {
  const parts = url.split('/').filter(Boolean);
  if (parts[0] === 'ai') return 'assistant';
  if (parts[0] === 'api') return TAG_GROUPS[parts[1] ?? ''] ?? parts[1] ?? 'api';
  return 'operations';
}

/**
 * Registers the OpenAPI document (every route registered after this call, described from its zod schemas) and
 * the browsable page at /api/docs. Its assets are served from the installed package (no CDN), and its routes are
 * public: the document describes the API, it gives no access to it.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'AdminEase API',
        description:
          'Forms, approvals, the IT desk and the Chief Smile Officer assistant. Sign in with POST /api/auth/login; ' +
          'then send the session cookie, or the access_token as a Bearer token. Writes carried by the cookie must come from the AdminEase page itself.',
        version,
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    transform: (doc) => {
      const out = jsonSchemaTransform(doc);
      // A route without inputs has no schema: it is still listed, under its group.
      const schema = (out.schema ?? {}) as FastifySchema & { hide?: boolean; tags?: string[]; security?: unknown[] };
      out.schema = schema;
      if (schema.hide) return out;
      schema.tags ??= [tagOf(doc.url)];
      // Routes answered without a session say so (the document's default is: a session is required).
      const config = (doc.route as { config?: { public?: boolean } } | undefined)?.config;
      if (config?.public === true) schema.security = [];
      return out;
    },
  });

  await app.register(async (docs) => {
    // Every route of the page (the page, its assets, the document) is answered without a session.
    docs.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
    });
    await docs.register(swaggerUi, {
      routePrefix: DOCS_PREFIX,
      // No call to the public validator service (it would need its image host in the page's security policy).
      uiConfig: { validatorUrl: null, docExpansion: 'list', deepLinking: false },
    });
  });
}
