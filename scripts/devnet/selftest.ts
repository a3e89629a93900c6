/**
 * End-to-end proof of the devnet (not a Jest test): `npx ts-node scripts/devnet/selftest.ts`.
 * Uses ports 28545/28546 and its own state dir (.local/selftest) so it never disturbs a running devnet.
 */
import * as assert from 'assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { Contract, JsonRpcProvider, Wallet, ZeroAddress, formatUnits, getAddress, parseEther, parseUnits } from 'ethers';
import { ANVIL_TEST_ACCOUNTS, DEPLOYER_ADDRESS } from './accounts';
import { isRpcUp } from './anvil';
import { clearArtifactMemo, loadArtifacts } from './compile';
import { deployChain } from './deploy';
import { type Devnet, bringUpDevnet, devnetChainsFile } from './index';
import { readMarker } from './marker';
import { CANONICAL_PERMIT2 } from './permit2';
import { DEFAULT_STATE_DIR } from './paths';
import { DEX_CONTRACT_KEYS, FUND_ETH, POOLS, TEST_ACCOUNT_GRANTS, USD_PRICES, poolKey } from './plan';
import type { DevnetChain, DevnetToken } from './types';
import { addressesWithoutCode } from './verify';

const STATE_DIR = path.join(DEFAULT_STATE_DIR, 'selftest');
const CHAINS = [
  { chainId: 31337, name: 'Devnet', port: 28545 },
  { chainId: 84532, name: 'Base Sepolia (local)', port: 28546 },
];
const FUNDED = Wallet.createRandom().address;

const PAIR_ABI = ['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)'];
const ROUTER_ABI = ['function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)'];
const FACTORY_ABI = ['function getPair(address, address) view returns (address)', 'function allPairsLength() view returns (uint256)'];
const ERC20_ABI = ['function balanceOf(address) view returns (uint256)'];
const PERMIT2_ABI = ['function DOMAIN_SEPARATOR() view returns (bytes32)'];

const timings: Array<[string, number]> = [];
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  timings.push([label, performance.now() - start]);
  return result;
}

function recordPhases(run: string, devnet: Devnet): void {
  for (const [phase, ms] of Object.entries(devnet.timingsMs)) timings.push([`  ${run} ${phase}`, ms]);
}

function step(message: string): void {
  console.log(`  ok  ${message}`);
}

function tokenOf(chain: DevnetChain, symbol: string): DevnetToken {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  assert.ok(token, `token ${symbol} missing`);
  return token;
}

async function checkChain(chain: DevnetChain): Promise<void> {
  console.log(`\n${chain.name} (${chain.chainId}) ${chain.rpcUrl}`);
  const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, batchStallTime: 0 });
  try {
    assert.deepEqual(await addressesWithoutCode(provider, chain), []);
    step(`all ${Object.keys(chain.contracts).length} contracts + ${chain.tokens.length} tokens have code`);

    assert.equal(getAddress(chain.contracts.permit2), getAddress(CANONICAL_PERMIT2), 'Permit2 not at canonical address');
    const domain = (await new Contract(chain.contracts.permit2, PERMIT2_ABI, provider).getFunction('DOMAIN_SEPARATOR')()) as string;
    step(`Permit2 at canonical ${CANONICAL_PERMIT2}, DOMAIN_SEPARATOR ${domain.slice(0, 18)}…`);

    for (const pool of POOLS) {
      const pair = new Contract(chain.contracts[poolKey(pool)], PAIR_ABI, provider);
      const [r0, r1] = (await pair.getFunction('getReserves')()) as [bigint, bigint, bigint];
      const token0 = getAddress((await pair.getFunction('token0')()) as string);
      const a = tokenOf(chain, pool.tokenA);
      const b = tokenOf(chain, pool.tokenB);
      const [reserveA, reserveB] = token0 === getAddress(a.address) ? [r0, r1] : [r1, r0];
      assert.equal(reserveA, parseUnits(pool.amountA, a.decimals), `${poolKey(pool)} reserve ${pool.tokenA}`);
      assert.equal(reserveB, parseUnits(pool.amountB, b.decimals), `${poolKey(pool)} reserve ${pool.tokenB}`);
    }
    step(`reserves of all ${POOLS.length} pools match the plan`);

    for (const dex of ['uniswap-v2', 'sushiswap-v2'] as const) {
      const factory = new Contract(chain.contracts[DEX_CONTRACT_KEYS[dex].factory], FACTORY_ABI, provider);
      const count = (await factory.getFunction('allPairsLength')()) as bigint;
      assert.equal(Number(count), POOLS.filter((p) => p.dex === dex).length, `${dex} pair count`);
    }
    step('factories hold exactly the planned pairs');

    await checkRoutes(chain, provider);
    await checkBalances(chain, provider);
  } finally {
    provider.destroy();
  }
}

/** Router quotes, using the routers' own pairFor (so this also proves the init code hash matches). */
async function checkRoutes(chain: DevnetChain, provider: JsonRpcProvider): Promise<void> {
  const uni = new Contract(chain.contracts.uniswapV2Router, ROUTER_ABI, provider);
  const sushi = new Contract(chain.contracts.sushiswapV2Router, ROUTER_ABI, provider);
  const addr = (symbol: string): string => tokenOf(chain, symbol).address;
  const quote = async (router: Contract, amountIn: bigint, symbols: string[]): Promise<bigint> => {
    const amounts = (await router.getFunction('getAmountsOut')(amountIn, symbols.map(addr))) as bigint[];
    return amounts[amounts.length - 1];
  };
  const usd = (symbol: string, amount: bigint): number => Number(formatUnits(amount, tokenOf(chain, symbol).decimals)) * (USD_PRICES[symbol] ?? 0);

  // Direct: small trades are better on sushi (its price is 0.3% higher), large ones on deep uniswap.
  const [uniSmall, sushiSmall, uniBig, sushiBig] = await Promise.all([
    quote(uni, parseEther('1'), ['WETH', 'USDC']),
    quote(sushi, parseEther('1'), ['WETH', 'USDC']),
    quote(uni, parseEther('100'), ['WETH', 'USDC']),
    quote(sushi, parseEther('100'), ['WETH', 'USDC']),
  ]);
  assert.ok(sushiSmall > uniSmall && uniBig > sushiBig, 'best DEX for WETH->USDC should depend on size');
  step(`WETH->USDC direct: 1 ETH -> ${formatUnits(uniSmall, 6)} (uni) / ${formatUnits(sushiSmall, 6)} (sushi); 100 ETH -> ${formatUnits(uniBig, 6)} / ${formatUnits(sushiBig, 6)}`);

  // 2-hop: no DAI/WBTC pool anywhere.
  const uniFactory = new Contract(chain.contracts.uniswapV2Factory, FACTORY_ABI, provider);
  const sushiFactory = new Contract(chain.contracts.sushiswapV2Factory, FACTORY_ABI, provider);
  for (const factory of [uniFactory, sushiFactory]) {
    assert.equal(await factory.getFunction('getPair')(addr('DAI'), addr('WBTC')), ZeroAddress);
    assert.equal(await factory.getFunction('getPair')(addr('LINK'), addr('UNI')), ZeroAddress);
  }
  const daiIn = parseEther('3000');
  const wbtcOut = await quote(uni, daiIn, ['DAI', 'WETH', 'WBTC']);
  assert.ok(usd('WBTC', wbtcOut) > 2950 && usd('WBTC', wbtcOut) < 3000, `DAI->WETH->WBTC gave ${formatUnits(wbtcOut, 8)}`);
  step(`DAI->WBTC 2-hop: 3000 DAI -> ${formatUnits(wbtcOut, 8)} WBTC`);

  // 3-hop across DEXes: LINK->DAI on sushi, then DAI->WETH->UNI on uniswap.
  const linkIn = parseEther('100');
  const daiMid = await quote(sushi, linkIn, ['LINK', 'DAI']);
  const uniOut = await quote(uni, daiMid, ['DAI', 'WETH', 'UNI']);
  const ratio = usd('UNI', uniOut) / usd('LINK', linkIn);
  assert.ok(ratio > 0.985 && ratio < 0.991, `LINK->UNI kept ${ratio} of value`);
  step(`LINK->DAI->WETH->UNI 3-hop: 100 LINK ($1500) -> ${formatUnits(daiMid, 18)} DAI -> ${formatUnits(uniOut, 18)} UNI (${(ratio * 100).toFixed(2)}% of value)`);
}

async function checkBalances(chain: DevnetChain, provider: JsonRpcProvider): Promise<void> {
  for (const account of ANVIL_TEST_ACCOUNTS) {
    for (const [symbol, amount] of Object.entries(TEST_ACCOUNT_GRANTS)) {
      const token = tokenOf(chain, symbol);
      const balance = (await new Contract(token.address, ERC20_ABI, provider).getFunction('balanceOf')(account.address)) as bigint;
      assert.equal(balance, parseUnits(amount, token.decimals), `${symbol} of ${account.address}`);
    }
  }
  assert.equal(await provider.getBalance(FUNDED), parseEther(FUND_ETH));
  step(`test accounts 0..4 hold their grants; fund address ${FUNDED} has ${FUND_ETH} ETH`);
}

/** Block height + deployer nonce: both must be unchanged by an idempotent run. */
async function chainFingerprint(rpcUrl: string): Promise<string> {
  const provider = new JsonRpcProvider(rpcUrl);
  try {
    const [block, nonce] = await Promise.all([provider.getBlockNumber(), provider.getTransactionCount(DEPLOYER_ADDRESS)]);
    return `block ${block}, deployer nonce ${nonce}`;
  } finally {
    provider.destroy();
  }
}

async function checkCompileErrorsSurface(): Promise<void> {
  const dir = path.join(STATE_DIR, 'broken-contracts');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'Broken.sol'), 'pragma solidity ^0.8.20;\ncontract Broken { function f() public { undefinedThing(); } }\n');
  await assert.rejects(loadArtifacts({ contractsDir: dir, stateDir: STATE_DIR }), /solc .*failed:[\s\S]*Undeclared identifier/);
  step('a compile error is thrown with solc’s message');
}

async function main(): Promise<void> {
  fs.rmSync(STATE_DIR, { recursive: true, force: true });
  const fund = [FUNDED];
  const log = (line: string): void => console.log(`      ${line}`);

  console.log('run 1: cold compile (solc-js not yet loaded, empty cache) + fresh anvils + deploy');
  let devnet: Devnet = await timed('run 1: bringUpDevnet, cold compile', () => bringUpDevnet({ chains: CHAINS, fund, stateDir: STATE_DIR, log }));
  recordPhases('run 1', devnet);
  const first = devnet.chains;
  for (const chain of first) await checkChain(chain);
  assert.deepEqual(first[0].contracts, first[1].contracts, 'fixed deployer + order should give identical addresses on both chains');
  step('both chains have identical addresses');
  const written = JSON.parse(fs.readFileSync(devnetChainsFile(STATE_DIR), 'utf8')) as { chains: DevnetChain[] };
  assert.deepEqual(written.chains, first);
  step(`${devnetChainsFile(STATE_DIR)} written`);

  await devnet.stop();
  for (const c of CHAINS) assert.equal(await isRpcUp(`http://127.0.0.1:${c.port}`, c.chainId), false, 'anvil still up after stop()');
  step('stop() shut both anvils down');

  clearArtifactMemo();
  await timed('compile only, cached (disk cache hit)', () => loadArtifacts({ stateDir: STATE_DIR }));
  await checkCompileErrorsSurface();

  console.log('\nrun 2: cached compile + fresh anvils + deploy');
  clearArtifactMemo();
  devnet = await timed('run 2: bringUpDevnet, cached compile', () => bringUpDevnet({ chains: CHAINS, fund, stateDir: STATE_DIR, log }));
  recordPhases('run 2', devnet);
  assert.deepEqual(
    devnet.chains.map((c) => c.contracts),
    first.map((c) => c.contracts),
    'fresh chains must get the same addresses',
  );
  step('fresh redeploy produced identical addresses (deterministic)');

  console.log('\nrun 3: idempotent (same anvils, markers present)');
  const before = await Promise.all(devnet.chains.map((c) => chainFingerprint(c.rpcUrl)));
  const again = await timed('run 3: bringUpDevnet, idempotent', () => bringUpDevnet({ chains: CHAINS, fund, stateDir: STATE_DIR, log }));
  recordPhases('run 3', again);
  const direct = await timed('deployChain alone, idempotent (chain 31337)', () =>
    deployChain({ rpcUrl: devnet.chains[0].rpcUrl, chainId: 31337, name: 'Devnet', fund, stateDir: STATE_DIR }),
  );
  const after = await Promise.all(devnet.chains.map((c) => chainFingerprint(c.rpcUrl)));
  assert.deepEqual(after, before, 'idempotent run changed chain state');
  assert.deepEqual(again.chains, devnet.chains);
  assert.deepEqual(direct, devnet.chains[0]);
  step(`no-op confirmed: ${after.join(' | ')} unchanged`);
  await again.stop(); // reused anvils: must be a no-op
  assert.equal(await isRpcUp(devnet.chains[0].rpcUrl, 31337), true, 'stop() of a reusing devnet killed the anvil');
  step("stop() of the reusing devnet left the owner's anvils running");

  const marker = readMarker(STATE_DIR, 31337);
  console.log(`\nPermit2: ${marker?.permit2.method} at ${marker?.permit2.address} (canonical: ${marker?.permit2.canonical})`);
  console.log(`router init code hash matches v2-core pair: ${marker?.routerInitCodeHashMatches}`);
  console.log(`deployer ${marker?.deployer}, ${marker?.deployerNonce} txs per chain`);

  await devnet.stop();

  console.log('\ntimings');
  for (const [label, ms] of timings) console.log(`  ${label.padEnd(48)} ${ms.toFixed(0).padStart(6)} ms`);
  console.log('\nselftest passed');
}

main().catch((err: unknown) => {
  console.error('\nselftest FAILED:', err);
  process.exit(1);
});
