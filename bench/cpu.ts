// CPU used per call, by process, from /proc (utime + stime): the load generator (this process), the server
// instance(s), PostgreSQL (every 'postgres' process) and everything else. Linux only (elsewhere: undefined).
// The ratio of a server row to its raw row is throughput on the same cores; these figures say what each side spent.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export interface CpuPerCall {
  /** Microseconds of CPU per call. */
  load: number;
  server: number;
  postgres: number;
  /** Of `postgres`: its background processes (checkpointer, background writer, WAL writer, autovacuum, ...), not
   * the connections' backends: work the calls did not ask for, or asked for earlier (dirty pages written later). */
  postgresBackground: number;
  other: number;
  /** The processes behind `other` that used the most, with their µs per call ('chromium 120, node 40'). */
  otherTop?: string;
}

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux this runs on

type Kind = Exclude<keyof CpuPerCall, 'otherTop'>;

/** PostgreSQL's own processes (not a connection's backend or a parallel worker of one), from their title. */
const PG_BACKGROUND =
  /^postgres: (?:\S+: )?(checkpointer|background writer|walwriter|autovacuum|logical replication|archiver|stats collector|walsender|walreceiver|startup)/;

function isPgBackground(pid: string): boolean {
  try {
    return PG_BACKGROUND.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
  } catch {
    return false;
  }
}

/** CPU seconds so far of every process, with its side. */
function sample(serverPids: number[]): Map<number, { kind: Kind; seconds: number; comm: string }> | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const out = new Map<number, { kind: Kind; seconds: number; comm: string }>();
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
    const kind: Kind =
      pid === process.pid
        ? 'load'
        : serverPids.includes(pid)
          ? 'server'
          : comm === 'postgres'
            ? isPgBackground(d)
              ? 'postgresBackground'
              : 'postgres'
            : 'other';
    out.set(pid, { kind, seconds: (Number(f[11]) + Number(f[12])) / TICKS_PER_S, comm });
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
  const used: Record<Kind, number> = { load: 0, server: 0, postgres: 0, postgresBackground: 0, other: 0 };
  const others = new Map<string, number>();
  for (const [pid, end] of b) {
    const s = end.seconds - (a.get(pid)?.seconds ?? 0);
    used[end.kind] += s;
    if (end.kind === 'other' && s > 0) others.set(end.comm, (others.get(end.comm) ?? 0) + s);
  }
  const perCall = (seconds: number) => Math.round((seconds / fig.total) * 1e6);
  const per = (k: Kind) => perCall(used[k]);
  const background = per('postgresBackground');
  const otherTop = [...others]
    .sort((x, y) => y[1] - x[1])
    .slice(0, 3)
    .map(([comm, s]) => `${comm} ${perCall(s)}`)
    .join(', ');
  return {
    ...fig,
    cpu: {
      load: per('load'),
      server: per('server'),
      postgres: per('postgres') + background,
      postgresBackground: background,
      other: per('other'),
      otherTop,
    },
  };
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
