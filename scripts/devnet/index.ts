import * as path from 'path';
import { type AnvilHandle, startAnvil } from './anvil';
import { loadArtifacts } from './compile';
import { deployChain } from './deploy';
import { DEFAULT_STATE_DIR, writeJsonAtomic } from './paths';
import type { DevnetChain } from './types';

export type { DevnetChain, DevnetToken } from './types';
export { deployChain } from './deploy';
export type { DeployChainOptions } from './deploy';
export { isRpcUp, startAnvil } from './anvil';
export { loadArtifacts } from './compile';
export { ANVIL_TEST_ACCOUNTS, DEPLOYER_ADDRESS } from './accounts';

export interface DevnetChainSpec {
  chainId: number;
  name: string;
  port: number;
  /** Interval mining instead of automine. */
  blockTimeSec?: number;
}

/** From this many extra pools on, the chains keep no past states (see StartAnvilOptions.pruneHistory). */
export const PRUNE_HISTORY_FROM_POOLS = 1_000;
/**
 * From as many extra pools, the chains' block gas limit (StartAnvilOptions.gasLimit): the deployer
 * fills blocks to half of it, so 20,000 pools take about a hundred blocks instead of thousands.
 */
export const SCALE_GAS_LIMIT = 2_000_000_000n;

export interface BringUpDevnetOptions {
  chains: DevnetChainSpec[];
  fund?: string[];
  /** LOCAL_EXTRA_POOLS: extra pools deployed on every chain (default 0). */
  extraPools?: number;
  /** Default <repo>/.local. */
  stateDir?: string;
  log?: (line: string) => void;
}

export interface Devnet {
  chains: DevnetChain[];
  /** Wall time of each phase, for logs and the self-test. */
  timingsMs: { anvil: number; compile: number; deploy: number };
  /** The anvils this call started (not reused ones), for readings of their CPU. */
  pids: number[];
  /** Stops the anvils this call started (reused ones are left running). */
  stop(): Promise<void>;
}

export function devnetChainsFile(stateDir: string = DEFAULT_STATE_DIR): string {
  return path.join(stateDir, 'devnet-chains.json');
}

/**
 * Starts (or reuses) one anvil per chain, compiles once, deploys every chain in parallel and
 * writes <stateDir>/devnet-chains.json = { chains }.
 */
export async function bringUpDevnet(opts: BringUpDevnetOptions): Promise<Devnet> {
  const stateDir = opts.stateDir ?? DEFAULT_STATE_DIR;
  const log = opts.log ?? (() => undefined);
  const timingsMs = { anvil: 0, compile: 0, deploy: 0 };
  let t = performance.now();
  // allSettled: if one anvil fails to start, the others must still be stopped.
  const started = await Promise.allSettled(opts.chains.map((c) => startAnvil({ port: c.port, chainId: c.chainId, blockTimeSec: c.blockTimeSec, pruneHistory: (opts.extraPools ?? 0) >= PRUNE_HISTORY_FROM_POOLS, gasLimit: (opts.extraPools ?? 0) >= PRUNE_HISTORY_FROM_POOLS ? SCALE_GAS_LIMIT : undefined })));
  const anvils = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = async (): Promise<void> => {
    await Promise.all(anvils.map((a) => a.stop()));
  };

  try {
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    timingsMs.anvil = performance.now() - t;
    log(`anvil ${anvils.map((a) => `${a.rpcUrl}${a.reused ? ' (reused)' : ` (pid ${a.pid})`}`).join(', ')} up in ${timingsMs.anvil.toFixed(0)} ms`);
    t = performance.now();
    const artifacts = await loadArtifacts({ stateDir });
    timingsMs.compile = performance.now() - t;
    log(`contracts compiled/loaded in ${timingsMs.compile.toFixed(0)} ms`);
    t = performance.now();
    const chains = await Promise.all(
      opts.chains.map((spec, i) =>
        deployChain({
          rpcUrl: (anvils[i] as AnvilHandle).rpcUrl,
          chainId: spec.chainId,
          name: spec.name,
          blockTimeSec: spec.blockTimeSec,
          fund: opts.fund,
          extraPools: opts.extraPools,
          stateDir,
          artifacts,
          log,
        }),
      ),
    );
    timingsMs.deploy = performance.now() - t;
    writeJsonAtomic(devnetChainsFile(stateDir), { chains });
    return { chains, timingsMs, pids: anvils.flatMap((a) => (a.pid === undefined ? [] : [a.pid])), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
