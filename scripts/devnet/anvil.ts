import { ChildProcess, spawn } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { packageDir } from './paths';

export interface StartAnvilOptions {
  port: number;
  chainId: number;
  /** Interval mining; omitted = automine (each tx mined on arrival), which the deployer relies on for speed. */
  blockTimeSec?: number;
  /** How long to wait for eth_chainId to answer. */
  readyTimeoutMs?: number;
  /**
   * Keep no past states (`--prune-history`): reads at an old block then fail. For scale runs
   * (LOCAL_EXTRA_POOLS): anvil writes each block's whole state to its cache directory, and
   * 20,000 pools' worth of blocks filled ~190 GB of /tmp before the deployment ended.
   */
  pruneHistory?: boolean;
  /**
   * Block gas limit (`--gas-limit`; anvil's default is 30M). Scale runs raise it so the deployment
   * needs far fewer blocks: anvil recomputes the state root over the WHOLE state at every block, so
   * with 20,000 pools each block cost more than its transactions (~11 tx/s at 30M).
   */
  gasLimit?: bigint;
}

export interface AnvilHandle {
  rpcUrl: string;
  /** undefined when an already-running node was reused. */
  pid: number | undefined;
  /** True when we attached to a node someone else started (stop() is then a no-op). */
  reused: boolean;
  stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 50;
const KILL_GRACE_MS = 3_000;

/**
 * The platform package ships the real binary; going through the @foundry-rs/anvil JS wrapper would
 * add a node process between us and anvil, so signals would not reach anvil directly.
 */
export function anvilBinary(): string {
  return path.join(packageDir('@foundry-rs/anvil-linux-amd64'), 'bin', 'anvil');
}

/** Chain id reported by the node at rpcUrl, or undefined if nothing (valid) answers. */
export async function rpcChainId(rpcUrl: string, timeoutMs = 1_000): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) return undefined;
    const body: unknown = await res.json();
    const result = typeof body === 'object' && body !== null ? (body as { result?: unknown }).result : undefined;
    return typeof result === 'string' ? Number(BigInt(result)) : undefined;
  } catch {
    return undefined;
  }
}

export async function isRpcUp(rpcUrl: string, expectedChainId: number): Promise<boolean> {
  return (await rpcChainId(rpcUrl)) === expectedChainId;
}

export async function startAnvil(opts: StartAnvilOptions): Promise<AnvilHandle> {
  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  const existing = await rpcChainId(rpcUrl);
  if (existing === opts.chainId) {
    return { rpcUrl, pid: undefined, reused: true, stop: async () => undefined };
  }
  if (existing !== undefined) {
    throw new Error(`port ${opts.port} already serves chain ${existing}, expected ${opts.chainId}`);
  }

  // LOCAL_BIND_HOST=0.0.0.0 (docker/compose.yml) makes the chains reachable through published ports; the stack itself uses 127.0.0.1.
  const host = process.env.LOCAL_BIND_HOST ?? '127.0.0.1';
  const args = ['--hardfork', 'prague', '--port', String(opts.port), '--chain-id', String(opts.chainId), '--host', host, '--silent'];
  if (opts.blockTimeSec !== undefined) args.push('--block-time', String(opts.blockTimeSec));
  if (opts.pruneHistory) args.push('--prune-history');
  if (opts.gasLimit !== undefined) args.push('--gas-limit', opts.gasLimit.toString());
  // anvil moves old states to disk under ~/.foundry/anvil/tmp and leaves them there when it is
  // stopped (3.5 GB after one bench:relay, 77 GB in a day of test and bench runs): a directory of
  // its own, removed when it exits, keeps the history queries working and the disk clean.
  const cachePath = mkdtempSync(path.join(tmpdir(), `anvil-${opts.port}-`));
  args.push('--cache-path', cachePath);
  const removeCache = (): void => rmSync(cachePath, { recursive: true, force: true });

  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.once('exit', removeCache);
  // Keep the tail of stderr: it is the only explanation we get if anvil dies at startup (e.g. port in use).
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
    removeCache();
  };
  // A crashing or Ctrl-C'd parent must not leave orphan anvils holding the ports.
  process.once('exit', killOnExit);

  try {
    await waitUntilReady(child, rpcUrl, opts, () => stderr);
  } catch (err) {
    process.removeListener('exit', killOnExit);
    await terminate(child);
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    rpcUrl,
    pid: child.pid,
    reused: false,
    stop: () => {
      stopping ??= terminate(child).finally(() => process.removeListener('exit', killOnExit));
      return stopping;
    },
  };
}

async function waitUntilReady(child: ChildProcess, rpcUrl: string, opts: StartAnvilOptions, stderr: () => string): Promise<void> {
  const timeoutMs = opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let spawnError: Error | undefined;
  child.once('error', (err) => {
    spawnError = err;
  });
  while (Date.now() < deadline) {
    if (spawnError) throw new Error(`failed to spawn anvil (${anvilBinary()}): ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`anvil for chain ${opts.chainId} on port ${opts.port} exited early (${child.exitCode ?? child.signalCode}): ${stderr().trim() || 'no output'}`);
    }
    const chainId = await rpcChainId(rpcUrl, 500);
    if (chainId === opts.chainId) return;
    if (chainId !== undefined) throw new Error(`port ${opts.port} answered with chain ${chainId}, expected ${opts.chainId}`);
    await sleep(POLL_INTERVAL_MS);
  }
  throw new Error(`anvil for chain ${opts.chainId} did not answer eth_chainId on ${rpcUrl} within ${timeoutMs} ms: ${stderr().trim() || 'no output'}`);
}

/** SIGTERM, then SIGKILL if anvil has not exited after a grace period. */
async function terminate(child: ChildProcess): Promise<void> {
  // pid is undefined when spawn itself failed; no 'exit' event would ever arrive.
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
