// The floor of a read endpoint on this machine (issue 21): the least a Node server reading the rows through pg can
// do to give the same answer. A bare `node:http` server, started as a child process with the server's Node options,
// that runs an endpoint's captured statements through a database handle made as the server makes its own (createDb:
// a pool of the server's size and its pipelined connections; prepared as the server prepares them) and answers
// `JSON.stringify` of the rows: no framework, no session, no permission check, no records. The app does at least this
// much per call (reads the same rows through pg, writes an answer of about the same size), so the floor over the raw
// replay bounds what the server over the raw replay can reach here, whatever its code above pg.
//
//   node --import tsx bench/floor-server.ts <plans.json> <database url> <pool size> <pipelined connections>
// plans.json: Statement[][] (capture.ts); GET /<i> replays plans[i % plans.length]. Prints 'listening <port>'.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createDb } from '../src/server/db/pool.js';
import { type Statement, replay } from './capture.js';

const [plansFile, databaseUrl, poolSize, pipelined] = process.argv.slice(2);
const plans = JSON.parse(readFileSync(plansFile, 'utf8')) as Statement[][];
const pool = createDb(databaseUrl, Number(poolSize), undefined, undefined, Number(pipelined ?? 0));

const server = http.createServer((req, res) => {
  const i = Number((req.url ?? '/0').slice(1)) || 0;
  const plan = plans[i % plans.length];
  (async () => {
    let rows: unknown[] = [];
    for (const st of plan) rows = (await replay(pool, st)).rows;
    const body = JSON.stringify(rows.length === 1 ? rows[0] : rows);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })().catch((err: Error) => {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: err.message }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.close().then(() => process.exit(0));
});
