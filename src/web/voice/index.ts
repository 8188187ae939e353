// The voice module of the web app: audio queue, avatar timing, voice input, and the chat panel's voice controls.
export { AUDIO_QUEUE_MAX_CHUNKS, AudioQueue, TEXT_WAIT_POLL_MS, type AudioChunk, type AudioQueueState } from './audio-queue';
export { AVATAR_RETURN_MS, AvatarController, type AvatarState } from './avatar';
export { base64ToBytes, combineClips, extensionOf, mimeTypeOf } from './clips';
export { AudioBar, ListeningBox, MicButton, ReplayButton, SoundToggle, VoiceAudio } from './components';
export { type ChatVoice, type TtsStreamEvent, useChatVoice } from './useChatVoice';
export { VOICE_INPUT_UNSUPPORTED, VoiceInput, speechRecognitionConstructor } from './voice-input';
