// Measuring: autocannon against the HTTP server, and the same work issued straight through a pg pool
// (the raw database path) with the same concurrency, both reduced to requests/s, p50, p99 and errors.
import autocannon from 'autocannon';
import type { CpuPerCall } from './cpu.js';

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p95?: number;
  p99: number;
  errors: number;
  total: number;
  /** Average response size (HTTP runs). */
  bytes?: number;
  note?: string;
  /** CPU per call by side (bench/cpu.ts), where measured. */
  cpu?: CpuPerCall;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  /** Fixed headers (the session, content type). */
  headers?: Record<string, string>;
  body?: string;
  /** Rotating requests: called for each request, returns its path, headers and body. */
  next?: () => { path: string; headers?: Record<string, string>; body?: string };
  connections: number;
  seconds: number;
  /** Stop after this many requests (a pool of one-shot writes). */
  amount?: number;
  /** Status codes counted as success besides 2xx. */
}

/** One autocannon run; 'errors' counts transport errors, timeouts and non-2xx answers. */
export async function httpLoad(name: string, o: LoadOptions): Promise<Figure> {
  const u = new URL(o.url);
  const opts: autocannon.Options = {
    url: `${u.protocol}//${u.host}`,
    connections: o.connections,
    duration: o.seconds,
    ...(o.amount ? { amount: o.amount } : {}),
    timeout: 10,
    requests: [
      {
        method: o.method ?? 'GET',
        path: u.pathname + u.search,
        headers: o.headers,
        body: o.body,
        ...(o.next
          ? {
              setupRequest: (req: any) => {
                const n = o.next!();
                return { ...req, path: n.path, headers: { ...(o.headers ?? {}), ...(n.headers ?? {}) }, body: n.body ?? req.body };
              },
            }
          : {}),
      },
    ],
  };
  const r = await autocannon(opts);
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
    total: r.requests.total,
    bytes: r.requests.total > 0 ? (r as any).throughput.total / r.requests.total : undefined,
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * `concurrency` loops calling `op` for `seconds` (or until `amount` calls), like autocannon's connections;
 * `op` gets a running index. Latencies in milliseconds.
 */
export async function loop(
  name: string,
  concurrency: number,
  seconds: number,
  op: (i: number) => Promise<void>,
  amount?: number,
): Promise<Figure> {
  const lat: number[] = [];
  let errors = 0;
  let started = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end && (amount === undefined || started < amount)) {
      const i = started++;
      const s = performance.now();
      try {
        await op(i);
        lat.push(performance.now() - s);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    name,
    rps: lat.length / took,
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    p99: percentile(lat, 99),
    errors,
    total: lat.length + errors,
  };
}

export const fmt = (n: number | undefined, digits = 0) =>
  n === undefined || Number.isNaN(n) ? '-' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
