// CPU used per call, by process, from /proc (utime + stime): the load generator (this process), the server
// instance(s), PostgreSQL (every 'postgres' process) and everything else. Linux only (elsewhere: undefined).
// The ratio of a server row to its raw row is throughput on the same cores; these figures say what each side spent.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export interface CpuPerCall {
  /** Microseconds of CPU per call. */
  load: number;
  server: number;
  postgres: number;
  other: number;
}

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux this runs on

type Kind = keyof CpuPerCall;

/** CPU seconds so far of every process, with its side. */
function sample(serverPids: number[]): Map<number, { kind: Kind; seconds: number }> | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const out = new Map<number, { kind: Kind; seconds: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${d}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    const pid = Number(d);
    const kind: Kind = pid === process.pid ? 'load' : serverPids.includes(pid) ? 'server' : comm === 'postgres' ? 'postgres' : 'other';
    out.set(pid, { kind, seconds: (Number(f[11]) + Number(f[12])) / TICKS_PER_S });
  }
  return out;
}

/** Runs `run` and answers its figure with the CPU each side used per call (`total` calls). */
export async function withCpu<T extends { total: number }>(serverPids: number[], run: () => Promise<T>): Promise<T & { cpu?: CpuPerCall }> {
  const a = sample(serverPids);
  const fig = await run();
  const b = sample(serverPids);
  if (!a || !b || fig.total === 0) return fig;
  // Per process: what it used between the two samples (all of it if it started meanwhile); a process that ended
  // meanwhile is not counted (its last moments are lost, never subtracted).
  const used: CpuPerCall = { load: 0, server: 0, postgres: 0, other: 0 };
  for (const [pid, end] of b) used[end.kind] += end.seconds - (a.get(pid)?.seconds ?? 0);
  const per = (k: Kind) => Math.round((used[k] / fig.total) * 1e6);
  return { ...fig, cpu: { load: per('load'), server: per('server'), postgres: per('postgres'), other: per('other') } };
}

/** CPU seconds so far of one process (undefined when it is gone or this is not Linux). */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * Waits until a process is idle: under 5 % of a core over a whole second (at most `maxMs`). A server started
 * for a measurement first trains the assistant's language model in a worker and runs its jobs' first passes;
 * measured meanwhile, that work would count as the calls' CPU and take cores from the load.
 */
export async function settled(pid: number, maxMs = 120_000): Promise<void> {
  const end = Date.now() + maxMs;
  let last = cpuSecondsOf(pid);
  while (last !== undefined && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = cpuSecondsOf(pid);
    if (now === undefined || now - last < 0.05) return;
    last = now;
  }
}
