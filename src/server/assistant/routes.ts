// Chat endpoints of the assistant, as the existing chat clients call them: POST /ai/streaming-chat (employee),
// POST /ai/{family}/chat-stream and /ai/{family}/chat, /ai/simple-chat (+ stream), POST /ai/{family}/login-greeting,
// GET /ai/{family}/health and GET /ai/status. Thin: parse, check the caller, run the turn, write the answer.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertSelfRef } from '../policies/people.js';
import { CHATBOT_KINDS, maintenanceFor, rolesConfig } from './config.js';
import { MAX_MESSAGE_LENGTH, loginGreeting } from './engine/engine.js';
import { isNluTrained, nluReady, trainingMs } from './engine/nlu.js';
import { ASSISTANT_NAME } from './engine/types.js';
import { FAMILIES } from './session-routes.js';
import { resolveSession } from './sessions.js';
import { ChatStream, sentenceHookFor } from './stream.js';
import { type TurnDeps, converse } from './turn.js';
import { PUBLIC_ROUTE } from '../http/edge.js';

const ROLE_FAMILIES = ['manager', 'hr', 'finance', 'it', 'facilities', 'simple', 'admin'] as const;
const FamilyParams = z.object({ family: z.enum(ROLE_FAMILIES, { message: 'Unknown assistant family' }) });

const UserRef = z.union([z.string().max(100), z.number()]).nullish();
const ChatBodySchema = z
  .object({
    message: z
      .string({ message: 'message must be text' })
      .max(MAX_MESSAGE_LENGTH, `message can have at most ${MAX_MESSAGE_LENGTH} characters`)
      .optional(),
    user_id: UserRef,
    sessionId: z.string().max(100).nullish(),
    session_id: z.string().max(100).nullish(),
    auto_greeting: z.boolean().optional(),
    stream: z.boolean().optional(),
  })
  .passthrough();
type ChatBody = z.infer<typeof ChatBodySchema>;

const GreetingBodySchema = z.object({ user_id: UserRef, user_info: z.record(z.string(), z.unknown()).optional() }).passthrough();

/** family of the chatbot kind of a role (for the maintenance switch of GET /ai/{family}/health). */
const KIND_OF_FAMILY: Record<string, string> = {
  simple: 'employee',
  manager: 'manager',
  hr: 'hr',
  finance: 'finance',
  it: 'it',
  facilities: 'facilities',
  admin: 'admin',
};

/** Route schemas: the chat body, with the family in the path where the route has one. */
const CHAT = { schema: { body: ChatBodySchema } };
const FAMILY_CHAT = { schema: { params: FamilyParams, body: ChatBodySchema } };

export default async function assistantChatRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.ctx;
  const settings = app.ctx.config.assistant;
  // A listening server trains the NLU right after it starts listening, in a worker thread (loading node-nlp and
  // training take about a second of CPU, which would otherwise hold up every request of a restarted server); a chat
  // that comes before training ends waits for it.
  // In-process test apps, which never listen, start it themselves (test/harness.ts) or on the first chat.
  app.addHook('onListen', (done) => {
    setImmediate(() => {
      nluReady({ offThread: true }).catch((err) => app.log.error({ err: (err as Error).message }, 'assistant NLU training failed'));
    });
    done();
  });
  const deps = (req: FastifyRequest): TurnDeps => ({ db, clock, log: req.log, settings });

  function checkCaller(req: FastifyRequest, body: ChatBody) {
    assertSelfRef(req.user, body.user_id, 'user_id is not yours');
  }

  function sessionIdOf(req: FastifyRequest, body: ChatBody): string | undefined {
    const h = req.headers['x-session-id'];
    const header = Array.isArray(h) ? h[0] : h;
    return (header && header.trim()) || body.sessionId || body.session_id || undefined;
  }

  async function streamChat(req: FastifyRequest, reply: FastifyReply, family: string): Promise<void> {
    const body = req.body as ChatBody; // validated by the route's schema
    checkCaller(req, body);
    // the speech hook (it may read the user's sound preference) and the maintenance switch, read together
    const [hook, maintenance] = await Promise.all([
      sentenceHookFor(req, body as Record<string, unknown>),
      maintenanceFor(db, settings, req.user.role),
    ]);
    // the session is resolved before the stream opens (an id that is not the caller's own is never adopted)
    const session = maintenance ? undefined : await resolveSession(db, req.user, family, sessionIdOf(req, body), clock.now());
    const stream = new ChatStream(reply, hook);
    stream.start();
    try {
      if (maintenance) {
        await stream.content(maintenance);
        await stream.finish({ extra: { maintenance: true } });
        return;
      }
      const { reply: r, sessionId } = await converse(
        deps(req),
        {
          user: req.user,
          family,
          session,
          message: body.message ?? '',
          autoGreeting: body.auto_greeting === true,
        },
        stream,
      );
      // request_changed tells the web app to refresh its lists (a submission, decision or withdrawal happened)
      await stream.finish({
        suggestions: r.suggestions,
        approvalActions: r.approvalActions,
        showApprovalAction: r.showApprovalAction,
        extra: { session_id: sessionId, ...(r.requestId ? { request_changed: r.requestId } : {}) },
      });
    } catch (err) {
      req.log.error({ err }, 'assistant chat failed');
      await stream.fail('Sorry, something went wrong on my side. Please try again in a moment.');
    }
  }

  async function jsonChat(req: FastifyRequest, family: string) {
    const body = req.body as ChatBody; // validated by the route's schema
    checkCaller(req, body);
    const maintenance = await maintenanceFor(db, settings, req.user.role);
    if (maintenance)
      return {
        success: true,
        maintenance: true,
        response: maintenance,
        message: maintenance,
        suggestions: [],
        show_approval_action: false,
        approval_actions: [],
      };
    const {
      reply: r,
      sessionId,
      engine,
    } = await converse(deps(req), {
      user: req.user,
      family,
      sessionId: sessionIdOf(req, body),
      message: body.message ?? '',
      autoGreeting: body.auto_greeting === true,
    });
    return {
      success: true,
      response: r.text,
      message: r.text,
      suggestions: r.suggestions,
      show_approval_action: r.showApprovalAction,
      approval_actions: r.approvalActions,
      session_id: sessionId,
      engine,
    };
  }

  const wantsStream = (req: FastifyRequest) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    return b.stream === true || String(req.headers.accept ?? '').includes('text/event-stream');
  };

  // employee endpoint: streams unless stream: false is sent
  app.post('/ai/streaming-chat', CHAT, async (req, reply) => {
    if (req.body.stream === false) return jsonChat(req, 'simple');
    await streamChat(req, reply, 'simple');
  });
  app.post('/ai/:family/chat-stream', FAMILY_CHAT, async (req, reply) => {
    await streamChat(req, reply, req.params.family);
  });
  app.post('/ai/:family/chat', FAMILY_CHAT, async (req, reply) => {
    const { family } = req.params;
    if (wantsStream(req)) return streamChat(req, reply, family);
    return jsonChat(req, family);
  });
  app.post('/ai/simple-chat', CHAT, async (req, reply) => {
    if (wantsStream(req)) return streamChat(req, reply, 'simple');
    return jsonChat(req, 'simple');
  });
  for (const path of ['/ai/simple-chat/stream', '/ai/simple-chat-stream'])
    app.post(path, CHAT, async (req, reply) => streamChat(req, reply, 'simple'));

  async function greeting(req: FastifyRequest) {
    const body = req.body as z.infer<typeof GreetingBodySchema>; // validated by the route's schema
    assertSelfRef(req.user, body.user_id, 'user_id is not yours');
    const maintenance = await maintenanceFor(db, settings, req.user.role);
    if (maintenance) return { success: true, maintenance: true, greeting: maintenance, response: maintenance };
    const text = await loginGreeting({ db, user: req.user, now: clock.now(), state: {} });
    return { success: true, greeting: text, response: text };
  }
  app.post('/ai/:family/login-greeting', { schema: { params: FamilyParams, body: GreetingBodySchema } }, async (req) => greeting(req));
  app.post('/ai/simple-login-greeting', { schema: { body: GreetingBodySchema } }, async (req) => greeting(req));

  async function statusOf(kind: string) {
    const cfg = (await rolesConfig(db, settings))[kind as keyof Awaited<ReturnType<typeof rolesConfig>>];
    return cfg?.enabled === false ? 'maintenance' : 'online';
  }

  app.get('/ai/:family/health', { ...PUBLIC_ROUTE, schema: { params: FamilyParams } }, async (req) => {
    const { family } = req.params;
    const status = await statusOf(KIND_OF_FAMILY[family]);
    return {
      status: status === 'online' ? 'healthy' : 'maintenance',
      family,
      assistant: ASSISTANT_NAME,
      engine: settings.llm ? 'llm' : 'built-in',
      nlu: isNluTrained() ? 'ready' : 'training',
      time: clock.now().toISOString(),
    };
  });

  app.get('/ai/status', PUBLIC_ROUTE, async () => {
    const cfg = await rolesConfig(db, settings);
    return {
      status: 'ok',
      assistant: ASSISTANT_NAME,
      // which model or provider answers is not told to anyone who asks (only that an external one is on)
      engine: settings.llm ? 'llm' : 'built-in',
      nlu: { ready: isNluTrained(), training_ms: trainingMs() },
      chatbots: Object.fromEntries(CHATBOT_KINDS.map((k) => [k, cfg[k].enabled ? 'online' : 'maintenance'])),
      families: [...FAMILIES],
      time: clock.now().toISOString(),
    };
  });
}
