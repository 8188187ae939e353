// `npm run test:prod-install`: a production install works. The project's files as a clone has them (git's
// tracked and unignored files, no dist/ and no node_modules/) are copied to a temporary folder, installed there with
// `npm ci --omit=dev` (no devDependencies), and started with `npm start`: the start builds first (the build must
// need nothing but the dependencies), then serves on the embedded database. The check passes when /api/health
// answers 200, the web app is served, a demo person signs in, a second start uses the build without rebuilding,
// and both stop cleanly on SIGTERM. It fails with the install's or the server's output otherwise.
// It takes a few minutes (the install alone is a minute or two), so it is not part of `npm test`; .ci/run runs it
// after the tests. KEEP=1 keeps the temporary folder.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './build-stamp.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const say = (msg) => console.log(`== test:prod-install (${Math.round((Date.now() - started) / 1000)} s): ${msg}`);

function fail(msg) {
  console.error(`test:prod-install FAILED: ${msg}`);
  process.exitCode = 1;
  throw new Error(msg);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function get(port, urlPath, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: payload ? 'POST' : 'GET',
        agent: false,
        headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${urlPath}: no answer in 30 s`)));
    req.end(payload);
  });
}

/** `npm start` in `dir`; resolves with the process once it logged 'AdminEase listening'. */
async function npmStart(dir, dataDir) {
  const port = await freePort();
  const env = { ...process.env };
  for (const k of ['DATABASE_URL', 'ADMINEASE_DEMO', 'ADMINEASE_WEB_DIR', 'METRICS_TOKEN', 'NODE_OPTIONS']) delete env[k];
  // The README's command, in a process group of its own: a stop signals npm and the server together (npm alone
  // would exit at once and leave the server running), as Ctrl+C in a terminal does.
  const child = spawn(npm, ['start'], {
    detached: true,
    cwd: dir,
    env: { ...env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ADMINEASE_DATA_DIR: dataDir, TTS_PREWARM: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = [];
  child.stdout.on('data', (d) => out.push(d.toString()));
  child.stderr.on('data', (d) => out.push(d.toString()));
  // Done when npm has exited and the output is closed, which is when the server (which holds it too) has exited.
  const exited = Promise.all([
    new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
    new Promise((resolve) => child.stdout.on('close', resolve)),
  ]).then(([result]) => result);
  const deadline = Date.now() + 600_000;
  while (!out.join('').includes('AdminEase listening')) {
    if (child.exitCode !== null || child.signalCode !== null) fail(`npm start exited while starting:\n${out.join('')}`);
    if (Date.now() > deadline) {
      process.kill(-child.pid, 'SIGTERM');
      fail(`npm start was not listening after 10 minutes:\n${out.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, port, out, exited, stopped: false };
}

async function stop(server) {
  process.kill(-server.child.pid, 'SIGTERM');
  await server.exited;
  server.stopped = true;
  // npm ends on the signal itself; the server says it stopped (its database stopped cleanly before that line).
  if (!/"msg":"stopped"/.test(server.out.join(''))) fail(`the server did not stop cleanly on SIGTERM:\n${server.out.join('')}`);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'adminease-prod-install-'));
// Readable by others, as a checkout is: run as root, the server runs PostgreSQL's binaries (installed in here) as
// the postgres user, which must reach them (mkdtemp makes the folder private).
chmodSync(dir, 0o755);
const dataDir = path.join(dir, 'data');
let server;
try {
  // What a clone contains: tracked files and new files not ignored (so uncommitted work is checked too).
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const rel of files) {
    const to = path.join(dir, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    try {
      copyFileSync(path.join(ROOT, rel), to);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e; // a tracked file deleted in the working tree
    }
  }
  say(`copied ${files.length} files to ${dir}; npm ci --omit=dev`);
  try {
    execFileSync(npm, ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (e) {
    fail(`npm ci --omit=dev failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  // Nothing the lock marks as dev-only is installed (tsx is there as vite's optional peer, marked devOptional).
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  const devOnly = Object.keys(lock.packages).filter((key) => key && lock.packages[key].dev);
  const installed = devOnly.filter((key) => existsSync(path.join(dir, key)));
  if (!devOnly.includes('node_modules/vitest') || installed.length)
    fail(
      `npm ci --omit=dev installed dev-only packages (${installed.slice(0, 5).join(', ')}): the check would not show a production install`,
    );

  say('installed; npm start (no build yet: it builds first)');
  server = await npmStart(dir, dataDir);
  const log = server.out.join('');
  if (!log.includes('building first')) fail(`the first start did not build:\n${log}`);
  const health = await get(server.port, '/api/health');
  if (health.status !== 200) fail(`/api/health answered ${health.status}: ${health.text}\n${log}`);
  const page = await get(server.port, '/');
  if (page.status !== 200 || !page.text.includes('<div id="root">')) fail(`/ did not serve the web app (${page.status})`);
  const login = await get(server.port, '/api/auth/login', { email: 'alex.johnson@adminease.test', password: 'Demo@12345' });
  if (login.status !== 200) fail(`the demo sign-in answered ${login.status}: ${login.text}`);
  await stop(server);

  say('first start built, served and stopped; starting again from the build');
  server = await npmStart(dir, dataDir);
  if (!server.out.join('').includes('build is up to date')) fail(`the second start did not use the build:\n${server.out.join('')}`);
  const again = await get(server.port, '/api/health');
  if (again.status !== 200) fail(`/api/health after the restart answered ${again.status}: ${again.text}`);
  await stop(server);
  server = undefined;
  say('passed: npm ci --omit=dev, then npm start builds, serves /api/health, and restarts from the build');
} catch (e) {
  if (!process.exitCode) {
    console.error(`test:prod-install FAILED: ${e?.stack ?? e}`);
    process.exitCode = 1;
  }
} finally {
  if (server && !server.stopped) {
    try {
      process.kill(-server.child.pid, 'SIGTERM');
    } catch {
      /* gone already */
    }
    await server.exited;
  }
  if (process.env.KEEP === '1') console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
