import { AbiCoder, Interface, concat, getCreate2Address, keccak256 } from 'ethers';
import { sqrtRatioAtTick, tickAtSqrtRatio, MAX_TICK, MIN_TICK } from '../../src/modules/swap/domain/v3-math';
import { DEPLOYER_ADDRESS } from './accounts';
import type { ContractArtifact } from './compile';
import { type NpmArtifacts, v3PoolInitCodeHash } from './npm-artifacts';
import { USD_PRICES, V3_CONTRACT_KEYS, V3_POOLS, V3_TICK_SPACING, type V3PoolSpec, v3PoolKey } from './plan';
import { GAS, type TxSender } from './tx-sender';
import type { DevnetToken } from './types';
import { sortTokens } from './verify';

/** A pool's CREATE2 deployment costs ~4.5M gas. */
const CREATE_POOL_GAS = 6_000_000n;
const MINT_GAS = 800_000n;

interface PlannedPosition {
  tickLower: number;
  tickUpper: number;
  liquidity: bigint;
}

export interface PlannedV3Pool {
  spec: V3PoolSpec;
  token0: DevnetToken;
  token1: DevnetToken;
  sqrtPriceX96: bigint;
  positions: PlannedPosition[];
  /** What the positions take of each token (with a margin), to fund the helper. */
  need0: bigint;
  need1: bigint;
}

/** Integer square root (Newton's method from above). */
export function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Start above the root: the float estimate plus a margin far beyond its error.
  let x = BigInt(Math.ceil(Math.sqrt(Number(n)) * (1 + 1e-9))) + 1n;
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Ticks, liquidity and token needs of every V3_POOLS position, from USD_PRICES. */
export function planV3Pools(token: (symbol: string) => DevnetToken): PlannedV3Pool[] {
  return V3_POOLS.map((spec) => {
    const [a0] = sortTokens(token(spec.tokenA).address, token(spec.tokenB).address);
    const [token0, token1] = a0 === token(spec.tokenA).address ? [token(spec.tokenA), token(spec.tokenB)] : [token(spec.tokenB), token(spec.tokenA)];
    const usd0 = USD_PRICES[token0.symbol];
    const usd1 = USD_PRICES[token1.symbol];
    // price (token1 raw per token0 raw) = usd0·10^dec1 / (usd1·10^dec0); sqrtPriceX96 = √price · 2^96.
    const num = BigInt(usd0) * 10n ** BigInt(token1.decimals);
    const den = BigInt(usd1) * 10n ** BigInt(token0.decimals);
    const sqrtPriceX96 = isqrt((num << 192n) / den);
    const tick = tickAtSqrtRatio(sqrtPriceX96);
    const spacing = V3_TICK_SPACING[spec.fee];
    const sp = Number(sqrtPriceX96) / 2 ** 96;
    let need0 = 0;
    let need1 = 0;
    const positions = spec.positions.map((position): PlannedPosition => {
      const [tickLower, tickUpper] =
        position.range === 'full'
          ? [Math.ceil(MIN_TICK / spacing) * spacing, Math.floor(MAX_TICK / spacing) * spacing]
          : [
              Math.floor((tick + Math.log(1 + position.range[0] / 100) / Math.log(1.0001)) / spacing) * spacing,
              Math.ceil((tick + Math.log(1 + position.range[1] / 100) / Math.log(1.0001)) / spacing) * spacing,
            ];
      const sa = Number(sqrtRatioAtTick(tickLower)) / 2 ** 96;
      const sb = Number(sqrtRatioAtTick(tickUpper)) / 2 ** 96;
      // Per unit of liquidity, in range: token0 = 1/√p - 1/√pb, token1 = √p - √pa.
      const per0 = 1 / sp - 1 / sb;
      const per1 = sp - sa;
      const usdPerL = (per0 * usd0) / 10 ** token0.decimals + (per1 * usd1) / 10 ** token1.decimals;
      const liquidity = BigInt(Math.floor(position.usd / usdPerL));
      need0 += Number(liquidity) * per0;
      need1 += Number(liquidity) * per1;
      return { tickLower, tickUpper, liquidity };
    });
    const withMargin = (x: number): bigint => BigInt(Math.ceil(x * 1.01)) + 1000n;
    return { spec, token0, token1, sqrtPriceX96, positions, need0: withMargin(need0), need1: withMargin(need1) };
  });
}

/**
 * The Uniswap V3 deployment: the factory (bytecode from @uniswap/v3-core), the 0.01% tier it
 * does not enable by default, the devnet liquidity helper, and every V3_POOLS pool created,
 * initialized at its USD price and given its positions. `fund` moves tokens to the helper.
 */
export async function deployV3(
  sender: TxSender,
  npm: NpmArtifacts,
  helperArtifact: ContractArtifact,
  contracts: Record<string, string>,
  planned: PlannedV3Pool[],
  fund: (label: string, to: string, token: DevnetToken, units: bigint) => Promise<void>,
): Promise<void> {
  const factoryIface = new Interface(npm.uniswapV3Factory.abi);
  const poolIface = new Interface(npm.uniswapV3Pool.abi);
  const helperIface = new Interface(helperArtifact.abi);
  const factory = await sender.deploy('deploy uniswap-v3 factory', npm.uniswapV3Factory.bytecode);
  contracts[V3_CONTRACT_KEYS.factory] = factory;
  await sender.send({ label: 'enable the 0.01% V3 fee tier', to: factory, data: factoryIface.encodeFunctionData('enableFeeAmount', [100, 1]), gasLimit: GAS.call });
  const helper = await sender.deploy('deploy V3 liquidity helper', concat([helperArtifact.bytecode, helperIface.encodeDeploy([DEPLOYER_ADDRESS])]));
  contracts[V3_CONTRACT_KEYS.liquidityHelper] = helper;
  const initCodeHash = v3PoolInitCodeHash(npm);
  for (const pool of planned) {
    const key = v3PoolKey(pool.spec);
    await sender.send({ label: `createPool ${key}`, to: factory, data: factoryIface.encodeFunctionData('createPool', [pool.token0.address, pool.token1.address, pool.spec.fee]), gasLimit: CREATE_POOL_GAS });
    const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [pool.token0.address, pool.token1.address, pool.spec.fee]));
    const address = getCreate2Address(factory, salt, initCodeHash);
    contracts[key] = address;
    await sender.send({ label: `initialize ${key}`, to: address, data: poolIface.encodeFunctionData('initialize', [pool.sqrtPriceX96]), gasLimit: GAS.call });
    await fund(`fund ${key} ${pool.token0.symbol}`, helper, pool.token0, pool.need0);
    await fund(`fund ${key} ${pool.token1.symbol}`, helper, pool.token1, pool.need1);
    for (const p of pool.positions) {
      await sender.send({ label: `mint ${key} [${p.tickLower}, ${p.tickUpper}]`, to: helper, data: helperIface.encodeFunctionData('mint', [address, p.tickLower, p.tickUpper, p.liquidity]), gasLimit: MINT_GAS });
    }
  }
}
