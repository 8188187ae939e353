// Optional cloud provider: Google Cloud Text-to-Speech (REST v1 text:synthesize), used when GOOGLE_TTS_API_KEY is set.
// Gemini-TTS models (model_name gemini-*) take the bare speaker name ('Charon'); other voices their full name.
import { type AudioFormat, googleEncodingOf } from './formats.js';
import { speakerOf } from './voices.js';

export interface GoogleSettings {
  apiKey: string;
  endpoint: string;
  timeoutMs: number;
}

export interface GoogleRequest {
  text: string;
  voiceName: string;
  modelName?: string;
  languageCode: string;
  format: AudioFormat;
}

/** The request body Google expects for our request. */
export function googleRequestBody(req: GoogleRequest): Record<string, unknown> {
  const gemini = Boolean(req.modelName && /^gemini/i.test(req.modelName));
  return {
    input: { text: req.text },
    voice: gemini
      ? { languageCode: req.languageCode, name: speakerOf(req.voiceName), modelName: req.modelName }
      : { languageCode: req.languageCode, name: req.voiceName },
    audioConfig: { audioEncoding: googleEncodingOf(req.format) },
  };
}

/** Calls Google; resolves to the audio bytes, rejects with a short reason (never the key) on any failure. */
export async function googleSynthesize(
  settings: GoogleSettings,
  req: GoogleRequest,
  fetchImpl: typeof fetch = fetch,
): Promise<{ audio: Uint8Array; voiceUsed: string }> {
  const body = googleRequestBody(req);
  const res = await fetchImpl(settings.endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': settings.apiKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(settings.timeoutMs),
  });
  if (!res.ok) {
    let detail = '';
    try {
      detail = String((await res.json())?.error?.message ?? '').slice(0, 200);
    } catch {
      /* not JSON */
    }
    throw new Error(`Google TTS answered ${res.status}${detail ? `: ${detail}` : ''}`);
  }
  const json = (await res.json()) as { audioContent?: string };
  if (!json.audioContent) throw new Error('Google TTS answered without audioContent');
  const audio = new Uint8Array(Buffer.from(json.audioContent, 'base64'));
  if (audio.length === 0) throw new Error('Google TTS returned empty audio');
  return { audio, voiceUsed: req.voiceName };
}
