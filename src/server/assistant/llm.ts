// Optional external model: any OpenAI-compatible chat-completions server (OpenAI, Azure, Ollama, vLLM,
// llama.cpp server, Gemini's compatible endpoint), streamed, with the built-in engine's actions offered as
// tools. Tools run the engine's own skills for the signed-in user, so the same permission checks apply, and
// actions that change data only prepare a confirmation that the built-in engine completes on 'yes'.
import { FORM_TYPES, formTypeDef } from '../../domain/forms.js';
import type { LlmSettings } from './config.js';
import { decisionForTool, detailsReply, queueReply } from './engine/approval-flow.js';
import { startFormWithFields } from './engine/form-flow.js';
import { holidayReply, leaveBalanceReply, myRequestsReply } from './engine/info.js';
import { ASSISTANT_NAME, type ApprovalAction, DEFAULT_SUGGESTIONS, type Reply, type TurnContext } from './engine/types.js';
import { confirmWithdraw } from './engine/withdraw-flow.js';
import { recentMessages } from './sessions.js';
import type { ChatStream } from './stream.js';

const MAX_ROUNDS = 4;

interface ToolCall { id: string; type: 'function'; function: { name: string; arguments: string } }
type Message =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

const str = { type: 'string' } as const;

/** The tools offered to the model: the engine's actions. */
export const TOOLS = [
  { type: 'function', function: { name: 'get_leave_balance', description: "The user's annual leave balance for a year.", parameters: { type: 'object', properties: { year: { type: 'integer' } } } } },
  { type: 'function', function: { name: 'get_my_requests', description: "Status of the user's own requests. Optional filters: a request id (e.g. LR-000123), a form type, a status, or words such as a destination.", parameters: { type: 'object', properties: { request_id: str, form_type: { type: 'string', enum: FORM_TYPES.map((t) => t.formType) }, status: str, words: str } } } },
  { type: 'function', function: { name: 'get_holidays', description: "Holidays: a holiday's name and/or a year or month, e.g. 'Diwali 2027' or 'December'.", parameters: { type: 'object', properties: { query: str }, required: ['query'] } } },
  { type: 'function', function: { name: 'list_pending_approvals', description: 'What waits for the user\'s approval (only for approvers).', parameters: { type: 'object', properties: { form_type: str } } } },
  { type: 'function', function: { name: 'get_request_details', description: 'Details of one request the user may see.', parameters: { type: 'object', properties: { request_id: str }, required: ['request_id'] } } },
  { type: 'function', function: { name: 'prepare_form_submission', description: 'Start submitting a form for the user with the fields they stated (dates YYYY-MM-DD, times HH:MM, amounts in USD). The assistant then asks for missing fields and for confirmation; nothing is submitted until the user says yes.', parameters: { type: 'object', properties: { form_type: { type: 'string', enum: FORM_TYPES.map((t) => t.formType) }, fields: { type: 'object' } }, required: ['form_type'] } } },
  { type: 'function', function: { name: 'prepare_decision', description: 'Prepare approving or rejecting a request waiting for the user (approvers only). Nothing changes until the user confirms.', parameters: { type: 'object', properties: { request_id: str, decision: { type: 'string', enum: ['Approved', 'Rejected'] }, reason: str }, required: ['request_id', 'decision'] } } },
  { type: 'function', function: { name: 'prepare_withdrawal', description: "Prepare withdrawing one of the user's own pending requests. Nothing changes until the user confirms.", parameters: { type: 'object', properties: { request_id: str }, required: ['request_id'] } } },
] as const;

function systemPrompt(ctx: TurnContext): string {
  const u = ctx.user;
  return [
    `You are ${ASSISTANT_NAME} (CSO), the friendly assistant of the AdminEase forms and approvals portal.`,
    `You talk with ${u.first_name} ${u.last_name} (${u.role}, ${u.department_name ?? 'no department'}). Today is ${ctx.now.toISOString().slice(0, 10)}.`,
    'Answer briefly and warmly. Use the tools for every fact about requests, balances, holidays and approvals; never invent ids, numbers or dates.',
    'You can only see and do what this user may see and do in the dashboards; the tools enforce it. Never reveal other people\'s data beyond what a tool returns.',
    'To submit, decide or withdraw anything, call the prepare_* tool and relay its text: the user confirms with yes in their next message.',
    `Form types: ${FORM_TYPES.map((t) => `${t.formType} (${t.title})`).join(', ')}.`,
  ].join('\n');
}

class ProviderError extends Error {
  streamed = false;
}

interface Collected { actions: ApprovalAction[]; show: boolean; suggestions?: string[]; requestId?: string; intent?: string }

async function runTool(ctx: TurnContext, name: string, args: Record<string, unknown>, out: Collected): Promise<string> {
  const s = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
  let r: Reply;
  switch (name) {
    case 'get_leave_balance':
      r = await leaveBalanceReply(ctx, args.year ? `balance ${s(args.year)}` : 'balance');
      break;
    case 'get_my_requests': {
      const words = [s(args.request_id), s(args.status), s(args.words), args.form_type ? formTypeDef(s(args.form_type))?.title ?? '' : ''].filter(Boolean).join(' ');
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
      r = await startFormWithFields(ctx, ft, (args.fields && typeof args.fields === 'object' ? args.fields : {}) as Record<string, unknown>);
      break;
    }
    case 'prepare_decision':
      r = await decisionForTool(ctx, s(args.request_id).toUpperCase(), s(args.decision) === 'Rejected' ? 'Rejected' : 'Approved', s(args.reason) || undefined);
      break;
    case 'prepare_withdrawal':
      r = await confirmWithdraw(ctx, s(args.request_id).toUpperCase());
      break;
    default:
      return `Unknown tool ${name}.`;
  }
  out.actions.push(...r.approvalActions);
  out.show ||= r.showApprovalAction;
  out.suggestions = r.suggestions;
  out.intent = r.intent;
  return r.text;
}

/** Reads an OpenAI-style SSE body: content deltas go to onContent; tool call deltas are assembled. */
async function readCompletion(res: Response, onContent: (t: string) => Promise<void>): Promise<{ content: string; toolCalls: ToolCall[]; finish: string | null }> {
  if (!res.body) throw new ProviderError('No response body reader available');
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let content = '';
  let finish: string | null = null;
  const calls: ToolCall[] = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return { content, toolCalls: calls.filter(Boolean), finish };
      let json: any;
      try { json = JSON.parse(data); } catch { continue; }
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
  }
  return { content, toolCalls: calls.filter(Boolean), finish };
}

/**
 * One turn answered by the external model. Throws on any provider problem (the caller falls back to the
 * built-in engine); the thrown error carries streamed=true when part of the answer already went out.
 */
export async function llmTurn(ctx: TurnContext, s: LlmSettings, message: string, sessionId: string, stream?: ChatStream): Promise<{ reply: Reply; streamed: boolean }> {
  const history = await recentMessages(ctx.db, ctx.user.id, 10, sessionId);
  const messages: Message[] = [{ role: 'system', content: systemPrompt(ctx) }];
  for (const m of history) messages.push({ role: m.message_type === 'user' ? 'user' : 'assistant', content: m.content });
  messages.push({ role: 'user', content: message });
  const collected: Collected = { actions: [], show: false };
  let text = '';
  let streamed = false;

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), s.timeoutMs);
    let res: Response;
    try {
      res = await fetch(`${s.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...(s.apiKey ? { authorization: `Bearer ${s.apiKey}`, 'api-key': s.apiKey } : {}),
        },
        body: JSON.stringify({ model: s.model, messages, tools: TOOLS, tool_choice: 'auto', stream: true }),
        signal: controller.signal,
      });
    } catch (err) {
      clearTimeout(timer);
      const e = new ProviderError(`provider unreachable: ${(err as Error).message}`);
      e.streamed = streamed;
      throw e;
    }
    try {
      if (!res.ok) {
        const body = await res.text().catch(() => '');
        throw new ProviderError(`HTTP error! status: ${res.status} ${body.slice(0, 200)}`);
      }
      const result = await readCompletion(res, async (t) => {
        text += t;
        if (stream) { streamed = true; await stream.content(t, { split: false }); }
      });
      if (result.toolCalls.length === 0) {
        if (!text.trim()) throw new ProviderError('the model answered nothing');
        return {
          reply: { text, suggestions: collected.suggestions ?? [...DEFAULT_SUGGESTIONS], approvalActions: collected.actions, showApprovalAction: collected.show, intent: `llm.${collected.intent ?? 'answer'}` },
          streamed,
        };
      }
      messages.push({ role: 'assistant', content: result.content || null, tool_calls: result.toolCalls });
      for (const call of result.toolCalls) {
        let args: Record<string, unknown> = {};
        try { args = call.function.arguments ? JSON.parse(call.function.arguments) : {}; } catch { args = {}; }
        const output = await runTool(ctx, call.function.name, args, collected);
        messages.push({ role: 'tool', tool_call_id: call.id, content: output });
      }
    } catch (err) {
      const e = err instanceof ProviderError ? err : new ProviderError((err as Error).message);
      e.streamed = streamed;
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }
  const e = new ProviderError('too many tool rounds');
  e.streamed = streamed;
  throw e;
}
