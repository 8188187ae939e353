// Demo mode: the demo organisation's accounts share a password printed in the README and on the sign-in screen,
// so it is only ever an explicit, visible choice. Demo mode is on when the configuration asks for it
// (ADMINEASE_DEMO; on by default only for the embedded database) AND this database was given the demo
// organisation (recorded in installation_settings when it was loaded). A database of real people therefore never
// turns into a demo because of a default, and a demo database started with demo mode off shows no demo panel and
// refuses the published password.
import type { Queryable } from '../db/pool.js';

/** The password every demo account is created with (demo-org.json's demo_password; a test keeps them equal). */
export const PUBLISHED_DEMO_PASSWORD = 'Demo@12345';

const DEMO_KEY = 'demo_organisation';

/** Records, inside the seeding transaction, that this database holds the demo organisation. */
export async function markDemoDatabase(c: Queryable): Promise<void> {
  await c.query(
    `INSERT INTO installation_settings (key, value) VALUES ($1, 'loaded')
     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
    [DEMO_KEY],
  );
}

/** Whether the demo organisation was loaded into this database. */
export async function isDemoDatabase(c: Queryable): Promise<boolean> {
  const r = await c.query('SELECT 1 FROM installation_settings WHERE key = $1', [DEMO_KEY]);
  return (r.rowCount ?? 0) > 0;
}

/** The demo mode in force: asked for by the configuration and backed by a demo database. */
export async function effectiveDemoMode(c: Queryable, configured: boolean): Promise<boolean> {
  return configured && (await isDemoDatabase(c));
}
