// Per-user preferences (the header's settings button): sound, voice, display and e-mail choices, stored in
// users.preferences. One schema for the server's validation and the web's settings panel.
import { z } from 'zod';

export const DISPLAY_DENSITIES = ['comfortable', 'compact'] as const;
export const CATALOGUE_VIEWS = ['grid', 'list'] as const;
export const VOICE_LANGUAGES = ['en-US', 'en-GB', 'en-IN'] as const;
/** Voices offered in the settings; the speech service maps each to the nearest voice it has. */
export const VOICE_NAMES = ['en-US-Chirp3-HD-Charon', 'en-US-Chirp3-HD-Aoede', 'en-US-Chirp3-HD-Puck', 'en-US-Chirp3-HD-Kore'] as const;

export interface Preferences {
  /** Assistant replies are spoken (the chat's sound on/off). */
  sound_enabled: boolean;
  /** Voice of spoken replies (the speech service's voice_name). */
  voice_name: string;
  /** Playback speed of spoken replies. */
  speech_rate: number;
  /** Language of voice input (browser speech recognition). */
  voice_input_language: (typeof VOICE_LANGUAGES)[number];
  /** Table and card spacing. */
  display_density: (typeof DISPLAY_DENSITIES)[number];
  /** Fewer animations. */
  reduce_motion: boolean;
  /** How the forms catalogue opens. */
  catalogue_view: (typeof CATALOGUE_VIEWS)[number];
  /** E-mail me the decisions on my requests (a rejection, the final approval or status). */
  email_decisions: boolean;
  /** E-mail me each item that waits for my decision (with Approve / Reject links). */
  email_waiting: boolean;
  /** One daily digest instead of an e-mail per item (of the kinds above that are on). */
  email_digest: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  sound_enabled: true,
  voice_name: 'en-US-Chirp3-HD-Charon',
  speech_rate: 1,
  voice_input_language: 'en-US',
  display_density: 'comfortable',
  reduce_motion: false,
  catalogue_view: 'grid',
  email_decisions: true,
  email_waiting: true,
  email_digest: false,
};

/** A partial update: only known keys, each validated. */
export const PreferencesPatchSchema = z
  .object({
    sound_enabled: z.boolean({ message: 'sound_enabled must be true or false' }),
    voice_name: z.string().trim().min(1, 'voice_name must not be blank').max(100, 'voice_name is too long'),
    speech_rate: z
      .number({ message: 'speech_rate must be a number' })
      .min(0.5, 'speech_rate must be between 0.5 and 2')
      .max(2, 'speech_rate must be between 0.5 and 2'),
    voice_input_language: z.enum(VOICE_LANGUAGES, { message: `voice_input_language must be one of: ${VOICE_LANGUAGES.join(', ')}` }),
    display_density: z.enum(DISPLAY_DENSITIES, { message: `display_density must be one of: ${DISPLAY_DENSITIES.join(', ')}` }),
    reduce_motion: z.boolean({ message: 'reduce_motion must be true or false' }),
    catalogue_view: z.enum(CATALOGUE_VIEWS, { message: `catalogue_view must be one of: ${CATALOGUE_VIEWS.join(', ')}` }),
    email_decisions: z.boolean({ message: 'email_decisions must be true or false' }),
    email_waiting: z.boolean({ message: 'email_waiting must be true or false' }),
    email_digest: z.boolean({ message: 'email_digest must be true or false' }),
  })
  .partial()
  .strict();

export type PreferencesPatch = z.infer<typeof PreferencesPatchSchema>;

/** Stored preferences over the defaults; stored keys that are no longer valid fall back to their default. */
export function resolvePreferences(stored: unknown): Preferences {
  const out: Preferences = { ...DEFAULT_PREFERENCES };
  if (!stored || typeof stored !== 'object') return out;
  const shape = PreferencesPatchSchema.shape;
  for (const [k, v] of Object.entries(stored as Record<string, unknown>)) {
    const field = (shape as Record<string, z.ZodTypeAny>)[k];
    if (!field) continue;
    const r = field.safeParse(v);
    if (r.success && r.data !== undefined) (out as unknown as Record<string, unknown>)[k] = r.data;
  }
  return out;
}
