// Whether the production build (dist/) matches the sources. The build writes dist/build-stamp.json with a hash
// of its inputs (file names and contents); the build is fresh when that stamp is there, names the same hash and
// the built entry points exist. Contents, not modification times, decide: a checkout that rewrites files
// with the same contents needs no rebuild, and an edit that keeps an old time still triggers one.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Top-level files that shape the build besides src/. */
const ROOT_INPUTS = [
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/build-stamp.mjs',
];

/** Tests are not part of the build: editing one does not make the build stale. */
function isBuildInput(rel) {
  return !/\.test\.tsx?$/.test(rel);
}

function walk(dir, rel, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const childRel = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path.join(dir, entry.name), childRel, out);
    else if (entry.isFile() && isBuildInput(childRel)) out.push(childRel);
  }
}

/** Every input file of the build, as sorted paths relative to `root`. */
export function buildInputs(root = ROOT) {
  const files = [];
  for (const dir of ['src', 'public']) {
    if (existsSync(path.join(root, dir))) walk(path.join(root, dir), dir, files);
  }
  for (const f of ROOT_INPUTS) if (existsSync(path.join(root, f))) files.push(f);
  return files.sort();
}

/** sha256 over the inputs' paths and contents. */
export function inputsHash(root = ROOT) {
  const hash = createHash('sha256');
  for (const rel of buildInputs(root)) {
    hash.update(rel).update('\0');
    hash.update(readFileSync(path.join(root, rel))).update('\0');
  }
  return hash.digest('hex');
}

export function stampFile(root = ROOT) {
  return path.join(root, 'dist', 'build-stamp.json');
}

/** The files the production start needs from a build. */
export function buildOutputs(root = ROOT) {
  return [path.join(root, 'dist', 'server', 'main.js'), path.join(root, 'dist', 'web', 'index.html')];
}

/** { fresh: true } when dist/ is a build of the current inputs, else { fresh: false, reason }. */
export function buildState(root = ROOT) {
  const missing = buildOutputs(root).find((f) => !existsSync(f));
  if (missing) return { fresh: false, reason: `${path.relative(root, missing)} is missing` };
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile(root), 'utf8'));
  } catch {
    return { fresh: false, reason: 'dist/build-stamp.json is missing or unreadable' };
  }
  if (stamp.inputs !== inputsHash(root)) return { fresh: false, reason: 'the sources changed since the last build' };
  return { fresh: true, builtAt: stamp.builtAt };
}
