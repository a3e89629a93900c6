/**
 * CPU time over a bench phase, per transaction, for issue 31's figures: the relay's own processes
 * (read from /proc, so the bench's HTTP client is not in it when the app runs in a child process),
 * this process (the direct client's share when only it runs), and PostgreSQL's backends serving
 * the bench database (the bench's own connection excluded).
 */
import { readFileSync } from 'node:fs';
import type { Client } from 'pg';

const TICKS_PER_SECOND = 100;

/** utime + stime of a process in ms; undefined once it is gone (or /proc is not readable). */
export function processCpuMs(pid: number): number | undefined {
  try {
    // Fields 14 and 15 (utime, stime) after the parenthesised command name.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function backendPids(db: Client): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()");
  return rows.map((r) => r.pid);
}

async function backendsCpu(db: Client): Promise<Map<number, number> | undefined> {
  const out = new Map<number, number>();
  for (const pid of await backendPids(db)) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined; // not readable here (another host or user)
    out.set(pid, ms);
  }
  return out;
}

export interface CpuReading {
  /** The relay's processes (undefined when the app runs in this process). */
  relayMs?: number;
  /** This process: the bench client, plus the app when it runs in process. */
  benchMs: number;
  /** PostgreSQL backends of the bench database, other than the bench's own connection; undefined when /proc cannot tell. */
  postgresMs?: number;
}

/**
 * Starts a reading; the returned function gives the CPU used since. A backend that started during
 * the phase counts from zero; one that ended during it is lost (the app's pool keeps its
 * connections, so this is rare and only lowers the figure).
 */
export async function cpuPhase(relayPids: number[], db: Client): Promise<() => Promise<CpuReading>> {
  const relayBefore = relayPids.map(processCpuMs);
  const benchBefore = selfCpuMs();
  const pgBefore = await backendsCpu(db);
  return async () => {
    const benchMs = selfCpuMs() - benchBefore;
    const relayMs = relayPids.length === 0 ? undefined : relayPids.reduce((sum, pid, i) => sum + ((processCpuMs(pid) ?? NaN) - (relayBefore[i] ?? NaN)), 0);
    const pgAfter = pgBefore && (await backendsCpu(db));
    const postgresMs = pgBefore && pgAfter ? [...pgAfter].reduce((sum, [pid, ms]) => sum + ms - (pgBefore.get(pid) ?? 0), 0) : undefined;
    return { relayMs, benchMs, postgresMs };
  };
}
