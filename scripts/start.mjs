// `npm start`: starts the production build (dist/server/main.js serving dist/web). The build runs first only when
// it is missing or its stamp does not match the sources (see build-stamp.mjs), in a child process, so a plain
// restart costs one hash of the sources (a few milliseconds) and the server's own start. The server then runs in
// this process, so SIGINT and SIGTERM reach it directly.
import { execFileSync } from 'node:child_process';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, buildState } from './build-stamp.mjs';
import { scriptLogger } from './log.mjs';

const log = scriptLogger('start');

const state = buildState(ROOT);
if (state.fresh) {
  log.info(`build is up to date (built ${state.builtAt}); starting it`);
} else {
  log.info(`building first: ${state.reason}`);
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  } catch {
    log.fatal('the build failed (see above); the server was not started');
    process.exit(1);
  }
}

// V8's compiled code of every module is kept on disk (in the system's temporary folder) between starts: a
// restart then skips most of the JavaScript compilation of the server and its dependencies.
module.enableCompileCache?.();

await import(pathToFileURL(path.join(ROOT, 'dist', 'server', 'main.js')).href);
