// Prometheus metrics in the text exposition format (version 0.0.4), written by hand: request counters and
// latency histograms per route template (never per concrete URL, so ids cannot leak or explode cardinality).

/** Upper bounds of the latency histogram, in seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: Record<string, string>;
  count: number;
}

interface HistogramSeries {
  labels: Record<string, string>;
  buckets: number[];
  sum: number;
  count: number;
}

/** Escapes a label value as the exposition format requires (backslash, double quote, newline). */
export function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Record<string, string>): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeLabel(labels[k])}"`).join(',')}}`;
}

const keyOf = (labels: Record<string, string>) => JSON.stringify(labels);

/** Numbers as Prometheus prints them. */
function num(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

export class MetricsRegistry {
  private counters = new Map<string, Series>();
  private histograms = new Map<string, HistogramSeries>();
  /** Route templates known to the app: their series exist (at zero) before the first request. */
  readonly routes: Array<{ method: string; url: string; public?: boolean }> = [];
  private readonly startedAt = Date.now();

  /** Records one finished HTTP request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const statusClass = `${Math.floor(status / 100)}xx`;
    const cLabels = { method, route, status: String(status) };
    const ck = keyOf(cLabels);
    const c = this.counters.get(ck);
    if (c) c.count += 1;
    else this.counters.set(ck, { labels: cLabels, count: 1 });

    const hLabels = { method, route, status_class: statusClass };
    const hk = keyOf(hLabels);
    let h = this.histograms.get(hk);
    if (!h) {
      h = { labels: hLabels, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
      this.histograms.set(hk, h);
    }
    for (let i = 0; i < LATENCY_BUCKETS.length; i += 1) if (seconds <= LATENCY_BUCKETS[i]) h.buckets[i] += 1;
    h.sum += seconds;
    h.count += 1;
  }

  /** The whole exposition: HTTP series, process and pool gauges. */
  render(gauges: Array<{ name: string; help: string; value: number; type?: 'gauge' | 'counter' }> = []): string {
    const out: string[] = [];
    out.push('# HELP adminease_http_requests_total HTTP requests answered, by method, route template and status code.');
    out.push('# TYPE adminease_http_requests_total counter');
    for (const s of this.counters.values()) out.push(`adminease_http_requests_total${labelText(s.labels)} ${s.count}`);

    out.push('# HELP adminease_http_request_duration_seconds Time from receiving a request to sending its response.');
    out.push('# TYPE adminease_http_request_duration_seconds histogram');
    for (const h of this.histograms.values()) {
      for (let i = 0; i < LATENCY_BUCKETS.length; i += 1) {
        out.push(
          `adminease_http_request_duration_seconds_bucket${labelText({ ...h.labels, le: num(LATENCY_BUCKETS[i]) })} ${h.buckets[i]}`,
        );
      }
      out.push(`adminease_http_request_duration_seconds_bucket${labelText({ ...h.labels, le: '+Inf' })} ${h.count}`);
      out.push(`adminease_http_request_duration_seconds_sum${labelText(h.labels)} ${num(h.sum)}`);
      out.push(`adminease_http_request_duration_seconds_count${labelText(h.labels)} ${h.count}`);
    }

    out.push('# HELP adminease_http_routes Route templates registered in the app.');
    out.push('# TYPE adminease_http_routes gauge');
    out.push(`adminease_http_routes ${this.routes.length}`);

    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    const all = [
      {
        name: 'process_start_time_seconds',
        help: 'Start time of the process since the Unix epoch, in seconds.',
        value: Math.floor(this.startedAt / 1000),
      },
      {
        name: 'process_cpu_seconds_total',
        help: 'User and system CPU time spent, in seconds.',
        value: (cpu.user + cpu.system) / 1e6,
        type: 'counter' as const,
      },
      { name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.', value: mem.rss },
      { name: 'nodejs_heap_used_bytes', help: 'V8 heap in use, in bytes.', value: mem.heapUsed },
      { name: 'nodejs_heap_total_bytes', help: 'V8 heap reserved, in bytes.', value: mem.heapTotal },
      ...gauges,
    ];
    for (const g of all) {
      out.push(`# HELP ${g.name} ${g.help}`);
      out.push(`# TYPE ${g.name} ${g.type ?? 'gauge'}`);
      out.push(`${g.name} ${num(g.value)}`);
    }
    return `${out.join('\n')}\n`;
  }
}
