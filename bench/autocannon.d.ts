// Types for the parts of autocannon (no bundled types) that the benchmarks use.
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
      requests?: Array<Record<string, unknown>>;
      [k: string]: unknown;
    }
    interface Histogram {
      average: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      max: number;
      total: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      [k: string]: unknown;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
