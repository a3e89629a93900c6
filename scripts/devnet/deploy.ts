import { createHash } from 'crypto';
import { JsonRpcProvider, parseEther } from 'ethers';
import { ANVIL_TEST_ACCOUNTS, DEPLOYER_ADDRESS, DEPLOYER_PRIVATE_KEY } from './accounts';
import { refreshNativeUsdFeed } from './deploy-market';
import { type ArtifactSet, type ContractArtifact, loadArtifacts } from './compile';
import { deployFresh } from './deploy-fresh';
import { withAutomine } from './mining';
import { markerMatchesChain, readMarker, writeMarker } from './marker';
import { type NpmArtifacts, loadNpmArtifacts, routerMatchesPairInitCode } from './npm-artifacts';
import { DEFAULT_STATE_DIR } from './paths';
import { FUND_ETH, MINTABLE_TOKENS, POOLS, TEST_ACCOUNT_GRANTS, V3_POOLS, VAULT_VENUES } from './plan';
import { TxSender, hexQuantity } from './tx-sender';
import type { DevnetChain } from './types';

export type { DevnetChain, DevnetToken } from './types';

export interface DeployChainOptions {
  rpcUrl: string;
  chainId: number;
  name: string;
  /** Addresses to give FUND_ETH (10,000 ETH) each via anvil_setBalance. */
  fund?: string[];
  /** Where markers and the artifact cache live; default <repo>/.local. */
  stateDir?: string;
  /** The node's --block-time, if it interval-mines (deployment runs under automine and restores this). */
  blockTimeSec?: number;
  /** LOCAL_EXTRA_POOLS: extra V2 and V3 pools over extra tokens (scripts/devnet/extra-pools.ts). */
  extraPools?: number;
  /** Pre-compiled artifacts (bringUpDevnet compiles once for all chains). */
  artifacts?: ArtifactSet;
  log?: (line: string) => void;
}

/**
 * Idempotent: if this chain already carries the deployment recorded in the marker, returns it
 * without sending a transaction; otherwise deploys everything fresh and writes the marker.
 */
export async function deployChain(opts: DeployChainOptions): Promise<DevnetChain> {
  const stateDir = opts.stateDir ?? DEFAULT_STATE_DIR;
  const log = opts.log ?? (() => undefined);
  // staticNetwork: we verify the chain id ourselves once; without it ethers re-queries it around every call.
  // batchStallTime 0: the default 10 ms batching window would add 10 ms to each of ~80 sequential sends.
  const provider = new JsonRpcProvider(opts.rpcUrl, opts.chainId, { staticNetwork: true, batchStallTime: 0 });
  try {
    const actualChainId = Number(BigInt((await provider.send('eth_chainId', [])) as string));
    if (actualChainId !== opts.chainId) throw new Error(`${opts.rpcUrl} is chain ${actualChainId}, expected ${opts.chainId}`);

    const artifacts = opts.artifacts ?? (await loadArtifacts({ stateDir }));
    const npm = loadNpmArtifacts();
    const planHash = computePlanHash(artifacts, npm, opts.extraPools ?? 0);

    const marker = readMarker(stateDir, opts.chainId);
    if (marker && (await markerMatchesChain(provider, marker, opts.chainId, planHash))) {
      await topUpFunding(provider, opts.fund ?? [], true);
      await withAutomine(provider, opts.blockTimeSec, async () => refreshNativeUsdFeed(await TxSender.create(provider, DEPLOYER_PRIVATE_KEY, opts.chainId), marker.chain.contracts.nativeUsdFeed));
      log(`chain ${opts.chainId}: deployment already present, feed refreshed`);
      return { ...marker.chain, name: opts.name, rpcUrl: opts.rpcUrl };
    }

    const routerInitCodeHashMatches = routerMatchesPairInitCode(npm);
    if (!routerInitCodeHashMatches) {
      log('warning: Router02 init code hash differs from the v2-core pair; router quotes/swaps will not find the pools');
    }
    const fresh = await withAutomine(provider, opts.blockTimeSec, () =>
      deployFresh(provider, { chainId: opts.chainId, name: opts.name, rpcUrl: opts.rpcUrl }, artifacts, npm, opts.extraPools ?? 0),
    );
    await topUpFunding(provider, opts.fund ?? [], false);
    writeMarker(stateDir, {
      planHash,
      deployer: DEPLOYER_ADDRESS,
      deployerNonce: fresh.deployerNonce,
      permit2: fresh.permit2,
      routerInitCodeHashMatches,
      deployedAt: new Date().toISOString(),
      chain: fresh.chain,
    });
    log(`chain ${opts.chainId}: deployed (${fresh.deployerNonce} deployer txs, Permit2 ${fresh.permit2.method} at ${fresh.permit2.address})`);
    return fresh.chain;
  } finally {
    provider.destroy();
  }
}

/**
 * anvil_setBalance for each `fund` address. On an already-deployed chain only addresses that have
 * spent more than half their grant are topped up, so re-runs do not keep resetting balances
 * that tests may be asserting on.
 */
async function topUpFunding(provider: JsonRpcProvider, addresses: string[], onlyIfLow: boolean): Promise<void> {
  const target = parseEther(FUND_ETH);
  await Promise.all(
    addresses.map(async (address) => {
      if (onlyIfLow && (await provider.getBalance(address)) >= target / 2n) return;
      await provider.send('anvil_setBalance', [address, hexQuantity(target)]);
    }),
  );
}

/** Anything that would make the deployed state differ: plan data and all bytecode. */
function computePlanHash(artifacts: ArtifactSet, npm: NpmArtifacts, extraPools: number): string {
  // Node's sha256 over the hex text: same change detection as keccak, at a fraction of the cost.
  const code = (bytecode: string | undefined): string => (bytecode ? createHash('sha256').update(bytecode).digest('hex') : 'none');
  return createHash('sha256')
    .update(
      JSON.stringify({
        v: 3,
        deployer: DEPLOYER_ADDRESS,
        tokens: MINTABLE_TOKENS,
        pools: POOLS,
        v3Pools: V3_POOLS,
        grants: TEST_ACCOUNT_GRANTS,
        accounts: ANVIL_TEST_ACCOUNTS.map((a) => a.address),
        venues: VAULT_VENUES,
        ...(extraPools > 0 ? { extraPools } : {}),
        // Every compiled contract: a changed one must be redeployed, whichever feature owns it.
        compiled: Object.fromEntries(Object.entries(artifacts).map(([name, artifact]) => [name, code(artifact.bytecode)])),
        npm: Object.fromEntries(Object.entries(npm as unknown as Record<string, ContractArtifact>).map(([name, artifact]) => [name, code(artifact.bytecode)])),
      }),
    )
    .digest('hex');
}
