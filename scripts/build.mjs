// Production build: the web app (vite -> dist/web), the server and the domain rules it shares with the web
// (esbuild, file by file, TypeScript -> JavaScript in dist/server and dist/domain, with the server's SQL
// migrations and JSON data copied beside them), then dist/build-stamp.json naming the inputs it was built from.
// No type check here (that is `npm run typecheck`): the build needs only what `npm install --omit=dev` installs.
//   node scripts/build.mjs             build
//   node scripts/build.mjs --if-stale  build only when dist/ is missing or older than the sources
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, buildState, inputsHash, stampFile } from './build-stamp.mjs';
import { scriptLogger } from './log.mjs';

const log = scriptLogger('build');
const say = (msg) => log.info(msg);

/** Server files that are test code only: never part of the build. */
function isTestOnly(rel) {
  return (
    /\.test\.tsx?$/.test(rel) ||
    /\.d\.ts$/.test(rel) ||
    /(^|\/)(test|testing|fixtures)(\/|$)/.test(rel) ||
    /(^|\/)test-helpers\.ts$/.test(rel)
  );
}

function filesUnder(dir, rel = '') {
  const out = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...filesUnder(dir, childRel));
    else if (entry.isFile() && !isTestOnly(childRel)) out.push(childRel);
  }
  return out;
}

export async function build() {
  const started = Date.now();
  // The hash is taken before building: an edit made while the build runs leaves the build stale, as it is.
  const inputs = inputsHash(ROOT);
  const dist = path.join(ROOT, 'dist');
  rmSync(stampFile(ROOT), { force: true });
  for (const dir of ['server', 'domain']) rmSync(path.join(dist, dir), { recursive: true, force: true });

  const { build: viteBuild } = await import('vite');
  await viteBuild({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  say(`web app built into dist/web (${Date.now() - started} ms)`);

  const serverStarted = Date.now();
  const esbuild = await import('esbuild');
  const entryPoints = [];
  for (const top of ['server', 'domain']) {
    const srcDir = path.join(ROOT, 'src', top);
    for (const rel of filesUnder(srcDir)) {
      const from = path.join(srcDir, rel);
      if (rel.endsWith('.ts') || rel.endsWith('.tsx')) {
        entryPoints.push(from);
      } else {
        // Data the server reads beside its code (migrations/*.sql, demo-org.json).
        const to = path.join(dist, top, rel);
        mkdirSync(path.dirname(to), { recursive: true });
        copyFileSync(from, to);
      }
    }
  }
  await esbuild.build({
    entryPoints,
    outdir: dist,
    outbase: path.join(ROOT, 'src'),
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    logLevel: 'warning',
  });
  say(`server built into dist/server (${entryPoints.length} files, ${Date.now() - serverStarted} ms)`);

  writeFileSync(stampFile(ROOT), JSON.stringify({ inputs, builtAt: new Date().toISOString() }, null, 2) + '\n');
  say(`build finished in ${Date.now() - started} ms`);
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale) {
  const state = buildState(ROOT);
  if (state.fresh) {
    say('build is up to date');
  } else {
    say(`building: ${state.reason}`);
    await build();
  }
} else {
  await build();
}
