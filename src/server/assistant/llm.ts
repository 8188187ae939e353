// Optional external model: any OpenAI-compatible chat-completions server (OpenAI, Azure, Ollama, vLLM,
// llama.cpp server, Gemini's compatible endpoint), streamed, with the built-in engine's actions offered as
// tools. With a model configured it answers every turn, also inside a form or a decision: the engine's open
// state (the form, its fields collected and missing, the prepared action) is in its instructions. Tools run the
// engine's own skills for the signed-in user, so the same permission checks apply; actions that change data only
// prepare a confirmation, and confirm_pending_action carries it out only when the user's own message of the turn
// is an explicit yes to the summary they were shown (the engine's isAffirmative), never on the model's say-so.
import { businessDate, businessTimeZone, weekdayOf } from '../../domain/business-time.js';
import { DONE, readEventStream } from '../../domain/event-stream.js';
import { FORM_TYPES, formTypeDef } from '../../domain/forms.js';
import type { LlmSettings } from './config.js';
import { continueDecision, decisionForTool, detailsReply, queueReply } from './engine/approval-flow.js';
import { continueForm, pendingQuestion, startFormWithFields } from './engine/form-flow.js';
import { extractRequestIds } from './engine/extract.js';
import { holidayReply, leaveBalanceReply, myRequestsReply } from './engine/info.js';
import { normalise } from './engine/text.js';
import {
  ASSISTANT_NAME,
  type ApprovalAction,
  DEFAULT_SUGGESTIONS,
  type Pending,
  type Reply,
  type SessionState,
  type TurnContext,
} from './engine/types.js';
import { isAffirmative } from './engine/understand.js';
import { confirmWithdraw, continueWithdraw } from './engine/withdraw-flow.js';
import { recentMessages } from './sessions.js';
import type { ChatStream } from './stream.js';

/** 'Tuesday' for a business date. */
const weekdayName = (iso: string) => ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekdayOf(iso)];

const MAX_ROUNDS = 4;

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

const str = { type: 'string' } as const;

/** The tools offered to the model: the engine's actions. */
export const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_leave_balance',
      description: "The user's annual leave balance for a year.",
      parameters: { type: 'object', properties: { year: { type: 'integer' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_my_requests',
      description:
        "Status of the user's own requests. Optional filters: a request id (e.g. LR-000123), a form type, a status, or words such as a destination.",
      parameters: {
        type: 'object',
        properties: { request_id: str, form_type: { type: 'string', enum: FORM_TYPES.map((t) => t.formType) }, status: str, words: str },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_holidays',
      description: "Holidays: a holiday's name and/or a year or month, e.g. 'Diwali 2027' or 'December'.",
      parameters: { type: 'object', properties: { query: str }, required: ['query'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'list_pending_approvals',
      description: "What waits for the user's approval (only for approvers).",
      parameters: { type: 'object', properties: { form_type: str } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'get_request_details',
      description: 'Details of one request the user may see.',
      parameters: { type: 'object', properties: { request_id: str }, required: ['request_id'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'prepare_form_submission',
      description:
        'Start submitting a new form for the user with the fields they stated (dates YYYY-MM-DD, times HH:MM, amounts in USD). The assistant then asks for missing fields and for confirmation; nothing is submitted until the user says yes. To change the form already open, use update_form_fields.',
      parameters: {
        type: 'object',
        properties: { form_type: { type: 'string', enum: FORM_TYPES.map((t) => t.formType) }, fields: { type: 'object' } },
        required: ['form_type'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'prepare_decision',
      description:
        'Prepare approving or rejecting a request waiting for the user (approvers only). Nothing changes until the user confirms.',
      parameters: {
        type: 'object',
        properties: { request_id: str, decision: { type: 'string', enum: ['Approved', 'Rejected'] }, reason: str },
        required: ['request_id', 'decision'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'update_form_fields',
      description:
        'Set or correct fields of the form being filled (see the open state), with the values the user gave (dates YYYY-MM-DD, times HH:MM, amounts in USD; free text exactly as typed). Answers the next question or the summary to show.',
      parameters: { type: 'object', properties: { fields: { type: 'object' } }, required: ['fields'] },
    },
  },
  {
    type: 'function',
    function: {
      name: 'confirm_pending_action',
      description:
        "Carry out the prepared submission, decision or withdrawal whose summary the user was shown. Only when the user's latest message is an explicit yes to that summary; otherwise it is refused.",
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function',
    function: {
      name: 'cancel_pending_action',
      description: 'Abandon the open form, decision or withdrawal when the user wants to stop (nothing is submitted).',
      parameters: { type: 'object', properties: {} },
    },
  },
  {
    type: 'function',
    function: {
      name: 'prepare_withdrawal',
      description: "Prepare withdrawing one of the user's own pending requests. Nothing changes until the user confirms.",
      parameters: { type: 'object', properties: { request_id: str }, required: ['request_id'] },
    },
  },
] as const;

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The engine's open state in words for the model: the form being filled (fields collected and missing, the
 * question asked, whether its summary awaits the user's yes) or the prepared decision, withdrawal or choice.
 * Only the signed-in user's own conversation state (a session belongs to one person).
 */
export function describeState(state: SessionState): string {
  const p = state.pending;
  if (!p) return 'Open state: nothing is open (no form, decision or withdrawal).';
  switch (p.kind) {
    case 'form': {
      const d = formTypeDef(p.formType);
      if (!d) return 'Open state: nothing is open.';
      const have = d.fields.filter((f) => filled(p.fields[f.name])).map((f) => `${f.name}=${JSON.stringify(p.fields[f.name])}`);
      const missing = d.fields
        .filter((f) => f.required && !filled(p.fields[f.name]))
        .map((f) => `${f.name} (${f.question}${f.options ? ` One of: ${f.options.join(', ')}` : ''})`);
      return [
        `Open state: the user is filling a ${d.title} (${p.formType}).`,
        `Fields collected: ${have.join(', ') || 'none'}.`,
        `Required fields missing: ${missing.join('; ') || 'none'}.`,
        p.confirm
          ? "Its summary was shown and waits for the user's yes or no: call confirm_pending_action only if their latest message clearly says yes; update_form_fields for a change; cancel_pending_action if they want to stop."
          : `Asked last: ${p.asking ?? 'nothing'}. Put what the user answers into update_form_fields; cancel_pending_action if they want to stop.`,
      ].join('\n');
    }
    case 'decide':
      return p.step === 'reason'
        ? `Open state: rejecting ${p.requestId}; the rejection reason was asked: call prepare_decision with the reason the user gives.`
        : `Open state: ${p.decision === 'Approved' ? 'approving' : 'rejecting'} ${p.requestId}${p.reason ? ` (reason: ${JSON.stringify(p.reason)})` : ''} was shown and waits for the user's yes or no (confirm_pending_action on a clear yes, cancel_pending_action on no).`;
    case 'withdraw':
      return `Open state: withdrawing ${p.requestId} was shown and waits for the user's yes or no (confirm_pending_action on a clear yes, cancel_pending_action on no).`;
    case 'choose':
      return `Open state: the user was asked which request to ${p.purpose}: ${p.options.join(', ')}.`;
  }
}

/** The fields of every form type, compactly, so that tool calls use the registry's names. */
const FIELD_GUIDE = FORM_TYPES.map(
  (t) =>
    `${t.formType}: ${t.fields.map((f) => `${f.name}${f.required ? '' : '?'}${f.options ? ` (${f.options.join('|')})` : ''}`).join(', ')}`,
).join('\n');

function systemPrompt(ctx: TurnContext): string {
  const u = ctx.user;
  return [
    `You are ${ASSISTANT_NAME} (CSO), the friendly assistant of the AdminEase forms and approvals portal.`,
    `You talk with ${u.first_name} ${u.last_name} (${u.role}, ${u.department_name ?? 'no department'}). Today is ${weekdayName(businessDate(ctx.now))} ${businessDate(ctx.now)} (time zone ${businessTimeZone()}).`,
    'Answer briefly and warmly. Use the tools for every fact about requests, balances, holidays and approvals; never invent ids, numbers or dates.',
    "You can only see and do what this user may see and do in the dashboards; the tools enforce it. Never reveal other people's data beyond what a tool returns.",
    'To submit, decide or withdraw anything, call the prepare_* tool and relay its text: the user confirms with yes in their next message.',
    'You cannot complete any action yourself: never say that something was submitted, approved, rejected, withdrawn or booked, and never write a request id that no tool gave you.',
    'confirm_pending_action works only when the user has just answered yes to the summary shown; never call it on your own initiative.',
    `Form types: ${FORM_TYPES.map((t) => `${t.formType} (${t.title})`).join(', ')}.`,
    `Fields per form type (? = optional):\n${FIELD_GUIDE}`,
    describeState(ctx.state),
  ].join('\n');
}

export class ProviderError extends Error {
  /** Part of the model's answer already went out on the stream. */
  streamed = false;
  /** The model claimed something no tool result of the turn backs (not a provider fault as such). */
  claim = false;
}

/** Tools that only read: their results may back statements about a request's status. */
const READ_TOOLS = new Set(['get_my_requests', 'get_request_details', 'list_pending_approvals']);

interface Collected {
  actions: ApprovalAction[];
  show: boolean;
  suggestions?: string[];
  requestId?: string;
  intent?: string;
  /** Every tool result of this turn, and those of the read-only tools. */
  outputs: string[];
  readOutputs: string[];
  /** The confirmation a prepare tool opened this turn and the engine's text that asks it. */
  prepared?: { pending: object; text: string };
  /** What confirm_pending_action / cancel_pending_action did: always shown to the user. */
  settled: string[];
}

/** Why the open action cannot be confirmed by the user's message of this turn, or undefined when it can. */
export function confirmRefusal(pending: Pending | undefined, message: string): string | undefined {
  if (!pending) return 'Nothing is waiting for confirmation.';
  const confirming =
    (pending.kind === 'form' && pending.confirm === true) ||
    (pending.kind === 'decide' && pending.step === 'confirm') ||
    pending.kind === 'withdraw';
  if (!confirming) return 'Nothing is waiting for confirmation yet: finish the open step first.';
  if (pending.shown !== true) return 'Refused: the user has not seen this summary yet. Show it and wait for their answer.';
  const about =
    pending.kind === 'decide'
      ? { action: pending.decision === 'Approved' ? ('approve' as const) : ('reject' as const), requestId: pending.requestId }
      : pending.kind === 'withdraw'
        ? { requestId: pending.requestId }
        : {};
  if (!isAffirmative(normalise(message).lower, about))
    return "Refused: the user's message is not an explicit yes to the summary. Nothing changed; ask them to answer yes or no.";
  return undefined;
}
async function runTool(ctx: TurnContext, name: string, args: Record<string, unknown>, out: Collected, message: string): Promise<string> {
  const s = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  const pendingBefore = ctx.state.pending;
  let r: Reply;
  switch (name) {
    case 'get_leave_balance':
      r = await leaveBalanceReply(ctx, args.year ? `balance ${s(args.year)}` : 'balance');
      break;
    case 'get_my_requests': {
      const words = [s(args.request_id), s(args.status), s(args.words), args.form_type ? (formTypeDef(s(args.form_type))?.title ?? '') : '']
        .filter(Boolean)
        .join(' ');
      r = await myRequestsReply(ctx, words, words.toLowerCase());
      break;
    }
    case 'get_holidays':
      r = await holidayReply(ctx, s(args.query), `when is ${s(args.query)}`.toLowerCase());
      break;
    case 'list_pending_approvals':
      r = await queueReply(ctx, s(args.form_type).toLowerCase());
      break;
    case 'get_request_details':
      r = await detailsReply(ctx, s(args.request_id).toUpperCase());
      break;
    case 'prepare_form_submission': {
      const ft = s(args.form_type);
      if (!formTypeDef(ft)) return `Unknown form type ${ft}.`;
      r = await startFormWithFields(
        ctx,
        ft,
        (args.fields && typeof args.fields === 'object' ? args.fields : {}) as Record<string, unknown>,
      );
      break;
    }
    case 'prepare_decision':
      r = await decisionForTool(
        ctx,
        s(args.request_id).toUpperCase(),
        s(args.decision) === 'Rejected' ? 'Rejected' : 'Approved',
        s(args.reason) || undefined,
      );
      break;
    case 'prepare_withdrawal':
      r = await confirmWithdraw(ctx, s(args.request_id).toUpperCase());
      break;
    case 'update_form_fields': {
      const p = ctx.state.pending;
      if (p?.kind !== 'form') return 'No form is open: use prepare_form_submission to start one.';
      const given = (args.fields && typeof args.fields === 'object' ? args.fields : {}) as Record<string, unknown>;
      // a fresh form with the merged fields: checked like typed answers, and its summary must be shown again
      r = await startFormWithFields(ctx, p.formType, { ...p.fields, ...given });
      break;
    }
    case 'confirm_pending_action':
    case 'cancel_pending_action': {
      const p = ctx.state.pending;
      if (name === 'confirm_pending_action') {
        const refusal = confirmRefusal(p, message);
        if (refusal) return refusal;
      } else if (!p) return 'Nothing is open to cancel.';
      // the engine's own continuation with the user's yes (or a cancel): the same checks and texts as typed
      const nm = normalise(name === 'confirm_pending_action' ? message : 'cancel');
      const done =
        p!.kind === 'form'
          ? await continueForm(ctx, p!, nm, false)
          : p!.kind === 'decide'
            ? await continueDecision(ctx, p!, nm, false)
            : p!.kind === 'withdraw'
              ? await continueWithdraw(ctx, p!, nm, false)
              : undefined;
      if (!done) ctx.state.pending = undefined;
      r = done ?? {
        text: 'OK, nothing was chosen and nothing changed.',
        suggestions: [...DEFAULT_SUGGESTIONS],
        approvalActions: [],
        showApprovalAction: false,
        intent: 'cancelled',
      };
      out.settled.push(r.text);
      if (r.requestId) out.requestId = r.requestId;
      break;
    }
    default:
      return `Unknown tool ${name}.`;
  }
  if (ctx.state.pending && ctx.state.pending !== pendingBefore) out.prepared = { pending: ctx.state.pending, text: r.text };
  out.outputs.push(r.text);
  if (READ_TOOLS.has(name)) out.readOutputs.push(r.text);
  out.actions.push(...r.approvalActions);
  out.show ||= r.showApprovalAction;
  out.suggestions = r.suggestions;
  out.intent = r.intent;
  return r.text;
}

/**
 * Reads an OpenAI-style SSE body: content deltas go to onContent; tool call deltas are assembled. onData is called
 * whenever bytes arrive (the idle timer's heartbeat).
 */
async function readCompletion(
  res: Response,
  onContent: (t: string) => Promise<void>,
  onData: () => void,
): Promise<{ content: string; toolCalls: ToolCall[]; finish: string | null }> {
  if (!res.body) throw new ProviderError('No response body reader available');
  let content = '';
  let finish: string | null = null;
  const calls: ToolCall[] = [];
  for await (const message of readEventStream(res.body, { onChunk: onData })) {
    const data = message.data.trim();
    if (data === DONE) return { content, toolCalls: calls.filter(Boolean), finish };
    let json: any;
    try {
      json = JSON.parse(data);
    } catch {
      continue;
    }
    if (json.error) throw new ProviderError(String(json.error.message ?? json.error));
    const choice = json.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    if (typeof delta.content === 'string' && delta.content) {
      content += delta.content;
      await onContent(delta.content);
    }
    for (const tc of delta.tool_calls ?? []) {
      const i = typeof tc.index === 'number' ? tc.index : calls.length;
      calls[i] ??= { id: tc.id ?? `call_${i}`, type: 'function', function: { name: '', arguments: '' } };
      if (tc.id) calls[i].id = tc.id;
      if (tc.function?.name) calls[i].function.name += tc.function.name;
      if (tc.function?.arguments) calls[i].function.arguments += tc.function.arguments;
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  // the body ended without [DONE] and without a finish reason: the provider went away mid-answer
  if (!finish) throw new ProviderError('the provider closed the stream before the answer was complete');
  return { content, toolCalls: calls.filter(Boolean), finish };
}

// ---- statements the model may not make on its own ------------------------------------------------

const DONE_VERBS =
  'approved|rejected|declined|denied|submitted|sent|filed|raised|created|logged|booked|reserved|scheduled|withdrawn|withdrew|cancell?ed|reset|processed|forwarded|escalated|granted';
/** 'I have approved ...', "I've submitted", 'we booked'. */
const FIRST_PERSON_DONE = new RegExp(`\\b(i|we)('ve|'d| have| had)?( just| already| now| also| successfully)*\\s+(${DONE_VERBS})\\b`);
/** 'Done!', 'All set', 'successfully'. */
const DONE_WORDS = /^\W*(done|all done|all set|success|voil[aà])\b|\bsuccessfully\b/;
/** 'has been approved', 'is now withdrawn', 'was submitted' (a status: fine when a read tool gave it). */
const PASSIVE_DONE = new RegExp(`\\b(has|have|had|was|were|is|are)( now| just| already| been| successfully)*\\s+(${DONE_VERBS})\\b`);
/** Words that make a sentence about what will or would happen rather than what did. */
const NOT_A_FACT = /\b(not|n't|nothing|until|unless|once|after|when|if|will|would|can|could|yet|before|should|shall)\b/;

const ID_PREFIXES = new Set(FORM_TYPES.map((t) => t.idPrefix.toUpperCase()));
/** Request ids in a text (with a form type's prefix: 'COVID-19' is none). */
const requestIdsIn = (t: string) => extractRequestIds(t).filter((id) => ID_PREFIXES.has(id.slice(0, id.indexOf('-'))));

const squash = (t: string) => t.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Why a sentence of the model's text cannot be passed through as fact, or undefined when it can: a request id
 * that neither a tool result of this turn nor the conversation named, or a claim that an action was carried out
 * (tools only prepare actions; the built-in engine carries them out after the user's yes), unless the sentence is
 * a tool's own words or a status a read tool returned for the ids it names.
 */
export function unbackedClaim(sentence: string, evidence: { outputs: string[]; readOutputs: string[]; known: string }): string | undefined {
  const ids = requestIdsIn(sentence);
  const toolIds = new Set(evidence.outputs.flatMap((o) => extractRequestIds(o)));
  const knownIds = new Set(extractRequestIds(evidence.known));
  const invented = ids.find((id) => !toolIds.has(id) && !knownIds.has(id));
  if (invented) return `request id ${invented} that no tool returned`;
  const flat = squash(sentence);
  if (!flat) return undefined;
  if (evidence.outputs.some((o) => squash(o).includes(flat))) return undefined;
  if (FIRST_PERSON_DONE.test(flat) || DONE_WORDS.test(flat)) return 'a claim of a completed action';
  if (PASSIVE_DONE.test(flat) && !NOT_A_FACT.test(flat)) {
    const readIds = new Set(evidence.readOutputs.flatMap((o) => extractRequestIds(o)));
    if (ids.length === 0 || !ids.every((id) => readIds.has(id))) return 'a claim of a completed action';
  }
  return undefined;
}

/** The end of the first complete sentence (or line) in text, or -1. */
function sentenceEnd(text: string): number {
  const m = /[.!?…]+["')\]]?(?=\s)|\n/.exec(text);
  return m ? m.index + m[0].length : -1;
}

/**
 * One turn answered by the external model. Throws on any provider problem (the caller falls back to the
 * built-in engine); the thrown error carries streamed=true when part of the answer already went out.
 * The model's text goes out sentence by sentence, each checked by unbackedClaim first; a sentence that fails the
 * check ends the turn like a provider failure (it never reaches the user). The provider time limit is the longest
 * silence between two pieces of its stream, so a long but steady answer is never cut.
 */
export async function llmTurn(
  ctx: TurnContext,
  s: LlmSettings,
  message: string,
  sessionId: string,
  stream?: ChatStream,
): Promise<{ reply: Reply; streamed: boolean }> {
  const history = await recentMessages(ctx.db, ctx.user.id, 10, sessionId);
  const messages: Message[] = [{ role: 'system', content: systemPrompt(ctx) }];
  for (const m of history) messages.push({ role: m.message_type === 'user' ? 'user' : 'assistant', content: m.content });
  messages.push({ role: 'user', content: message });
  const collected: Collected = { actions: [], show: false, outputs: [], readOutputs: [], settled: [] };
  const startPending = ctx.state.pending;
  const known = [message, ...history.map((m) => m.content)].join('\n');
  let text = '';
  let streamed = false;
  let held = '';

  const fail = (err: unknown): ProviderError => {
    const e = err instanceof ProviderError ? err : new ProviderError((err as Error).message);
    e.streamed = streamed;
    return e;
  };
  /** Checks and sends the complete sentences of the held text (all of it when final). */
  const release = async (final: boolean) => {
    for (;;) {
      const end = sentenceEnd(held);
      const cut = end >= 0 ? end : final ? held.length : -1;
      if (cut <= 0) break;
      const sentence = held.slice(0, cut);
      held = held.slice(cut);
      const why = unbackedClaim(sentence, { ...collected, known });
      if (why) {
        const e = new ProviderError(`the model wrote ${why}: ${JSON.stringify(sentence.trim().slice(0, 200))}`);
        e.claim = true;
        throw e;
      }
      text += sentence;
      if (stream && sentence) {
        streamed = true;
        await stream.content(sentence);
      }
    }
  };

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(new ProviderError(`the provider sent nothing for ${s.timeoutMs} ms`)), s.timeoutMs);
    };
    let result: Awaited<ReturnType<typeof readCompletion>>;
    try {
      arm();
      const res = await fetch(`${s.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}`, 'api-key': s.apiKey } : {}),
        },
        body: JSON.stringify({ model: s.model, messages, tools: TOOLS, tool_choice: 'auto', stream: true }),
        signal: controller.signal,
      }).catch((err: Error) => {
        throw controller.signal.aborted ? controller.signal.reason : new ProviderError(`provider unreachable: ${err.message}`);
      });
      if (!res.ok) {
        const body = await res.text().catch(() => '');
        throw new ProviderError(`HTTP error! status: ${res.status} ${body.slice(0, 200)}`);
      }
      arm();
      result = await readCompletion(
        res,
        async (t) => {
          held += t;
          await release(false);
        },
        arm,
      ).catch((err) => {
        throw controller.signal.aborted && !(err instanceof ProviderError) ? controller.signal.reason : err;
      });
      await release(true);
    } catch (err) {
      throw fail(err);
    } finally {
      clearTimeout(timer);
    }
    try {
      if (result.toolCalls.length === 0) {
        if (!text.trim()) throw new ProviderError('the model answered nothing');
        // What the engine said when an action was carried out or abandoned, and the question or summary of what is
        // open, always reach the user in the engine's own words: a later yes answers exactly what was shown.
        const tails = [...collected.settled];
        const open = ctx.state.pending;
        if (open) {
          const p = collected.prepared;
          if (p && p.pending === open) tails.push(p.text);
          else if (open === startPending && collected.settled.length > 0) {
            // the engine's continuation kept it open (a submission refused, a field asked again): its text is shown
          } else if (open === startPending && open.kind === 'form') {
            // the form stays open while the user asks something else; its open question is repeated
            const q = pendingQuestion(open);
            if (q && (open.confirm ? !/\(yes \/ no\)/.test(text) : !text.includes('?'))) tails.push(q);
          } else {
            // a prepared decision, withdrawal or choice the user did not answer lapses, as in the built-in engine
            ctx.state.pending = undefined;
          }
        }
        for (const t of tails) {
          if (squash(text).includes(squash(t))) continue;
          const tail = `\n\n${t}`;
          text += tail;
          if (stream) {
            streamed = true;
            await stream.content(tail);
          }
        }
        return {
          reply: {
            text,
            suggestions: collected.suggestions ?? [...DEFAULT_SUGGESTIONS],
            approvalActions: collected.actions,
            showApprovalAction: collected.show,
            intent: `llm.${collected.intent ?? 'answer'}`,
            ...(collected.requestId ? { requestId: collected.requestId } : {}),
          },
          streamed,
        };
      }
      messages.push({ role: 'assistant', content: result.content || null, tool_calls: result.toolCalls });
      for (const call of result.toolCalls) {
        let args: Record<string, unknown> = {};
        try {
          args = call.function.arguments ? JSON.parse(call.function.arguments) : {};
        } catch {
          args = {};
        }
        const output = await runTool(ctx, call.function.name, args, collected, message);
        messages.push({ role: 'tool', tool_call_id: call.id, content: output });
      }
    } catch (err) {
      throw fail(err);
    }
  }
  throw fail(new ProviderError('too many tool rounds'));
}
