// One chat turn end to end: the session and its state, the reply (the optional external model for every turn,
// the built-in engine otherwise or on its failure, from the state the turn started with), the saved state and messages, and the streamed answer.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../auth/service.js';
import type { Db } from '../db/pool.js';
import type { AuthUser } from '../people/service.js';
import type { AssistantSettings } from './config.js';
import { handleTurn } from './engine/engine.js';
import type { Reply, TurnContext } from './engine/types.js';
import { llmTurn } from './llm.js';
import { type AiSession, resolveSession, saveMessage, saveState } from './sessions.js';
import type { ChatStream } from './stream.js';

export interface TurnDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  settings: AssistantSettings;
}

export interface TurnInput {
  user: AuthUser;
  family: string;
  sessionId?: string;
  message: string;
  autoGreeting?: boolean;
  /** Already resolved (and checked to be the caller's) by the route. */
  session?: AiSession;
}

export interface TurnResult {
  reply: Reply;
  sessionId: string;
  engine: 'built-in' | 'llm';
}

export async function converse(deps: TurnDeps, input: TurnInput, stream?: ChatStream): Promise<TurnResult> {
  const { db, clock, log, settings } = deps;
  const now = clock.now();
  const session = input.session ?? (await resolveSession(db, input.user, input.family, input.sessionId, now));
  const ctx: TurnContext = { db, user: input.user, now, state: { ...(session.state ?? {}) } };
  const message = input.message ?? '';

  let reply: Reply | undefined;
  let streamed = false;
  let interrupted: string | undefined;
  let engine: TurnResult['engine'] = 'built-in';
  // With a model configured every turn goes to it, also inside a form or a decision: the engine's open state is
  // in its instructions and its tools continue it; only the user's explicit yes confirms (llm.ts).
  if (settings.llm && message.trim() !== '') {
    const before = structuredClone(ctx.state);
    try {
      const r = await llmTurn(ctx, settings.llm, message, session.session_id, stream);
      reply = r.reply;
      streamed = r.streamed;
      engine = 'llm';
    } catch (err) {
      const e = err as Error & { streamed?: boolean; claim?: boolean };
      // A failed model turn leaves no trace: whatever its tools prepared is dropped, and the built-in engine
      // answers the message from the state the turn started with.
      ctx.state = before;
      log.warn(
        { err: e.message, claim: Boolean(e.claim), provider: settings.llm.baseUrl },
        'assistant model provider failed; answering with the built-in engine',
      );
      // Part of the model's answer went out already: say that it stops there, and the engine's answer follows.
      if (e.streamed && stream) {
        interrupted = e.claim
          ? '\n\n(Let me correct myself: nothing has been changed by that. Here is the accurate answer.)\n\n'
          : '\n\n(My answer was cut off. Here is the answer from the built-in assistant.)\n\n';
      }
    }
  }
  if (!reply) reply = await handleTurn(ctx, message, { autoGreeting: input.autoGreeting });
  // The reply asks the open question (if any): from now on an answer to it may continue or confirm it.
  if (ctx.state.pending) ctx.state.pending.shown = true;

  // The conversation state is saved while the reply starts streaming (the stream's complete event, which tells
  // the client the turn is done, waits for it); a failure still ends the stream with an error.
  const saved = saveState(db, session.session_id, ctx.state, now);
  saved.catch(() => undefined); // observed by the await below
  if (stream && !streamed) await stream.content(interrupted ? `${interrupted}${reply.text}` : reply.text);
  await saved;
  if (message.trim() !== '') {
    await saveMessage(db, input.user.id, {
      sessionId: session.session_id,
      family: input.family,
      type: 'user',
      content: message,
      metadata: { source: 'chat' },
      at: now,
    });
  }
  await saveMessage(db, input.user.id, {
    sessionId: session.session_id,
    family: input.family,
    type: 'bot',
    content: reply.text,
    metadata: {
      source: 'chat',
      intent: reply.intent,
      engine,
      ...(interrupted ? { interrupted: true } : {}),
      ...(reply.requestId ? { request_id: reply.requestId } : {}),
      ...(reply.showApprovalAction ? { show_approval_action: true } : {}),
    },
    at: new Date(now.getTime() + 1),
  });
  return { reply, sessionId: session.session_id, engine };
}
