// Assistant configuration: per-role switches (a disabled role's users get the maintenance message; stored in
// app_settings under 'assistant.roles', defaults from ASSISTANT_DISABLED_ROLES) and the optional external
// model (ASSISTANT_LLM_BASE_URL, ASSISTANT_LLM_MODEL, ASSISTANT_LLM_API_KEY, ASSISTANT_LLM_TIMEOUT_MS), all read
// and checked in src/server/config.ts.
import { type ChatbotKind, chatbotForRole } from '../../domain/roles.js';
import type { AssistantSettings } from '../config.js';
import { ASSISTANT_KINDS } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { ASSISTANT_NAME } from './engine/types.js';

export const CHATBOT_KINDS: readonly ChatbotKind[] = ASSISTANT_KINDS;
export const SETTINGS_KEY = 'assistant.roles';

export const DEFAULT_MAINTENANCE_MESSAGE = `${ASSISTANT_NAME} is taking a short break for maintenance right now. 🛠️ Everything still works on your dashboard, and I'll be back soon!`;

export interface RoleConfig {
  enabled: boolean;
  message?: string;
}
export type RolesConfig = Record<ChatbotKind, RoleConfig>;

export type { AssistantSettings, LlmSettings } from '../config.js';

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
  return cfg.enabled ? undefined : (cfg.message ?? DEFAULT_MAINTENANCE_MESSAGE);
}
