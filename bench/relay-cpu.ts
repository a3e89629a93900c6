/**
 * CPU time over a bench phase, per transaction, for issue 31's figures: the relay's own processes
 * (read from /proc, so the bench's HTTP client is not in it when the app runs in a child process),
 * this process (the direct client's share when only it runs), and the PostgreSQL server (every
 * process of it, backends that ended during the phase included; the bench's own connection excluded).
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from 'pg';

const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime, ms. */
  cpuMs: number;
  /** cutime + cstime, ms: the children it waited for (a server's ended backends). */
  childrenMs: number;
}

/** A process's parent and CPU times; undefined once it is gone (or /proc is not readable). */
function procStat(pid: number): ProcStat | undefined {
  try {
    // After the parenthesised command name: state, ppid, ..., utime (14), stime, cutime, cstime.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (i: number) => (Number(fields[i]) * 1000) / TICKS_PER_SECOND;
    return { ppid: Number(fields[1]), cpuMs: ms(11) + ms(12), childrenMs: ms(13) + ms(14) };
  } catch {
    return undefined;
  }
}

/** utime + stime of a process in ms; undefined once it is gone (or /proc is not readable). */
export function processCpuMs(pid: number): number | undefined {
  return procStat(pid)?.cpuMs;
}

const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * The PostgreSQL server's CPU so far: the postmaster with the backends it has reaped, and every
 * live process it started (backends, autovacuum, WAL writer, checkpointer); `own` is the bench's
 * connection's backend. Backends of a pool that closes idle connections come and go during a
 * phase, so counting only the bench database's live backends lost those that ended and counted a
 * new one's whole start-up; this counts each exactly once. Undefined when /proc cannot tell
 * (another host or user).
 */
async function serverCpu(db: Client): Promise<{ totalMs: number; ownMs: number } | undefined> {
  const { rows } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const own = procStat(rows[0].pid);
  const postmasterPid = own?.ppid;
  const postmaster = postmasterPid === undefined ? undefined : procStat(postmasterPid);
  if (!own || !postmaster) return undefined;
  let totalMs = postmaster.cpuMs + postmaster.childrenMs;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = procStat(Number(entry));
    if (child && child.ppid === postmasterPid) totalMs += child.cpuMs;
  }
  return { totalMs, ownMs: own.cpuMs };
}

export interface CpuReading {
  /** The relay's processes (undefined when the app runs in this process). */
  relayMs?: number;
  /** This process: the bench client, plus the app when it runs in process. */
  benchMs: number;
  /** The PostgreSQL server, less the bench's own connection; undefined when /proc cannot tell. */
  postgresMs?: number;
  /** The chain's node (anvil); undefined when the bench did not start it. */
  nodeMs?: number;
}

/** The CPU `pids` used since `before` (their readings then), summed; undefined without pids. */
function cpuSince(pids: number[], before: Array<number | undefined>): number | undefined {
  return pids.length === 0 ? undefined : pids.reduce((sum, pid, i) => sum + ((processCpuMs(pid) ?? NaN) - (before[i] ?? NaN)), 0);
}

/** Starts a reading; the returned function gives the CPU used since. */
export async function cpuPhase(relayPids: number[], db: Client, nodePids: number[] = []): Promise<() => Promise<CpuReading>> {
  const relayBefore = relayPids.map(processCpuMs);
  const nodeBefore = nodePids.map(processCpuMs);
  const benchBefore = selfCpuMs();
  const pgBefore = await serverCpu(db);
  return async () => {
    const benchMs = selfCpuMs() - benchBefore;
    const relayMs = cpuSince(relayPids, relayBefore);
    const pgAfter = pgBefore && (await serverCpu(db));
    const postgresMs = pgBefore && pgAfter ? pgAfter.totalMs - pgBefore.totalMs - (pgAfter.ownMs - pgBefore.ownMs) : undefined;
    const nodeMs = cpuSince(nodePids, nodeBefore);
    return { relayMs, benchMs, postgresMs, nodeMs };
  };
}
