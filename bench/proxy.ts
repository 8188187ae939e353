// A tiny round-robin HTTP load balancer for the multi-instance benchmark: each request goes to the next
// upstream in turn over keep-alive connections; streams (SSE) pass through unbuffered.
//   npx tsx bench/proxy.ts --port 3400 --upstream http://127.0.0.1:3401 --upstream http://127.0.0.1:3402
import http from 'node:http';

export interface Proxy {
  port: number;
  /** Requests sent to each upstream. */
  counts: number[];
  close(): Promise<void>;
}

export function startProxy(upstreams: string[], port = 0): Promise<Proxy> {
  const targets = upstreams.map((u) => new URL(u));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const counts = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    counts[i] += 1;
    const t = targets[i];
    const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent }, (ur) => {
      res.writeHead(ur.statusCode ?? 502, ur.headers);
      ur.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"upstream unavailable"}');
    });
    req.pipe(up);
    res.on('close', () => up.destroy());
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address() as { port: number };
      resolve({
        port: addr.port,
        counts,
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
            agent.destroy();
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const ups: string[] = [];
  let port = 3400;
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--upstream') ups.push(args[(i += 1)]);
    else if (args[i] === '--port') port = Number(args[(i += 1)]);
  }
  if (ups.length === 0) throw new Error('give at least one --upstream');
  startProxy(ups, port).then(
    (p) => console.log(`round-robin proxy on http://127.0.0.1:${p.port} -> ${ups.join(', ')}`),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
