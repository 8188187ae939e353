// `npm run check:shared`: the project's copies of the specification's shared files are still equal to the originals
// in the shared folder (../shared beside the checkout, or ADMINEASE_SHARED_DIR). The tests use only the copies, so
// `npm test` gives the same results with or without the shared folder; this check is the one place that reads it.
// .ci/run calls it when the folder exists. Exit 0: every copy equal; 1: a copy differs or an original is missing
// (each named); 2: no shared folder at all.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { ROOT } from './build-stamp.mjs';

/** The project's copy (relative to the checkout) of each shared file (relative to the shared folder). */
export const COPIES = [
  { shared: 'seed/demo-org.json', copy: 'src/server/db/demo-org.json' },
  { shared: 'assistant/dialogues.json', copy: 'src/server/assistant/fixtures/dialogues.json' },
];

/** The differences between the copies and the originals in `sharedDir`, as messages (none: all equal). */
export function compareShared(sharedDir, root = ROOT) {
  const problems = [];
  for (const { shared, copy } of COPIES) {
    const original = path.join(sharedDir, shared);
    if (!existsSync(original)) {
      problems.push(`${shared} is missing from ${sharedDir}`);
      continue;
    }
    const a = JSON.parse(readFileSync(path.join(root, copy), 'utf8'));
    const b = JSON.parse(readFileSync(original, 'utf8'));
    if (!isDeepStrictEqual(a, b)) problems.push(`${copy} differs from ${path.join(sharedDir, shared)}: copy the original over it`);
  }
  return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sharedDir = path.resolve(ROOT, process.env.ADMINEASE_SHARED_DIR || '../shared');
  if (!existsSync(sharedDir)) {
    console.error(`check:shared: no shared folder at ${sharedDir} (set ADMINEASE_SHARED_DIR)`);
    process.exit(2);
  }
  const problems = compareShared(sharedDir);
  for (const p of problems) console.error(`check:shared: ${p}`);
  if (problems.length) process.exit(1);
  console.log(`check:shared: ${COPIES.length} copies equal to ${sharedDir}`);
}
