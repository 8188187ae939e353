// Measuring: a lean HTTP load (lean-http.ts) against the server, and the same work issued straight through a pg pool
// (the raw database path) with the same concurrency, both reduced to requests/s, p50, p99 and errors.
import type { CpuPerCall } from './cpu.js';
import { LeanConnection } from './lean-http.js';

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
}

/**
 * `connections` kept-alive connections, each sending its next request when the last is answered (like autocannon,
 * with the lean client of lean-http.ts), for `seconds` or `amount` requests; 'errors' counts transport errors,
 * timeouts (10 s) and non-2xx answers. Latencies in milliseconds.
 */
export async function httpLoad(name: string, o: LoadOptions): Promise<Figure> {
  const u = new URL(o.url);
  const path = u.pathname + u.search;
  const method = o.method ?? 'GET';
  const lat: number[] = [];
  let errors = 0;
  let started = 0;
  let bytes = 0;
  const t0 = performance.now();
  const end = t0 + o.seconds * 1000;
  const worker = async () => {
    const c = new LeanConnection(u.hostname, Number(u.port || 80));
    try {
      while (performance.now() < end && (o.amount === undefined || started < o.amount)) {
        started += 1;
        const n = o.next?.();
        const req = n
          ? { method, path: n.path, headers: n.headers ? { ...o.headers, ...n.headers } : o.headers, body: n.body ?? o.body }
          : { method, path, headers: o.headers, body: o.body };
        const s = performance.now();
        try {
          const a = await c.request(req);
          bytes += a.bytes;
          if (a.status >= 200 && a.status < 300) lat.push(performance.now() - s);
          else errors += 1;
        } catch {
          errors += 1;
        }
      }
    } finally {
      c.close();
    }
  };
  await Promise.all(Array.from({ length: o.connections }, worker));
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  const total = lat.length + errors;
  return {
    name,
    rps: lat.length / took,
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    p99: percentile(lat, 99),
    errors,
    total,
    bytes: total > 0 ? bytes / total : undefined,
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
