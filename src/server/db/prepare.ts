// What every start does to the database before serving: apply the migrations, then load the demo organisation
// when demo mode is asked for and the database is empty. Without demo mode nothing is loaded: a new
// installation has no accounts and therefore no known password.
import type { Config } from '../config.js';
import { migrate } from './migrate.js';
import type { Db } from './pool.js';
import { seedDemo } from './seed.js';

export async function prepareDatabase(
  db: Db,
  config: Pick<Config, 'demo' | 'dataDir' | 'secretKey' | 'secretKeyFile'>,
): Promise<{ applied: string[]; seeded?: { users: number; requests: number } }> {
  const applied = await migrate(db);
  const seeded = config.demo ? await seedDemo(db, new Date(), config) : undefined;
  return { applied, seeded };
}
