// The Node options the server runs with, wherever it is started: `npm start` (package.json's start script lists
// the same options, checked by src/server/production-start.test.ts), the e2e servers and the benchmark's server.
//  --max-semi-space-size=32: a larger young generation, fewer scavenges for the many short-lived rows of a request.
//  --experimental-async-context-frame: AsyncLocalStorage (the request's logger, src/server/logger.ts) kept in the
//    async context frame instead of async_hooks, which otherwise run a hook for every promise the server creates.
//    The default from Node 24 on (which still accepts the flag); on Node 22 it is this flag. Measured: form details 7,019 -> 8,677 req/s
//    (bench/README.md, diary of 2026-11-28 22:00).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32', '--experimental-async-context-frame'];
