import { AbiCoder, Interface, getCreate2Address, getCreateAddress, keccak256, parseUnits } from 'ethers';
import { MAX_TICK, MIN_TICK } from '../../src/modules/swap/domain/v3-math';
import { DEPLOYER_ADDRESS } from './accounts';
import type { ArtifactSet } from './compile';
import { isqrt } from './deploy-v3';
import { type NpmArtifacts, pairInitCodeHash, v3PoolInitCodeHash } from './npm-artifacts';
import { DEX_CONTRACT_KEYS, V3_CONTRACT_KEYS, V3_TICK_SPACING } from './plan';
import { GAS, type TxSender } from './tx-sender';
import type { DevnetToken } from './types';
import { computePairAddress, sortTokens } from './verify';

const EXTRA_V3_FEE = 3000;
/** Whole units of each token in a pool: every extra token is worth 1 USD, as USDC. */
const POOL_UNITS = 10_000;

export interface ExtraPoolPlan {
  /** Extra tokens to deploy (XT1..XTn); pools pair them and USDC. */
  tokens: number;
  pools: Array<{ a: number; b: number; kind: 'v2' | 'v3' }>;
}

/**
 * N pools (`LOCAL_EXTRA_POOLS`) in a mainnet-like shape: each extra token XT<k> (k = 1..) has a V2
 * pair and a V3 pool (0.3%) with USDC, the hub, and a V2 pair with the token before it (XT1 with
 * USDC's other side: none), so most tokens are two hops apart through the hub and neighbours are
 * also one hop apart. Index 0 is USDC. A complete graph of equal tokens would be unlike any chain
 * (every trade's optimum spread over hundreds of paths).
 */
export function planExtraPools(n: number): ExtraPoolPlan {
  const pools: ExtraPoolPlan['pools'] = [];
  let tokens = 0;
  while (pools.length < n) {
    tokens += 1;
    const k = tokens;
    const wanted: ExtraPoolPlan['pools'] = [{ a: 0, b: k, kind: 'v2' }, { a: 0, b: k, kind: 'v3' }];
    if (k > 1) wanted.push({ a: k - 1, b: k, kind: 'v2' });
    for (const p of wanted) if (pools.length < n) pools.push(p);
  }
  return { tokens, pools };
}

/** Tokens per `deployTokens` call at least: about 0.5M gas each; the limits stay under the 15M block gas target. */
const TOKENS_PER_TX = 12;
const GAS_PER_TOKEN = 1_200_000n;
/** Gas limits of one pool's seeding call (V2 ~2.5M used, V3 ~5M). */
const GAS_V2 = GAS.createPair;
const GAS_V3 = 7_000_000n;
/**
 * A transaction's gas budget: a quarter of what the sender packs into a block, so a block still
 * holds several transactions. At the default 30M block limit that is one pool per transaction, as
 * before; at the scale runs' limit (SCALE_GAS_LIMIT) tens of pools go in one `multicall`.
 */
const txBudget = (sender: TxSender): bigint => (sender.blockGasTarget ?? 30_000_000n) / 4n;

/**
 * Deploys the plan's tokens and pools through the devnet's PoolSeeder (after the main deployment:
 * it needs USDC and both factories): tokens in batches, each pool created, funded and given
 * liquidity in one transaction. Tokens join `tokens` (symbol XT<i>, `extra`), pools `contracts` as
 * `pool:uniswap-v2:<A>/<B>` and `v3pool:<A>/<B>:3000`, like the others; LP positions belong to the deployer.
 */
export async function deployExtraPools(sender: TxSender, artifacts: ArtifactSet, npm: NpmArtifacts, contracts: Record<string, string>, tokens: DevnetToken[], n: number): Promise<void> {
  if (n <= 0) return;
  await sender.withManualMining(() => seedExtraPools(sender, artifacts, npm, contracts, tokens, n));
}

async function seedExtraPools(sender: TxSender, artifacts: ArtifactSet, npm: NpmArtifacts, contracts: Record<string, string>, tokens: DevnetToken[], n: number): Promise<void> {
  const plan = planExtraPools(n);
  const seederArtifact = artifacts.PoolSeeder;
  const seederIface = new Interface(seederArtifact.abi);
  const usdc = tokens.find((t) => t.symbol === 'USDC');
  if (!usdc) throw new Error('extra pools pair with USDC, which is not deployed');
  const seeder = await sender.deploy('deploy PoolSeeder', seederArtifact.bytecode);
  contracts.poolSeeder = seeder;
  const set: DevnetToken[] = [usdc];
  const budget = txBudget(sender);
  const tokensPerTx = Math.max(TOKENS_PER_TX, Number(budget / GAS_PER_TOKEN));
  for (let first = 1; first <= plan.tokens; first += tokensPerTx) {
    const count = Math.min(tokensPerTx, plan.tokens - first + 1);
    await sender.send({ label: `deploy XT${first}..XT${first + count - 1}`, to: seeder, data: seederIface.encodeFunctionData('deployTokens', [first, count]), gasLimit: GAS_PER_TOKEN * BigInt(count) });
    for (let i = first; i < first + count; i++) {
      // A contract's first CREATE uses nonce 1 (EIP-161); the seeder creates nothing else.
      const token = { symbol: `XT${i}`, name: `Extra Token ${i}`, decimals: 18, address: getCreateAddress({ from: seeder, nonce: i }), usdStable: false, extra: true };
      tokens.push(token);
      set.push(token);
    }
  }
  const v2Factory = contracts[DEX_CONTRACT_KEYS['uniswap-v2'].factory];
  const v3Factory = contracts[V3_CONTRACT_KEYS.factory];
  const v2Hash = pairInitCodeHash(npm);
  const v3Hash = v3PoolInitCodeHash(npm);
  const spacing = V3_TICK_SPACING[EXTRA_V3_FEE];
  const [tickLower, tickUpper] = [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing];

  // Consecutive pools' seeding calls, sent as one multicall once the next would exceed the budget.
  const batch = { calls: [] as string[], labels: [] as string[], gas: 0n };
  const flush = async () => {
    if (batch.calls.length === 0) return;
    const label = batch.calls.length === 1 ? batch.labels[0] : `${batch.labels[0]} .. ${batch.labels.at(-1)} (${batch.calls.length} pools)`;
    const data = batch.calls.length === 1 ? batch.calls[0] : seederIface.encodeFunctionData('multicall', [batch.calls]);
    await sender.send({ label, to: seeder, data, gasLimit: batch.gas + (batch.calls.length === 1 ? 0n : 50_000n) });
    [batch.calls, batch.labels, batch.gas] = [[], [], 0n];
  };
  const add = async (label: string, data: string, gas: bigint) => {
    if (batch.calls.length > 0 && batch.gas + gas > budget) await flush();
    batch.calls.push(data);
    batch.labels.push(label);
    batch.gas += gas;
  };

  for (const [k, pool] of plan.pools.entries()) {
    const A = set[pool.a];
    const B = set[pool.b];
    const depth = POOL_UNITS + (k % 97) * 100;
    if (pool.kind === 'v2') {
      const key = `pool:uniswap-v2:${A.symbol}/${B.symbol}`;
      const args = [v2Factory, A.address, B.address, parseUnits(String(depth), A.decimals), parseUnits(String(depth), B.decimals), DEPLOYER_ADDRESS];
      await add(`seed ${key}`, seederIface.encodeFunctionData('seedV2', args), GAS_V2);
      contracts[key] = computePairAddress(v2Factory, A.address, B.address, v2Hash);
      continue;
    }
    const key = `v3pool:${A.symbol}/${B.symbol}:${EXTRA_V3_FEE}`;
    const [a0] = sortTokens(A.address, B.address);
    const [t0, t1] = a0 === A.address ? [A, B] : [B, A];
    // Both worth 1 USD: price (token1 raw per token0 raw) = 10^dec1 / 10^dec0.
    const sqrtPriceX96 = isqrt((10n ** BigInt(t1.decimals) << 192n) / 10n ** BigInt(t0.decimals));
    // Full range at price p: token1 = L·√p, so L = units1 / √p (as 2^96 fixed point).
    const liquidity = (parseUnits(String(depth), t1.decimals) << 96n) / sqrtPriceX96;
    const args = [v3Factory, t0.address, t1.address, EXTRA_V3_FEE, sqrtPriceX96, tickLower, tickUpper, liquidity, DEPLOYER_ADDRESS];
    await add(`seed ${key}`, seederIface.encodeFunctionData('seedV3', args), GAS_V3);
    const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [t0.address, t1.address, EXTRA_V3_FEE]));
    contracts[key] = getCreate2Address(v3Factory, salt, v3Hash);
  }
  await flush();
}
