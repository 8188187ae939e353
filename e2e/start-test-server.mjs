// Starts AdminEase for the Playwright run from the production build (dist/server/main.js, as `npm start` does):
// a fresh temporary data folder, port 3100 (or E2E_PORT), test settings, serving dist/web (or ADMINEASE_WEB_DIR).
// Stops the server cleanly (and removes the folder) when Playwright ends the run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ADMINEASE_WEB_DIR / E2E_PORT: a build folder and port of one's own, so several runs can share the machine.
const webDir = path.resolve(root, process.env.ADMINEASE_WEB_DIR || 'dist/web');
const port = process.env.E2E_PORT || '3100';
// E-mail goes to a catcher on E2E_SMTP_PORT (default: the server's port + 1000) that e2e/email-actions.spec.ts
// starts; until it listens, the server's attempts fail quietly and nothing else depends on them.
const smtpPort = process.env.E2E_SMTP_PORT || String(Number(port) + 1000);
const serverMain = path.join(root, 'dist', 'server', 'main.js');
for (const needed of [path.join(webDir, 'index.html'), serverMain]) {
  if (!existsSync(needed)) {
    console.error(`${needed} is missing: run \`npm run build\` first (\`npm run test:e2e\` does).`);
    process.exit(1);
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'adminease-e2e-'));
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, serverMain], {
  cwd: root,
  stdio: 'inherit',
  // Own process group, so a last-resort kill reaches the server and the database it started.
  detached: true,
  env: {
    ...process.env,
    NODE_ENV: 'test',
    ADMINEASE_DATA_DIR: dataDir,
    PORT: port,
    ADMINEASE_WEB_DIR: webDir,
    ADMINEASE_LOGIN_RATE_LIMIT: '1000',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ADMINEASE_PUBLIC_URL: `http://localhost:${port}`,
    MAIL_LOCAL_LINKS: '1',
  },
});

let stopping = false;

function groupAlive() {
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Waits until every process of the server's group (the server, the database) has ended; SIGKILL after 15 s. */
async function waitForGroupExit() {
  const deadline = Date.now() + 15_000;
  while (groupAlive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (groupAlive()) {
    console.error('AdminEase test server did not stop in 15 s; killing it.');
    signalGroup('SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function finish(code) {
  await waitForGroupExit();
  try {
    rmSync(dataDir, { recursive: true, force: true });
  } catch (error) {
    console.error(`Could not remove ${dataDir}:`, error);
  }
  process.exit(code);
}

function stop(signal) {
  if (stopping) return;
  stopping = true;
  // Signal the whole group (the server shuts down once and stops its database itself).
  signalGroup(signal);
  void finish(0);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

child.on('exit', (code, signal) => {
  if (stopping) return;
  // The server ended by itself (e.g. it failed to start): stop what is left and report the failure.
  stopping = true;
  signalGroup('SIGTERM');
  void finish(code || (signal ? 1 : 0) || 1);
});
