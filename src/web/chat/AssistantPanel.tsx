// The assistant column of every dashboard: the Chief Smile Officer avatar panel and the chat panel, sharing the
// avatar state with the voice feature. Without a signed-in user (no auth context) it shows 'Initializing chatbot...'.
import { useEffect, useRef, useState } from 'react';
import { chatbotForRole } from '../../domain/roles';
import { api } from '../api/client';
import type { User } from '../api/types';
import { useOptionalAuth } from '../auth/AuthProvider';
import { usePreferences, useSavePreferences } from '../employee/preferences';
import { Card, Spinner } from '../ui';
import { useChatVoice } from '../voice/useChatVoice';
import { AvatarPanel } from './Avatar';
import { ChatPanel } from './ChatPanel';
import { useChat } from './useChat';

export function InitializingChatbot() {
  return (
    <Card className="flex items-center gap-3 p-4 text-sm text-gray-600" role="status" data-testid="chat-initializing">
      <Spinner size="sm" /> Initializing chatbot...
    </Card>
  );
}

function useAssistantStatus(role: string): 'Online' | 'Maintenance' {
  const [status, setStatus] = useState<'Online' | 'Maintenance'>('Online');
  useEffect(() => {
    const kind = chatbotForRole(role);
    const family = kind === 'employee' ? 'simple' : kind;
    let live = true;
    api
      .get<{ status: string }>(`/ai/${family}/health`, { expectUnauthorized: true })
      .then((h) => {
        if (live) setStatus(h.status === 'maintenance' ? 'Maintenance' : 'Online');
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [role]);
  return status;
}

function SignedInAssistant({ user }: { user: User }) {
  const sendRef = useRef<(text: string) => void>(() => undefined);
  // The user's stored sound and voice settings drive the chat's voice; the sound toggle saves its choice.
  const prefs = usePreferences();
  const savePrefs = useSavePreferences();
  const voice = useChatVoice({
    onTranscript: (text) => sendRef.current(text),
    // until the stored settings load, their defaults (or the cached ones) apply
    initialSoundEnabled: prefs.preferences.sound_enabled,
    soundEnabled: prefs.isSuccess ? prefs.preferences.sound_enabled : undefined,
    onSoundChange: (on) => savePrefs.mutate({ sound_enabled: on }),
    voiceName: prefs.preferences.voice_name,
    playbackRate: prefs.preferences.speech_rate,
    voiceInputLanguage: prefs.preferences.voice_input_language,
  });
  const chat = useChat(user, voice);
  sendRef.current = (text) => void chat.send(text);
  const status = useAssistantStatus(user.role);
  return (
    <div className="space-y-4" data-testid="assistant-panel">
      <AvatarPanel state={voice.avatarState} />
      <ChatPanel
        messages={chat.messages}
        sending={chat.sending}
        suggestions={chat.suggestions}
        suggestionsVisible={chat.suggestionsVisible}
        input={chat.input}
        onInput={chat.setInput}
        onSend={(text) => void chat.send(text)}
        onDismissSuggestions={chat.dismissSuggestions}
        onNewChat={() => void chat.newSession()}
        status={status}
        voice={voice}
      />
    </div>
  );
}

export function AssistantPanel() {
  const auth = useOptionalAuth();
  if (!auth?.user) return <InitializingChatbot />;
  return <SignedInAssistant key={String(auth.user.id)} user={auth.user} />;
}

export default AssistantPanel;
