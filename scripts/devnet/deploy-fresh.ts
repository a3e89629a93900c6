import { Interface, JsonRpcProvider, concat, parseEther, parseUnits } from 'ethers';
import { ANVIL_TEST_ACCOUNTS, DEPLOYER_ADDRESS, DEPLOYER_PRIVATE_KEY } from './accounts';
import type { ArtifactSet, ContractArtifact } from './compile';
import { type NpmArtifacts, pairInitCodeHash } from './npm-artifacts';
import { deployGaslessSettler } from './deploy-gasless';
import { deployBridgeSpoke } from './deploy-bridge';
import { deployMarketData } from './deploy-market';
import { deployExtraPools } from './extra-pools';
import { deployV3, planV3Pools } from './deploy-v3';
import { type Permit2Placement, deployPermit2 } from './permit2';
import { DEPLOYER_ETH, DEX_CONTRACT_KEYS, type DexId, MINTABLE_TOKENS, POOLS, SECONDS_PER_YEAR, TEST_ACCOUNT_GRANTS, VAULT_VENUES, WETH_TOKEN, poolKey, vaultKey } from './plan';
import { GAS, TxSender, hexQuantity } from './tx-sender';
import type { DevnetChain, DevnetToken } from './types';
import { addressesWithoutCode, checkPairRegistered, computePairAddress } from './verify';

export interface FreshDeployment {
  chain: DevnetChain;
  permit2: Permit2Placement;
  deployerNonce: number;
}

const DEX_ORDER: readonly DexId[] = ['uniswap-v2', 'sushiswap-v2'];
const PERMIT2_IFACE = new Interface(['function DOMAIN_SEPARATOR() view returns (bytes32)']);

/**
 * Sends the whole deployment from the fixed deployer in a fixed order (so addresses are the same
 * on every fresh chain), without waiting for receipts in between; see TxSender.
 */
export async function deployFresh(
  provider: JsonRpcProvider,
  target: { chainId: number; name: string; rpcUrl: string },
  artifacts: ArtifactSet,
  npm: NpmArtifacts,
  extraPools = 0,
): Promise<FreshDeployment> {
  const tokenArtifact = requireArtifact(artifacts, 'MintableERC20');
  const tokenIface = new Interface(tokenArtifact.abi);
  const wethIface = new Interface(npm.weth9.abi);
  const factoryIface = new Interface(npm.uniswapV2Factory.abi);
  const routerIface = new Interface(npm.uniswapV2Router02.abi);
  const pairIface = new Interface(npm.uniswapV2Pair.abi);
  const initCodeHash = pairInitCodeHash(npm);

  await provider.send('anvil_setBalance', [DEPLOYER_ADDRESS, hexQuantity(parseEther(DEPLOYER_ETH))]);
  const sender = await TxSender.create(provider, DEPLOYER_PRIVATE_KEY, target.chainId);
  const contracts: Record<string, string> = {};

  // 1. WETH + mintable tokens.
  contracts.weth = await sender.deploy('deploy WETH9', npm.weth9.bytecode);
  const tokens: DevnetToken[] = [{ ...WETH_TOKEN, address: contracts.weth }];
  for (const spec of MINTABLE_TOKENS) {
    const initCode = concat([tokenArtifact.bytecode, tokenIface.encodeDeploy([spec.name, spec.symbol, spec.decimals])]);
    tokens.push({ ...spec, address: await sender.deploy(`deploy ${spec.symbol}`, initCode) });
  }
  const token = (symbol: string): DevnetToken => {
    const found = tokens.find((t) => t.symbol === symbol);
    if (!found) throw new Error(`plan references unknown token ${symbol}`);
    return found;
  };

  // 2. Two independent Uniswap V2 deployments (the second plays SushiSwap): factory + Router02(factory, WETH).
  for (const dex of DEX_ORDER) {
    const keys = DEX_CONTRACT_KEYS[dex];
    contracts[keys.factory] = await sender.deploy(`deploy ${dex} factory`, concat([npm.uniswapV2Factory.bytecode, factoryIface.encodeDeploy([DEPLOYER_ADDRESS])]));
    contracts[keys.router] = await sender.deploy(
      `deploy ${dex} router`,
      concat([npm.uniswapV2Router02.bytecode, routerIface.encodeDeploy([contracts[keys.factory], contracts.weth])]),
    );
  }

  // 3. Permit2 (canonical address via CREATE2 when possible).
  const permit2 = await deployPermit2(provider, sender, npm.permit2.bytecode);
  contracts.permit2 = permit2.address;

  // 4. One wrap covers every WETH amount handed out below (V2 and V3 pools + test accounts).
  const v3Pools = planV3Pools(token);
  const wethNeeded =
    POOLS.reduce((sum, p) => sum + (p.tokenA === 'WETH' ? parseEther(p.amountA) : 0n) + (p.tokenB === 'WETH' ? parseEther(p.amountB) : 0n), 0n) +
    v3Pools.reduce((sum, p) => sum + (p.token0.symbol === 'WETH' ? p.need0 : 0n) + (p.token1.symbol === 'WETH' ? p.need1 : 0n), 0n) +
    parseEther(TEST_ACCOUNT_GRANTS.WETH ?? '0') * BigInt(ANVIL_TEST_ACCOUNTS.length);
  await sender.send({ label: 'wrap WETH', to: contracts.weth, data: wethIface.encodeFunctionData('deposit'), value: wethNeeded, gasLimit: GAS.call });

  // Tokens reach their destination in one tx: test tokens are minted straight to it, WETH is transferred.
  const give = async (label: string, to: string, symbol: string, amount: string): Promise<void> => {
    const t = token(symbol);
    const units = parseUnits(amount, t.decimals);
    const data = symbol === 'WETH' ? wethIface.encodeFunctionData('transfer', [to, units]) : tokenIface.encodeFunctionData('mint', [to, units]);
    await sender.send({ label, to: t.address, data, gasLimit: GAS.call });
  };

  // 5. Pools. The Router02 build's hard-coded init code hash DOES match keccak256(v2-core
  //    UniswapV2Pair creation code) (see routerMatchesPairInitCode), so router quotes/swaps work.
  //    Liquidity is still added by funding the pair and calling pair.mint directly: it needs no
  //    approvals (fewer txs) and lets us predict the pair address without waiting for createPair.
  for (const pool of POOLS) {
    const key = poolKey(pool);
    const factory = contracts[DEX_CONTRACT_KEYS[pool.dex].factory];
    const a = token(pool.tokenA);
    const b = token(pool.tokenB);
    await sender.send({ label: `createPair ${key}`, to: factory, data: factoryIface.encodeFunctionData('createPair', [a.address, b.address]), gasLimit: GAS.createPair });
    const pair = computePairAddress(factory, a.address, b.address, initCodeHash);
    contracts[key] = pair;
    await give(`fund ${key} ${pool.tokenA}`, pair, pool.tokenA, pool.amountA);
    await give(`fund ${key} ${pool.tokenB}`, pair, pool.tokenB, pool.amountB);
    // LP tokens go to the deployer; nobody needs to withdraw them.
    await sender.send({ label: `mint LP ${key}`, to: pair, data: pairIface.encodeFunctionData('mint', [DEPLOYER_ADDRESS]), gasLimit: GAS.call });
  }

  // 5b. Uniswap V3: factory, pools of several fee tiers, concentrated positions.
  await deployV3(sender, npm, requireArtifact(artifacts, 'V3LiquidityHelper'), contracts, v3Pools, async (label, to, t, units) => {
    const data = t.symbol === 'WETH' ? wethIface.encodeFunctionData('transfer', [to, units]) : tokenIface.encodeFunctionData('mint', [to, units]);
    await sender.send({ label, to: t.address, data, gasLimit: GAS.call });
  });

  // 6. Test balances for anvil's default accounts 0..4.
  for (const account of ANVIL_TEST_ACCOUNTS) {
    for (const [symbol, amount] of Object.entries(TEST_ACCOUNT_GRANTS)) {
      await give(`grant ${symbol} to ${account.address}`, account.address, symbol, amount);
    }
  }

  // 7. The EIP-7702 settlement delegate and the ERC-4626 venues, seeded by the deployer.
  contracts.settlementDelegate = await sender.deploy('deploy SettlementDelegate', requireArtifact(artifacts, 'SettlementDelegate').bytecode);
  const vaultArtifact = requireArtifact(artifacts, 'YieldVault');
  const vaultIface = new Interface(vaultArtifact.abi);
  for (const venue of VAULT_VENUES) {
    const asset = token(venue.asset);
    const seed = parseUnits(venue.seed, asset.decimals);
    // Basis points of a percent keep fractional APYs exact in integer maths.
    const yieldPerSecond = (seed * BigInt(Math.round(venue.apyPercent * 100))) / 10_000n / SECONDS_PER_YEAR;
    const args = [asset.address, venue.name, `rv-${venue.venueId}`, yieldPerSecond, venue.full ? seed : 0n, DEPLOYER_ADDRESS];
    const vault = await sender.deploy(`deploy vault ${venue.venueId}`, concat([vaultArtifact.bytecode, vaultIface.encodeDeploy(args)]));
    contracts[vaultKey(venue.venueId)] = vault;
    await sender.send({ label: `seed ${venue.venueId}: mint`, to: asset.address, data: tokenIface.encodeFunctionData('mint', [DEPLOYER_ADDRESS, seed]), gasLimit: GAS.call });
    await sender.send({ label: `seed ${venue.venueId}: approve`, to: asset.address, data: tokenIface.encodeFunctionData('approve', [vault, seed]), gasLimit: GAS.call });
    await sender.send({ label: `seed ${venue.venueId}: deposit`, to: vault, data: vaultIface.encodeFunctionData('deposit', [seed, DEPLOYER_ADDRESS]), gasLimit: GAS.call });
    if (venue.paused) await sender.send({ label: `pause ${venue.venueId}`, to: vault, data: vaultIface.encodeFunctionData('pause'), gasLimit: GAS.call });
  }

  // 8. The swap executor (routes of the swap module run through it).
  const executor = requireArtifact(artifacts, 'SwapExecutor');
  contracts.swapExecutor = await sender.deploy('deploy SwapExecutor', concat([executor.bytecode, new Interface(executor.abi).encodeDeploy([contracts.weth])]));

  // 9. The gasless settler: the Permit2 spender of gasless quotes, swapping through the executor.
  await deployGaslessSettler(sender, artifacts, contracts);

  // 10. Market data: the native USD feed (Chainlink's MockV3Aggregator) and Uniswap's TickLens.
  await deployMarketData(sender, artifacts, npm, contracts);

  // 11. LOCAL_EXTRA_POOLS: more pools over extra tokens, for scale runs.
  await deployExtraPools(sender, artifacts, npm, contracts, tokens, extraPools);

  // 12. The bridge spoke of the cross-chain swaps, trusting the service's filler key, with inventory.
  await deployBridgeSpoke(sender, artifacts, contracts, async (to, symbol, amount) => give(`bridge inventory ${symbol}`, to, symbol, amount));

  await sender.confirmAll();
  const chain: DevnetChain = { chainId: target.chainId, name: target.name, rpcUrl: target.rpcUrl, contracts, tokens, ...(extraPools > 0 ? { extraPools } : {}) };
  await verifyFreshDeployment(provider, chain, permit2);
  return { chain, permit2, deployerNonce: sender.nextNonce };
}

/** Cheap post-conditions (all reads, batched): code everywhere, pairs where we predicted them, Permit2 answering. */
async function verifyFreshDeployment(provider: JsonRpcProvider, chain: DevnetChain, permit2: Permit2Placement): Promise<void> {
  const missing = await addressesWithoutCode(provider, chain);
  if (missing.length > 0) throw new Error(`devnet deployment incomplete on chain ${chain.chainId}; no code at: ${missing.join(', ')}`);
  const address = (symbol: string): string => chain.tokens.find((t) => t.symbol === symbol)?.address ?? '';
  await Promise.all([
    ...POOLS.map((pool) =>
      checkPairRegistered(provider, chain.contracts[DEX_CONTRACT_KEYS[pool.dex].factory], address(pool.tokenA), address(pool.tokenB), chain.contracts[poolKey(pool)]),
    ),
    provider.call({ to: permit2.address, data: PERMIT2_IFACE.encodeFunctionData('DOMAIN_SEPARATOR') }).then((raw) => {
      if (raw.length !== 66) throw new Error(`Permit2 at ${permit2.address} returned ${raw} for DOMAIN_SEPARATOR()`);
    }),
  ]);
}

function requireArtifact(artifacts: ArtifactSet, name: string): ContractArtifact {
  const artifact = artifacts[name];
  if (!artifact || artifact.bytecode === '0x') throw new Error(`compiled artifact ${name} missing; is contracts/ complete?`);
  return artifact;
}
