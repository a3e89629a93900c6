/**
 * Control of a scenario's own anvil (started on a port of the caller's choosing, never the
 * shared test chains): mining mode, base-fee spikes, block gas limit, reorgs, and the marker
 * contract every relayed transaction of a scenario calls.
 *
 * The marker is an 11-byte contract without a selector: a call with a 32-byte word `id` as data
 * increments storage slot `id` (`count[id]++`), so `markCount(id)` read from the chain says how
 * many times a transaction carrying `id` executed.
 */
import { JsonRpcProvider, toBeHex, toQuantity, zeroPadValue } from 'ethers';
import { AnvilHandle, startAnvil } from '../../../scripts/devnet/anvil';
import { startHardhatNode } from './hardhat-node';

/** PUSH0-free runtime: id = calldataload(0); sstore(id, sload(id) + 1); stop. */
const MARKER_RUNTIME = '6000358054600101905500';
/** Copies the runtime (11 bytes at offset 12) to memory and returns it. */
const MARKER_INITCODE = `0x600b600c600039600b6000f3${MARKER_RUNTIME}`;

export interface ScenarioChain {
  chainId: number;
  rpcUrl: string;
  anvil: AnvilHandle;
  /** Talks to anvil directly (never through the proxy): the test's view of the truth. */
  provider: JsonRpcProvider;
  marker: string;
  rpc(method: string, params?: unknown[]): Promise<unknown>;
  /** Automine on (a block per transaction) or off. */
  automine(on: boolean): Promise<void>;
  /** A block every `seconds` (0 = no automatic mining). */
  intervalMining(seconds: number): Promise<void>;
  /** The base fee of the next block (anvil then derives later ones from it). */
  setNextBaseFee(wei: bigint): Promise<void>;
  /** Per-block gas limit, for congestion. */
  setBlockGasLimit(gas: bigint): Promise<void>;
  mine(blocks?: number): Promise<void>;
  blockNumber(): Promise<number>;
  /**
   * Replaces the last `depth` blocks by `depth` new ones holding the given raw transactions
   * at the given offsets (0 = first new block), as a node re-injecting reorged transactions
   * would; transactions not passed are gone from the chain.
   */
  reorg(depth: number, include: Array<{ raw: string; offset: number }>): Promise<void>;
  /** How many times the marker ran for `id`. */
  markCount(id: bigint): Promise<bigint>;
  stop(): Promise<void>;
}

/** The node implementations of the test bed: anvil, and hardhat's node (EDR) as the second client. */
export type NodeKind = 'anvil' | 'hardhat';

export async function startScenarioChain(opts: { port: number; chainId: number; fund: string[]; node?: NodeKind }): Promise<ScenarioChain> {
  const hardhat = opts.node === 'hardhat';
  const anvil = hardhat ? await startHardhatNode({ port: opts.port, chainId: opts.chainId }) : await startAnvil({ port: opts.port, chainId: opts.chainId });
  // The same controls under each client's own method names.
  const ns = hardhat ? 'hardhat' : 'anvil';
  const provider = new JsonRpcProvider(anvil.rpcUrl, opts.chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
  const rpc = (method: string, params: unknown[] = []) => provider.send(method, params) as Promise<unknown>;
  for (const address of opts.fund) await rpc(`${ns}_setBalance`, [address, toQuantity(10n ** 22n)]);
  const [deployer] = (await rpc('eth_accounts')) as string[];
  const hash = (await rpc('eth_sendTransaction', [{ from: deployer, data: MARKER_INITCODE, gas: toQuantity(100_000) }])) as string;
  let receipt: { contractAddress: string } | null = null;
  for (let i = 0; i < 100 && !receipt; i++) {
    receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { contractAddress: string } | null;
    if (!receipt) await new Promise((r) => setTimeout(r, 20));
  }
  if (!receipt?.contractAddress) {
    await anvil.stop();
    throw new Error('marker contract was not deployed');
  }
  const marker = receipt.contractAddress;

  return {
    chainId: opts.chainId,
    rpcUrl: anvil.rpcUrl,
    anvil,
    provider,
    marker,
    rpc,
    automine: async (on) => void (await rpc('evm_setAutomine', [on])),
    // anvil takes seconds; hardhat takes milliseconds and keeps automining unless told not to.
    intervalMining: async (seconds) => {
      if (hardhat) await rpc('evm_setAutomine', [false]);
      await rpc('evm_setIntervalMining', [hardhat ? seconds * 1000 : seconds]);
    },
    setNextBaseFee: async (wei) => void (await rpc(`${ns}_setNextBlockBaseFeePerGas`, [toQuantity(wei)])),
    setBlockGasLimit: async (gas) => void (await rpc('evm_setBlockGasLimit', [toQuantity(gas)])),
    mine: async (blocks = 1) => void (await rpc(`${ns}_mine`, [toQuantity(blocks)])),
    blockNumber: async () => Number(BigInt((await rpc('eth_blockNumber')) as string)),
    reorg: async (depth, include) => {
      if (hardhat) throw new Error('hardhat node has no reorg control');
      await rpc('anvil_reorg', [depth, include.map((t) => [t.raw, t.offset])]);
    },
    markCount: async (id) => BigInt((await rpc('eth_getStorageAt', [marker, toBeHex(id, 32), 'latest'])) as string),
    stop: async () => {
      provider.destroy();
      await anvil.stop();
    },
  };
}

/** The 32-byte call data that marks `id`. */
export function markCall(id: bigint): string {
  return zeroPadValue(toBeHex(id), 32);
}
