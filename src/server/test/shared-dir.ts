// Where the specification's shared files (the demo organisation, the assistant's acceptance dialogues) are, when a
// checkout has them beside it: ../shared, or ADMINEASE_SHARED_DIR. The project keeps its own copies and tests only
// use those; the shared folder is only read to check that the copies are still equal to it, and those checks are
// skipped where it is absent (ADMINEASE_SHARED_DIR=/nonexistent runs the suite as a clone without it would).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const sharedDir = path.resolve(repoRoot, process.env.ADMINEASE_SHARED_DIR || '../shared');

/** The path of a shared file, or undefined when there is no such file. */
export function sharedFile(relative: string): string | undefined {
  const p = path.join(sharedDir, relative);
  return existsSync(p) ? p : undefined;
}
