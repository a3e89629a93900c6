import { AbiCoder, Interface, concat, getCreate2Address, keccak256, parseUnits } from 'ethers';
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

/**
 * Deploys the plan's tokens and pools from the devnet deployer (after the main deployment: it
 * needs USDC, both factories and the V3 liquidity helper). Tokens join `tokens` (symbol XT<i>, `extra`),
 * pools `contracts` as `pool:uniswap-v2:<A>/<B>` and `v3pool:<A>/<B>:3000`, like the others.
 */
export async function deployExtraPools(sender: TxSender, artifacts: ArtifactSet, npm: NpmArtifacts, contracts: Record<string, string>, tokens: DevnetToken[], n: number): Promise<void> {
  if (n <= 0) return;
  const plan = planExtraPools(n);
  const tokenArtifact = artifacts.MintableERC20;
  const tokenIface = new Interface(tokenArtifact.abi);
  const usdc = tokens.find((t) => t.symbol === 'USDC');
  if (!usdc) throw new Error('extra pools pair with USDC, which is not deployed');
  const set: DevnetToken[] = [usdc];
  for (let i = 1; i <= plan.tokens; i++) {
    const spec = { symbol: `XT${i}`, name: `Extra Token ${i}`, decimals: 18 };
    const address = await sender.deploy(`deploy ${spec.symbol}`, concat([tokenArtifact.bytecode, tokenIface.encodeDeploy([spec.name, spec.symbol, spec.decimals])]));
    const token = { ...spec, address, usdStable: false, extra: true };
    tokens.push(token);
    set.push(token);
  }
  const v2Factory = contracts[DEX_CONTRACT_KEYS['uniswap-v2'].factory];
  const v3Factory = contracts[V3_CONTRACT_KEYS.factory];
  const helper = contracts[V3_CONTRACT_KEYS.liquidityHelper];
  const v2FactoryIface = new Interface(npm.uniswapV2Factory.abi);
  const pairIface = new Interface(npm.uniswapV2Pair.abi);
  const v3FactoryIface = new Interface(npm.uniswapV3Factory.abi);
  const v3PoolIface = new Interface(npm.uniswapV3Pool.abi);
  const helperIface = new Interface(artifacts.V3LiquidityHelper.abi);
  const v2Hash = pairInitCodeHash(npm);
  const v3Hash = v3PoolInitCodeHash(npm);
  const spacing = V3_TICK_SPACING[EXTRA_V3_FEE];
  const [tickLower, tickUpper] = [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing];
  const mint = (label: string, token: DevnetToken, to: string, units: bigint) => sender.send({ label, to: token.address, data: tokenIface.encodeFunctionData('mint', [to, units]), gasLimit: GAS.call });

  for (const [k, pool] of plan.pools.entries()) {
    const A = set[pool.a];
    const B = set[pool.b];
    const depth = POOL_UNITS + (k % 97) * 100;
    if (pool.kind === 'v2') {
      const key = `pool:uniswap-v2:${A.symbol}/${B.symbol}`;
      await sender.send({ label: `createPair ${key}`, to: v2Factory, data: v2FactoryIface.encodeFunctionData('createPair', [A.address, B.address]), gasLimit: GAS.createPair });
      const pair = computePairAddress(v2Factory, A.address, B.address, v2Hash);
      contracts[key] = pair;
      await mint(`fund ${key} ${A.symbol}`, A, pair, parseUnits(String(depth), A.decimals));
      await mint(`fund ${key} ${B.symbol}`, B, pair, parseUnits(String(depth), B.decimals));
      await sender.send({ label: `mint LP ${key}`, to: pair, data: pairIface.encodeFunctionData('mint', [DEPLOYER_ADDRESS]), gasLimit: GAS.call });
      continue;
    }
    const key = `v3pool:${A.symbol}/${B.symbol}:${EXTRA_V3_FEE}`;
    const [a0] = sortTokens(A.address, B.address);
    const [t0, t1] = a0 === A.address ? [A, B] : [B, A];
    // Both worth 1 USD: price (token1 raw per token0 raw) = 10^dec1 / 10^dec0.
    const sqrtPriceX96 = isqrt((10n ** BigInt(t1.decimals) << 192n) / 10n ** BigInt(t0.decimals));
    // Full range at price p: token1 = L·√p, so L = units1 / √p (as 2^96 fixed point).
    const units1 = parseUnits(String(depth), t1.decimals);
    const liquidity = (units1 << 96n) / sqrtPriceX96;
    await sender.send({ label: `createPool ${key}`, to: v3Factory, data: v3FactoryIface.encodeFunctionData('createPool', [t0.address, t1.address, EXTRA_V3_FEE]), gasLimit: 6_000_000n });
    const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [t0.address, t1.address, EXTRA_V3_FEE]));
    const address = getCreate2Address(v3Factory, salt, v3Hash);
    contracts[key] = address;
    await sender.send({ label: `initialize ${key}`, to: address, data: v3PoolIface.encodeFunctionData('initialize', [sqrtPriceX96]), gasLimit: GAS.call });
    // A margin over what the position takes; the helper keeps the rest.
    await mint(`fund ${key} ${t0.symbol}`, t0, helper, (parseUnits(String(depth), t0.decimals) * 101n) / 100n);
    await mint(`fund ${key} ${t1.symbol}`, t1, helper, (units1 * 101n) / 100n);
    await sender.send({ label: `mint ${key}`, to: helper, data: helperIface.encodeFunctionData('mint', [address, tickLower, tickUpper, liquidity]), gasLimit: 800_000n });
  }
}
