import { Interface, JsonRpcProvider, getAddress, getCreate2Address, keccak256, solidityPacked } from 'ethers';
import type { DevnetChain } from './types';

/** Every contract and token address of a chain, labelled for error messages. */
export function chainAddresses(chain: DevnetChain): Array<[label: string, address: string]> {
  return [...Object.entries(chain.contracts), ...chain.tokens.map((t): [string, string] => [`token:${t.symbol}`, t.address])];
}

/** LOCAL_EXTRA_POOLS' pools and tokens checked for code, at most (spread evenly, the last included). */
const EXTRA_CODE_SAMPLE = 64;
const isExtra = (label: string) => /\bXT\d+\b/.test(label);

/**
 * Labels of addresses without code (empty = all deployed). Parallel getCode calls are batched by the provider.
 * Of LOCAL_EXTRA_POOLS' pools and tokens only a sample: their transactions' receipts already say
 * they ran, and every pool's code through getCode is ~1 GB of JSON at 20,000 pools (the node
 * process grew past 4 GB reading them).
 */
export async function addressesWithoutCode(provider: JsonRpcProvider, chain: DevnetChain): Promise<string[]> {
  const all = chainAddresses(chain);
  const extra = all.filter(([label]) => isExtra(label));
  const step = Math.max(1, Math.ceil(extra.length / EXTRA_CODE_SAMPLE));
  const sample = new Set(extra.filter((_, i) => i % step === 0 || i === extra.length - 1));
  const entries = all.filter((entry) => !isExtra(entry[0]) || sample.has(entry));
  const codes = await Promise.all(entries.map(([, address]) => provider.getCode(address)));
  return entries.filter((_, i) => codes[i] === '0x').map(([label, address]) => `${label} (${address})`);
}

/** UniswapV2Library.pairFor: CREATE2 from the factory with salt keccak(token0 ++ token1). */
export function computePairAddress(factory: string, tokenA: string, tokenB: string, initCodeHash: string): string {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  return getCreate2Address(factory, keccak256(solidityPacked(['address', 'address'], [token0, token1])), initCodeHash);
}

export function sortTokens(tokenA: string, tokenB: string): [string, string] {
  return BigInt(tokenA) < BigInt(tokenB) ? [getAddress(tokenA), getAddress(tokenB)] : [getAddress(tokenB), getAddress(tokenA)];
}

const factoryIface = new Interface(['function getPair(address,address) view returns (address)']);

/** The factory's own record must agree with the address we computed offline (i.e. the init code hash is right). */
export async function checkPairRegistered(provider: JsonRpcProvider, factory: string, tokenA: string, tokenB: string, expected: string): Promise<void> {
  const raw = await provider.call({ to: factory, data: factoryIface.encodeFunctionData('getPair', [tokenA, tokenB]) });
  const actual = String(factoryIface.decodeFunctionResult('getPair', raw)[0]);
  if (getAddress(actual) !== getAddress(expected)) {
    throw new Error(`factory ${factory} has pair ${actual} for ${tokenA}/${tokenB}, expected ${expected} (init code hash mismatch?)`);
  }
}
