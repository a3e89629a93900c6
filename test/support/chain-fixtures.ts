import { readFileSync } from 'node:fs';
import { Contract, Interface, JsonRpcProvider, Wallet } from 'ethers';
import { TEST_CHAINS_FILE } from './test-env';

export interface TestChain {
  chainId: number;
  rpcUrl: string;
  contracts: Record<string, string>;
  tokens: Array<{ symbol: string; address: string; decimals: number }>;
}

export function testChain(chainId = 31337): TestChain {
  const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8')) as { chains: TestChain[] };
  const chain = file.chains.find((c) => c.chainId === chainId);
  if (!chain) throw new Error(`chain ${chainId} not in ${TEST_CHAINS_FILE}`);
  return chain;
}

export function token(chain: TestChain, symbol: string): string {
  const found = chain.tokens.find((t) => t.symbol === symbol);
  if (!found) throw new Error(`no ${symbol} on ${chain.chainId}`);
  return found.address;
}

export const erc20 = new Interface([
  'function mint(address to, uint256 amount)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

export function provider(chain: TestChain): JsonRpcProvider {
  return new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, cacheTimeout: -1 });
}

export function tokenContract(chain: TestChain, symbol: string): Contract {
  return new Contract(token(chain, symbol), erc20, provider(chain));
}

/** calldata minting `amount` of a test token to `to` (anyone may mint on the local stack). */
export function mintCall(to: string, amount = 1000n): string {
  return erc20.encodeFunctionData('mint', [to, amount]);
}

export const randomAddress = () => Wallet.createRandom().address;
