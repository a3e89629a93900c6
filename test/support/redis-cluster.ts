/**
 * A throwaway Redis Cluster of 3 masters (no replicas) from the system's `redis-server`, for the
 * specs that run the queues on a cluster. Ports: TEST_CONDITIONS_PORT + 95, 96, 97 (cluster bus
 * = port + 10000); nodes files and logs in a temp dir, no persistence.
 *
 *   const cluster = await startRedisCluster();
 *   createTestApp({ env: cluster.env });   // QUEUE_REDIS_CLUSTER_NODES
 *   await cluster.stop();
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const CONDITIONS_PORT = Number(process.env.TEST_CONDITIONS_PORT ?? 18850);
export const REDIS_CLUSTER_PORTS = [CONDITIONS_PORT + 95, CONDITIONS_PORT + 96, CONDITIONS_PORT + 97];

export interface RedisCluster {
  ports: number[];
  /** `QUEUE_REDIS_CLUSTER_NODES` for the app (and its worker processes). */
  env: Record<string, string>;
  /** `redis-cli -p <port> <args>` on one node; `-c` follows redirections. */
  cli(port: number, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startRedisCluster(ports = REDIS_CLUSTER_PORTS): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-redis-cluster-'));
  const cli = async (port: number, ...args: string[]) => (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout;
  // A node left over from a killed run of this spec would hold the port: ask it to go.
  for (const port of ports) await cli(port, 'shutdown', 'nosave').catch(() => undefined);
  const nodes: ChildProcess[] = ports.map((port) =>
    spawn(
      '/usr/bin/redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, `redis-${port}.log`)],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    for (const node of nodes) if (node.exitCode === null) node.kill('SIGKILL');
    await Promise.all(nodes.map((node) => (node.exitCode === null ? new Promise((r) => node.once('exit', r)) : undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  const killOnExit = () => nodes.forEach((node) => node.kill('SIGKILL'));
  process.once('exit', killOnExit);
  try {
    for (const port of ports) await until(() => cli(port, 'ping').then((out) => out.trim() === 'PONG'), 30_000, `redis-server on ${port}`);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) await until(() => cli(port, 'cluster', 'info').then((out) => out.includes('cluster_state:ok')), 20_000, `cluster_state:ok on ${port}`);
  } catch (err) {
    const logs = ports.map((port) => `${port}: ${readLog(join(dir, `redis-${port}.log`))}`).join('\n');
    await stop();
    throw new Error(`${(err as Error).message}\n${logs}`);
  }
  return {
    ports,
    env: { QUEUE_REDIS_CLUSTER_NODES: ports.map((p) => `127.0.0.1:${p}`).join(',') },
    cli,
    async stop() {
      process.off('exit', killOnExit);
      await stop();
    },
  };
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The two places the queues can live; specs run their flow on each (`describe.each(QUEUE_BACKENDS)`). */
export const QUEUE_BACKENDS = [
  { queues: 'one Redis', cluster: false },
  { queues: 'a 3-master Redis Cluster', cluster: true },
] as const;

/** Keys of the cluster matching `pattern`, over every master (SCAN is per node). */
export async function clusterKeys(cluster: RedisCluster, pattern: string): Promise<Map<number, string[]>> {
  const byPort = new Map<number, string[]>();
  for (const port of cluster.ports) byPort.set(port, (await cluster.cli(port, '--scan', '--pattern', pattern)).split('\n').filter(Boolean));
  return byPort;
}

const readLog = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').slice(-5).join(' | ') : '(no log)');
