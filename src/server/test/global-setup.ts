// Vitest global setup: one PostgreSQL per test project (the embedded server, or the external server of
// TEST_DATABASE_URL / 127.0.0.1:5432), with a template database that is migrated and seeded once.
// Each test file then creates its own database from the template (fast) and drops it at the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { trainedModel } from '../assistant/engine/nlu.js';
import { startEmbedded } from '../db/embedded.js';
import { migrate } from '../db/migrate.js';
import { createDb } from '../db/pool.js';
import { seedDemo } from '../db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDbUrl: string;
    templateDb: string;
    dbTarget: string;
    /** A file holding the assistant's NLU model, trained once for the run (see startTestApp). */
    nluModelFile: string;
  }
}

export const externalUrl = () => process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const target = (project.config.env?.AE_DB_TARGET as string) || 'embedded';
  let adminUrl: string;
  let stopServer: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (target === 'external') {
    adminUrl = externalUrl();
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-test-'));
    const server = await startEmbedded({ dataDir, fast: true });
    adminUrl = server.urlFor('postgres');
    stopServer = server.stop;
  }
  const templateDb = `ae_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${templateDb}`);
  const db = createDb(withDatabase(adminUrl, templateDb), 2);
  await migrate(db);
  await seedDemo(db);
  await db.close();

  // The assistant's NLU, trained once here: every test app loads this model instead of training its own.
  const modelDir = mkdtempSync(path.join(os.tmpdir(), 'adminease-nlu-'));
  const nluModelFile = path.join(modelDir, 'model.json');
  writeFileSync(nluModelFile, await trainedModel());

  project.provide('adminDbUrl', adminUrl);
  project.provide('nluModelFile', nluModelFile);
  project.provide('templateDb', templateDb);
  project.provide('dbTarget', target);

  return async () => {
    // Drop what this run created, including databases of test files that failed before their cleanup.
    const left = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2', [
      `ae_t_${templateDb.slice(7)}_%`,
      templateDb,
    ]);
    for (const r of left.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    if (stopServer) await stopServer();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    rmSync(modelDir, { recursive: true, force: true });
  };
}
