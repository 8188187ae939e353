// Entry of a speech worker thread: the server runs TypeScript through tsx, whose loader a new thread does not
// inherit, so the thread registers it and then loads worker.ts.
import { tsImport } from 'tsx/esm/api';

await tsImport('./worker.ts', import.meta.url);
