// Assistant configuration: per-role switches (a disabled role's users get the maintenance message; stored in
// app_settings under 'assistant.roles', defaults from ASSISTANT_DISABLED_ROLES) and the optional external
// model (ASSISTANT_LLM_BASE_URL, ASSISTANT_LLM_MODEL, ASSISTANT_LLM_API_KEY, ASSISTANT_LLM_TIMEOUT_MS).
import { type ChatbotKind, chatbotForRole } from '../../domain/roles.js';
import type { Queryable } from '../db/pool.js';
import { ASSISTANT_NAME } from './engine/types.js';

export const CHATBOT_KINDS: readonly ChatbotKind[] = ['employee', 'manager', 'hr', 'finance', 'it', 'facilities'];
export const SETTINGS_KEY = 'assistant.roles';

export const DEFAULT_MAINTENANCE_MESSAGE =
  `${ASSISTANT_NAME} is taking a short break for maintenance right now. 🛠️ Everything still works on your dashboard, and I'll be back soon!`;

export interface RoleConfig { enabled: boolean; message?: string }
export type RolesConfig = Record<ChatbotKind, RoleConfig>;

export interface LlmSettings { baseUrl: string; model: string; apiKey: string; timeoutMs: number }

export interface AssistantSettings {
  disabledByDefault: ChatbotKind[];
  llm: LlmSettings | null;
}

/**
 * ASSISTANT_LLM_TIMEOUT_MS: the longest the provider may stay silent (before its answer starts, and between two
 * pieces of a streamed answer); a steady answer may take longer in total.
 */
function llmIdleTimeout(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 30_000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100 || n > 600_000) {
    throw new Error(`ASSISTANT_LLM_TIMEOUT_MS must be a whole number of milliseconds from 100 to 600000 (got ${JSON.stringify(raw)})`);
  }
  return n;
}

export function assistantSettings(env: NodeJS.ProcessEnv = process.env): AssistantSettings {
  const disabled = (env.ASSISTANT_DISABLED_ROLES ?? '')
    .split(',').map((s) => s.trim().toLowerCase()).filter((s): s is ChatbotKind => (CHATBOT_KINDS as readonly string[]).includes(s));
  const baseUrl = env.ASSISTANT_LLM_BASE_URL?.trim();
  const model = env.ASSISTANT_LLM_MODEL?.trim();
  return {
    disabledByDefault: disabled,
    llm: baseUrl && model
      ? { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: env.ASSISTANT_LLM_API_KEY ?? '', timeoutMs: llmIdleTimeout(env.ASSISTANT_LLM_TIMEOUT_MS) }
      : null,
  };
}

/** The role switches: stored values over the environment defaults; every kind present. */
export async function rolesConfig(db: Queryable, settings: AssistantSettings): Promise<RolesConfig> {
  const r = await db.query('SELECT value FROM app_settings WHERE key = $1', [SETTINGS_KEY]);
  const stored = (r.rows[0]?.value ?? {}) as Partial<Record<string, Partial<RoleConfig>>>;
  const out = {} as RolesConfig;
  for (const kind of CHATBOT_KINDS) {
    const s = stored[kind];
    out[kind] = {
      enabled: typeof s?.enabled === 'boolean' ? s.enabled : !settings.disabledByDefault.includes(kind),
      ...(typeof s?.message === 'string' && s.message.trim() ? { message: s.message.trim() } : {}),
    };
  }
  return out;
}

/** Turns the assistant on or off for one role kind (with an optional maintenance message). */
export async function setRoleConfig(db: Queryable, kind: ChatbotKind, config: RoleConfig): Promise<void> {
  const value = { [kind]: { enabled: config.enabled, ...(config.message ? { message: config.message } : {}) } };
  await db.query(
    `INSERT INTO app_settings (key, value) VALUES ($1, $2::jsonb)
     ON CONFLICT (key) DO UPDATE SET value = app_settings.value || EXCLUDED.value`,
    [SETTINGS_KEY, JSON.stringify(value)],
  );
}

/** The maintenance message for a user's role, or undefined when the assistant is on for them. */
export async function maintenanceFor(db: Queryable, settings: AssistantSettings, role: string): Promise<string | undefined> {
  const kind = chatbotForRole(role);
  const cfg = (await rolesConfig(db, settings))[kind];
  return cfg.enabled ? undefined : cfg.message ?? DEFAULT_MAINTENANCE_MESSAGE;
}
