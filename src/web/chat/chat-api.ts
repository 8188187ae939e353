// The chat panel's calls (chat streams and assistant sessions): which stream URL and session
// family a role uses, the user id sent (HR staff send their hr_id), opening a session, and reading the
// `data: {json}` event stream (malformed lines skipped, 'data: [DONE]' ends it).
import { readJsonEvents } from '../../domain/event-stream';
import { chatbotForRole, sessionFamilyForRole } from '../../domain/roles';
import { api } from '../api/client';
import type { ChatSessionLoginResponse, User } from '../api/types';
import { getChatSessionId, setChatSessionId } from '../auth/storage';

export const FALLBACK_GREETING = "Hello! I'm Chief Smile Officer, your AI assistant. How can I help you today?";
export const DEFAULT_SUGGESTIONS = ['Request leave', 'Book meeting room', 'Report IT issue', 'Update info'] as const;

/** The streaming endpoint of a role: employees use /ai/streaming-chat, the mapped roles their own stream. */
export function chatStreamUrl(role: string | null | undefined): string {
  const kind = chatbotForRole(role);
  return kind === 'employee' ? '/ai/streaming-chat' : `/ai/${kind}/chat-stream`;
}

export function sessionFamily(role: string | null | undefined): string {
  return sessionFamilyForRole(role);
}

/** The user id of chat calls: for HR staff their hr_id when present, else the user id. */
export function chatUserId(user: User): string | number {
  return user.profile?.hr_id || user.id;
}

export function userInfo(user: User) {
  return {
    user_id: chatUserId(user),
    firstName: user.profile?.first_name ?? user.firstName ?? '',
    lastName: user.profile?.last_name ?? user.lastName ?? '',
    role: user.role,
    department: user.department?.department_name ?? user.department_code ?? '',
  };
}

/** The chat session of this sign-in: the one opened at login (auth storage), else a new one from POST /ai/{family}/session/login. */
export async function openChatSession(user: User, opts: { fresh?: boolean } = {}): Promise<{ sessionId: string; resumed: boolean }> {
  const stored = opts.fresh ? null : getChatSessionId();
  if (stored) return { sessionId: stored, resumed: true };
  const res = await api.post<ChatSessionLoginResponse>(`/ai/${sessionFamily(user.role)}/session/login`, {
    user_id: chatUserId(user),
    user_role: user.role,
  });
  setChatSessionId(res.session_id);
  return { sessionId: res.session_id, resumed: false };
}

export interface HistoryItem {
  role: 'user' | 'assistant';
  content: string;
  timestamp: string;
  metadata?: Record<string, unknown>;
}

/** The last messages of a session (POST /ai/{family}/session/conversation-history); errors give an empty list. */
export async function conversationHistory(user: User, sessionId: string, maxItems = 10): Promise<HistoryItem[]> {
  try {
    const res = await api.post<{ history: HistoryItem[] }>(
      `/ai/${sessionFamily(user.role)}/session/conversation-history`,
      { user_id: chatUserId(user), max_items: maxItems },
      { headers: { 'X-Session-Id': sessionId } },
    );
    return res.history ?? [];
  } catch {
    return [];
  }
}

export interface ApprovalButton {
  label: string;
  action: string;
  request_id: string;
  message: string;
  style?: string;
}
export interface ApprovalAction {
  request_id: string;
  form_type: string;
  title: string;
  employee_name: string;
  summary: string;
  buttons: ApprovalButton[];
}

export interface StreamEvent {
  type?: string;
  content?: string;
  suggestions?: string[];
  approval_action?: ApprovalAction;
  show_approval_action?: boolean;
  request_changed?: string;
  [k: string]: unknown;
}

/** Yields the events of a `data: {json}` stream until [DONE] or its end; data that is not JSON is skipped. */
export function readEventStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
  return readJsonEvents<StreamEvent>(body, { signal });
}

/** POSTs a chat message and returns its event stream; throws 'HTTP error! status: N' or 'No response body reader available'. */
export async function postChat(
  url: string,
  body: Record<string, unknown>,
  sessionId: string | null,
  signal?: AbortSignal,
): Promise<AsyncGenerator<StreamEvent>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  if (sessionId) headers['X-Session-Id'] = sessionId;
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin', signal });
  if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
  if (!res.body) throw new Error('No response body reader available');
  return readEventStream(res.body, signal);
}
