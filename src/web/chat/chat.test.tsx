// @vitest-environment happy-dom
// The chat panel: spec texts, Enter sends, blank and in-flight sends ignored, suggestions with Dismiss (clicks
// ignored while sending), hour:minute times, '[View Approvals]' as a link, 'Go to Approval Panel' highlighting the
// approval panel for 2 s, the waiting indicator every 2333 ms, approval buttons sending their message; the stream
// reader; the role mapping of the calls; the avatar states; 'Initializing chatbot...' without auth.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssistantPanel } from './AssistantPanel';
import { AVATAR_CAPTIONS, AvatarPanel } from './Avatar';
import { ChatPanel, type ChatPanelProps, HIGHLIGHT_MS, PLACEHOLDER, WAITING_SWITCH_MS, clockTime } from './ChatPanel';
import { chatStreamUrl, chatUserId, readEventStream, sessionFamily } from './chat-api';
import type { ChatMessage } from './useChat';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const bot = (text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id: `b-${Math.random()}`,
  text,
  sender: 'bot',
  timestamp: new Date(2027, 0, 5, 9, 7),
  isStreaming: false,
  showApprovalButton: false,
  approvalActions: [],
  ...extra,
});

function renderPanel(over: Partial<ChatPanelProps> = {}) {
  const props: ChatPanelProps = {
    messages: [bot('Hello Alex!')],
    sending: false,
    suggestions: ['Request leave', 'Book meeting room', 'Report IT issue', 'Update info'],
    suggestionsVisible: true,
    input: '',
    onInput: vi.fn(),
    onSend: vi.fn(),
    onDismissSuggestions: vi.fn(),
    ...over,
  };
  render(<ChatPanel {...props} />);
  return props;
}

describe('ChatPanel', () => {
  it('shows the spec texts and badges', () => {
    renderPanel();
    expect(screen.getByRole('heading', { name: 'Chat with Chief Smile Officer' })).toBeTruthy();
    expect(screen.getByText('Text messages and voice transcripts appear here.')).toBeTruthy();
    expect(screen.getByText('Online')).toBeTruthy();
    expect(screen.getByText('CSO')).toBeTruthy();
    expect(screen.getByPlaceholderText(PLACEHOLDER)).toBeTruthy();
    expect(PLACEHOLDER).toBe('Type your message or click the mic to use voice input...');
    expect(screen.getByText('Suggested Actions')).toBeTruthy();
    expect(screen.getByText('09:07')).toBeTruthy();
  });

  it('sends on Enter, never a blank message or while a reply is in flight', () => {
    const p = renderPanel({ input: 'book a room' });
    fireEvent.keyDown(screen.getByPlaceholderText(PLACEHOLDER), { key: 'Enter' });
    expect(p.onSend).toHaveBeenCalledWith('book a room');
    cleanup();
    const blank = renderPanel({ input: '   ' });
    fireEvent.keyDown(screen.getByPlaceholderText(PLACEHOLDER), { key: 'Enter' });
    expect(blank.onSend).not.toHaveBeenCalled();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' }).disabled).toBe(true);
    cleanup();
    const busy = renderPanel({ input: 'hello', sending: true });
    fireEvent.keyDown(screen.getByPlaceholderText(PLACEHOLDER), { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Request leave' }));
    expect(busy.onSend).not.toHaveBeenCalled();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send message' }).disabled).toBe(true);
  });

  it('sends a suggestion and dismisses the strip', () => {
    const p = renderPanel();
    fireEvent.click(screen.getByRole('button', { name: 'Book meeting room' }));
    expect(p.onSend).toHaveBeenCalledWith('Book meeting room');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(p.onDismissSuggestions).toHaveBeenCalled();
    cleanup();
    renderPanel({ suggestionsVisible: false });
    expect(screen.queryByText('Suggested Actions')).toBeNull();
  });

  it('turns [View Approvals] into a link and offers Go to Approval Panel, which highlights the panel for 2 s', () => {
    vi.useFakeTimers();
    const target = document.createElement('section');
    target.id = 'approval-panel';
    const scrollIntoView = vi.fn();
    target.scrollIntoView = scrollIntoView;
    document.body.appendChild(target);
    renderPanel({ messages: [bot('You have 2 requests waiting 👇 [View Approvals]', { showApprovalButton: true })] });
    expect(screen.queryByText(/\[View Approvals\]/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View Approvals' }));
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    // The arrows are lucide icons, not the emoji (a missing-glyph box where no emoji font is installed).
    const goTo = screen.getByRole('button', { name: 'Go to Approval Panel' });
    expect(goTo.textContent).not.toContain('👇');
    expect(goTo.querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('point-down').tagName.toLowerCase()).toBe('svg');
    expect(screen.getByTestId('chat-messages').textContent).not.toContain('👇');
    fireEvent.click(goTo);
    expect(target.hasAttribute('data-cso-highlight')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(HIGHLIGHT_MS - 10);
    });
    expect(target.hasAttribute('data-cso-highlight')).toBe(true);
    act(() => {
      vi.advanceTimersByTime(20);
    });
    expect(target.hasAttribute('data-cso-highlight')).toBe(false);
    target.remove();
  });

  it('cycles the waiting indicator every 2333 ms while the reply has not started', () => {
    vi.useFakeTimers();
    renderPanel({ messages: [bot('', { isStreaming: true })], sending: true });
    const ind = screen.getByTestId('waiting-indicator');
    expect(ind.textContent).toMatch(/^Thinking\.\.\./);
    act(() => {
      vi.advanceTimersByTime(WAITING_SWITCH_MS);
    });
    expect(ind.textContent).toMatch(/^Collecting data\.\.\./);
    act(() => {
      vi.advanceTimersByTime(WAITING_SWITCH_MS);
    });
    expect(ind.textContent).toMatch(/^Checking forms\.\.\./);
    act(() => {
      vi.advanceTimersByTime(WAITING_SWITCH_MS);
    });
    expect(ind.textContent).toMatch(/^Thinking\.\.\./);
    expect(WAITING_SWITCH_MS).toBe(2333);
  });

  it('renders approval actions whose buttons send their messages', () => {
    const p = renderPanel({
      messages: [
        bot('Waiting for you:', {
          approvalActions: [
            {
              request_id: 'LR-000123',
              form_type: 'leave-request',
              title: 'Leave Request',
              employee_name: 'Alex Johnson',
              summary: 'Annual leave',
              buttons: [
                { label: 'Approve', action: 'approve', request_id: 'LR-000123', message: 'approve LR-000123', style: 'success' },
                { label: 'Reject', action: 'reject', request_id: 'LR-000123', message: 'reject LR-000123', style: 'danger' },
                { label: 'View', action: 'view', request_id: 'LR-000123', message: 'show details of LR-000123', style: 'secondary' },
              ],
            },
          ],
        }),
      ],
    });
    const card = screen.getByTestId('approval-action');
    fireEvent.click(within(card).getByRole('button', { name: 'Approve LR-000123' }));
    fireEvent.click(within(card).getByRole('button', { name: 'View LR-000123' }));
    expect(p.onSend).toHaveBeenNthCalledWith(1, 'approve LR-000123');
    expect(p.onSend).toHaveBeenNthCalledWith(2, 'show details of LR-000123');
  });

  it('writes times as hour:minute', () => {
    expect(clockTime(new Date(2027, 2, 1, 7, 5))).toBe('07:05');
    expect(clockTime(new Date(2027, 2, 1, 19, 45))).toBe('19:45');
  });
});

describe('stream reader and calls', () => {
  function body(text: string[]): ReadableStream<Uint8Array> {
    const enc = new TextEncoder();
    return new ReadableStream({
      start(c) {
        for (const t of text) c.enqueue(enc.encode(t));
        c.close();
      },
    });
  }

  it('reads data lines across chunk borders, skips malformed ones and stops at [DONE]', async () => {
    const events = [];
    for await (const e of readEventStream(
      body([
        'data: {"type":"content","content":"Hel',
        'lo"}\n\ndata: {oops}\n\n',
        'data: {"type":"complete","show_approval_action":true}\n\ndata: [DONE]\n\ndata: {"type":"content","content":"late"}\n\n',
      ]),
    ))
      events.push(e);
    expect(events).toEqual([
      { type: 'content', content: 'Hello' },
      { type: 'complete', show_approval_action: true },
    ]);
  });

  it('maps roles to stream URLs and session families, and HR staff to their hr_id', () => {
    expect(chatStreamUrl('Employee')).toBe('/ai/streaming-chat');
    expect(chatStreamUrl('Software Engineer')).toBe('/ai/streaming-chat');
    expect(chatStreamUrl('Department Manager')).toBe('/ai/manager/chat-stream');
    expect(chatStreamUrl('HR Manager')).toBe('/ai/hr/chat-stream');
    expect(chatStreamUrl('Facilities Desk Coordinator')).toBe('/ai/facilities/chat-stream');
    expect(sessionFamily('Facilities Desk Coordinator')).toBe('facilities');
    expect(sessionFamily('Marketing Executive')).toBe('simple');
    const hr = {
      id: 5,
      email: 'x',
      role: 'HR Manager',
      user_type: 'hr_staff',
      department_code: null,
      department: null,
      profile: { first_name: 'M', last_name: 'I', employee_code: 'HR-001', employee_id: 'HR-001', hr_id: 'HR-001', manager_id: null },
    };
    expect(chatUserId(hr)).toBe('HR-001');
    expect(chatUserId({ ...hr, profile: { ...hr.profile, hr_id: null } })).toBe(5);
  });
});

describe('avatar and panel', () => {
  it('draws each state with its caption', () => {
    for (const state of ['greeting', 'listening', 'speaking', 'idle'] as const) {
      render(<AvatarPanel state={state} />);
      expect(screen.getByTestId('cso-avatar').getAttribute('data-state')).toBe(state);
      expect(screen.getByTestId('avatar-caption').textContent).toBe(AVATAR_CAPTIONS[state]);
      cleanup();
    }
  });

  it('shows Initializing chatbot... without a signed-in user', () => {
    render(<AssistantPanel />);
    expect(screen.getByText('Initializing chatbot...')).toBeTruthy();
  });
});
