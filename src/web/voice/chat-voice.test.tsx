// @vitest-environment happy-dom
// The chat conversation with sound on (useChat + useChatVoice over a scripted stream): the request asks for speech,
// the message finishes at 'complete' and the next message may be sent while clips still arrive after it, and those
// clips reach the audio queue.
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../api/types';
import { useChat } from '../chat/useChat';
import { useChatVoice } from './useChatVoice';

const user = {
  id: 7,
  role: 'Software Engineer',
  email: 'alex@x.test',
  profile: { first_name: 'Alex', employee_code: 'EMP-1001' },
} as unknown as User;

let chat: ReturnType<typeof useChat>;
let voice: ReturnType<typeof useChatVoice>;

function Harness() {
  voice = useChatVoice({ initialSoundEnabled: true, log: () => {} });
  chat = useChat(user, voice);
  return <audio ref={voice.audioRef} />;
}

/** A stream the test writes to. */
function controllable() {
  let ctrl!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      ctrl = c;
    },
  });
  const enc = new TextEncoder();
  return {
    body,
    send: (event: unknown) => ctrl.enqueue(enc.encode(`data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`)),
    close: () => ctrl.close(),
  };
}

const json = (value: unknown) => ({ ok: true, status: 200, text: async () => JSON.stringify(value), json: async () => value });

let stream: ReturnType<typeof controllable>;
let chatBodies: Array<Record<string, unknown>>;

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem('adminease_chat_session', 'simple-test');
  chatBodies = [];
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('conversation-history')) return json({ history: [] });
      if (url === '/ai/streaming-chat' || url.endsWith('/chat-stream')) {
        chatBodies.push(JSON.parse(String(init?.body)));
        stream = controllable();
        return { ok: true, status: 200, body: stream.body };
      }
      return json({});
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('chat with sound on', () => {
  it('finishes the message at complete; clips arriving after it still play', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(chat.messages.length).toBe(1)); // the welcome message
    let sent!: Promise<void>;
    act(() => {
      sent = chat.send('hello');
    });
    await waitFor(() => expect(chatBodies).toHaveLength(1));
    expect(chatBodies[0]).toMatchObject({ message: 'hello', tts: true, audio_format: 'mp3' });
    expect(voice.generating).toBe(true);
    act(() => {
      stream.send({ type: 'content', content: 'Hi Alex! ' });
      stream.send({
        type: 'tts_chunk',
        audio_data: btoa('clip0'),
        audio_format: 'mp3',
        text: 'Hi Alex!',
        chunk_index: 0,
        text_start: 0,
        text_end: 8,
      });
      stream.send({ type: 'content', content: 'How can I help?' });
      stream.send({ type: 'suggestions', suggestions: ['Request leave'] });
      stream.send({ type: 'complete', show_approval_action: false });
    });
    // the text is complete: the message is finished and a new message may be sent, though the stream is still open
    await waitFor(() => expect(chat.sending).toBe(false));
    const reply = chat.messages.at(-1)!;
    expect(reply).toMatchObject({ sender: 'bot', text: 'Hi Alex! How can I help?', isStreaming: false });
    expect(chat.suggestions).toEqual(['Request leave']);
    await waitFor(() => expect(voice.queueState.playing?.chunkIndex).toBe(0));
    // the second sentence's clip comes after complete: it still reaches the queue
    act(() => {
      stream.send({
        type: 'tts_chunk',
        audio_data: btoa('clip1'),
        audio_format: 'mp3',
        text: 'How can I help?',
        chunk_index: 1,
        text_start: 9,
        text_end: 24,
      });
      stream.send('[DONE]');
      stream.close();
    });
    await act(async () => {
      await sent;
    });
    expect(voice.queueState.waiting + (voice.queueState.playing ? 1 : 0)).toBe(2);
    expect(voice.lastClip?.chunks).toHaveLength(2);
  });

  it("an approver's automatic greeting asks for no speech, plays none and leaves the chat usable; the user's message is spoken", async () => {
    const manager = { ...user, role: 'Department Manager' };
    function ManagerHarness() {
      voice = useChatVoice({ initialSoundEnabled: true, log: () => {} });
      chat = useChat(manager, voice);
      return <audio ref={voice.audioRef} />;
    }
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ManagerHarness />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(chatBodies).toHaveLength(1));
    expect(chatBodies[0]).toMatchObject({ auto_greeting: true, tts: false });
    // While the greeting is still arriving, the chat is not busy.
    expect(chat.sending).toBe(false);
    expect(voice.generating).toBe(false);
    const greetingStream = stream;
    act(() => {
      greetingStream.send({ type: 'content', content: 'Good morning! ' });
      greetingStream.send({ type: 'tts_chunk', audio_data: btoa('g'), audio_format: 'mp3', text: 'Good morning!', chunk_index: 0 });
    });
    await waitFor(() => expect(chat.messages.at(-1)?.text).toContain('Good morning'));
    expect(voice.queueState.playing).toBeFalsy();
    let sent!: Promise<void>;
    act(() => {
      sent = chat.send('show pending');
    });
    await waitFor(() => expect(chatBodies).toHaveLength(2));
    expect(chatBodies[1]).toMatchObject({ message: 'show pending', tts: true });
    act(() => {
      greetingStream.send({ type: 'complete' });
      greetingStream.close();
      stream.send({ type: 'content', content: 'Here they are.' });
      stream.send({ type: 'tts_chunk', audio_data: btoa('r'), audio_format: 'mp3', text: 'Here they are.', chunk_index: 0 });
      stream.send({ type: 'complete' });
      stream.close();
    });
    await act(async () => {
      await sent;
    });
    await waitFor(() => expect(voice.queueState.playing?.messageId).toBe(chat.messages.at(-1)?.id));
  });
});
