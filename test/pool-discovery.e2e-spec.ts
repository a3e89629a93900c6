import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, ContractFactory, type HDNodeWallet, id, Interface, parseEther, parseUnits, toBeHex, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { loadArtifacts } from '../scripts/devnet/compile';
import { ChainReader } from '../src/modules/swap/indexer/chain-reader';
import { PoolIndexer } from '../src/modules/swap/indexer/pool-indexer.service';
import { erc20, provider, testChain, token } from './support/chain-fixtures';
import { type RpcProxy, startRpcProxy } from './support/chain-conditions/rpc-proxy';
import { createAccount, createTestApp, type TestApp } from './support/test-app';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';

const chain = testChain(31337);
const rpc = provider(chain);
const FACTORY = new Interface(['function createPair(address, address) returns (address)', 'function getPair(address, address) view returns (address)']);
const PAIR = new Interface(['function mint(address to) returns (uint256)']);

/** Blocks per eth_getLogs the chains file allows, and what the proxy's "provider" accepts (a refused range is retried smaller). */
const CHAINS_FILE_RANGE = 100;
const PROVIDER_RANGE = 50;

describe('pool discovery from factory creation events, kept in PostgreSQL', () => {
  let proxy: RpcProxy;
  let chainsFile: string;
  let listed: string;
  let wallet: HDNodeWallet;
  let run = 0;
  const apps: TestApp[] = [];

  /** An app with its own Redis prefix: no pool copy in Redis, so only PostgreSQL can make it resume. */
  const start = async (): Promise<TestApp> => {
    run += 1;
    const t = await createTestApp({ env: { CHAINS_FILE: chainsFile, REDIS_PREFIX: `relay-test-discovery-${process.pid}-${run}`, SWAP_POOL_REFRESH_MS: '100' } });
    apps.push(t);
    return t;
  };

  beforeAll(async () => {
    proxy = await startRpcProxy(chain.rpcUrl, 0, { maxLogRange: PROVIDER_RANGE });
    wallet = Wallet.createRandom().connect(rpc);
    await rpc.send('anvil_setBalance', [wallet.address, toBeHex(parseEther('10'))]);
    const artifact = (await loadArtifacts({ stateDir: TEST_STATE_DIR })).MintableERC20;
    const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy('Discovered Token', 'DSC', 18);
    await deployed.waitForDeployment();
    listed = await deployed.getAddress();

    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
    const c = file.chains.find((x: { chainId: number }) => x.chainId === 31337);
    c.rpcUrl = proxy.url;
    c.getLogsMaxRange = CHAINS_FILE_RANGE;
    c.dexes = c.dexes.map((d: object) => ({ ...d, fromBlock: 0 }));
    c.tokens.push({ address: listed, symbol: 'DSC', name: 'Discovered Token', decimals: 18 });
    chainsFile = join(TEST_STATE_DIR, 'chains-discovery.json');
    writeFileSync(chainsFile, JSON.stringify(file));
    // What an earlier run of this spec left: discovery starts from fromBlock.
    const db = new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_test' });
    await db.initialize();
    await db.query('DELETE FROM swap_pools WHERE chain_id = 31337');
    await db.query('DELETE FROM swap_dex_cursors WHERE chain_id = 31337');
    await db.destroy();
  });

  afterAll(async () => {
    for (const t of apps) await t.close().catch(() => undefined);
    await proxy.close();
    rpc.destroy();
  });

  /**
   * The pool indexer's eth_getLogs calls (their topic0 lists the V3 factory's PoolCreated): the
   * deposit watcher and the bridge filler read their own logs through the same provider.
   */
  const POOL_CREATED_TOPIC = id('PoolCreated(address,address,uint24,int24,address)');
  const poolLogReads = () => proxy.stats.getLogs.filter((r) => Array.isArray(r.topic0) && r.topic0.includes(POOL_CREATED_TOPIC));

  it('discovers every pool from the factories in ranges the provider accepts, then a restart reads only the blocks since', async () => {
    const t1 = await start();
    const market1 = await t1.app.get(PoolIndexer).market(31337);
    const head1 = market1.block;
    // Every pool the local stack deployed (V2 on both DEXes, V3 of every tier) was found from the logs.
    const deployed = Object.entries(chain.contracts).filter(([k]) => k.startsWith('pool:') || k.startsWith('v3pool:')).map(([, a]) => a.toLowerCase());
    expect(deployed.length).toBeGreaterThan(10);
    for (const address of deployed) expect(market1.pools.has(address)).toBe(true);
    const db = t1.app.get(DataSource);
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM swap_pools WHERE chain_id = 31337');
    expect(n).toBeGreaterThanOrEqual(deployed.length);
    const cursors = await db.query('SELECT dex_key, last_block::int AS b FROM swap_dex_cursors WHERE chain_id = 31337 ORDER BY dex_key');
    expect(cursors.map((c: { dex_key: string }) => c.dex_key)).toEqual(['sushiswap-v2', 'uniswap-v2', 'uniswap-v3']);
    for (const c of cursors) expect(c.b).toBeGreaterThanOrEqual(head1);
    // Ranges of CHAINS_FILE_RANGE were refused, then read in halves; together they cover 0..head once.
    const ranges = poolLogReads().filter((r) => !r.refused && r.fromBlock <= head1);
    expect(poolLogReads().some((r) => r.refused && r.toBlock - r.fromBlock + 1 === CHAINS_FILE_RANGE)).toBe(true);
    expect(Math.max(...ranges.map((r) => r.toBlock - r.fromBlock + 1))).toBeLessThanOrEqual(PROVIDER_RANGE);
    const discovery = ranges.filter((r) => r.toBlock <= head1);
    expect(discovery[0].fromBlock).toBe(0);
    expect(discovery.length).toBeGreaterThanOrEqual(Math.ceil(head1 / PROVIDER_RANGE));
    // Quotes route over the discovered pools.
    const { apiKey } = await createAccount(t1);
    const q = await t1.http().get('/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: wallet.address, fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: parseEther('1').toString() }).expect(200);
    expect(q.body.data.length).toBeGreaterThan(0);
    await t1.close();

    for (let i = 0; i < 3; i++) await rpc.send('evm_mine', []);
    const before = poolLogReads().length;
    const callsBefore = proxy.stats.methods.eth_call ?? 0;
    const t2 = await start();
    const market2 = await t2.app.get(PoolIndexer).market(31337);
    const restart = poolLogReads().slice(before);
    // V3 ticks through TickLens for the words the pools' Mint events touched: no bitmap scan (the
    // 0.01% DAI/USDC pool alone has ~6,900 bitmap words), yet the same ticks as a full scan.
    expect((proxy.stats.methods.eth_call ?? 0) - callsBefore).toBeLessThan(1000);
    const full = new ChainReader(rpc);
    for (const [key, address] of Object.entries(chain.contracts).filter(([k]) => k.startsWith('v3pool:'))) {
      const pool = market2.pools.get(address.toLowerCase());
      expect({ key, kind: pool?.kind }).toEqual({ key, kind: 'v3' });
      expect({ key, ticks: pool?.kind === 'v3' ? pool.ticks : null }).toEqual({ key, ticks: (await full.v3State(address.toLowerCase())).ticks });
    }
    // Only the blocks after the last indexed one: one range, not the chain's history again.
    expect(restart.length).toBeGreaterThan(0);
    expect(restart.length).toBeLessThanOrEqual(2);
    for (const r of restart) expect(r.fromBlock).toBeGreaterThan(head1);
    expect(new Set(market2.pools.keys())).toEqual(new Set(market1.pools.keys()));
  });

  it('a pool created after startup becomes routable within two blocks', async () => {
    const t = apps[apps.length - 1];
    const { apiKey } = await createAccount(t);
    const usdc = token(chain, 'USDC');
    const quote = () => t.http().get('/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: wallet.address, fromToken: listed, toToken: usdc, amount: parseEther('1').toString() }).expect(200);
    expect((await quote()).body.data).toEqual([]);

    const factory = new Contract(chain.contracts.uniswapV2Factory, FACTORY, wallet);
    await (await factory.createPair(listed, usdc)).wait();
    const pair = String(await factory.getPair(listed, usdc));
    await (await new Contract(listed, erc20, wallet).mint(pair, parseEther('1000'))).wait();
    await (await new Contract(usdc, erc20, wallet).mint(pair, parseUnits('3000', 6))).wait();
    const minted = await (await new Contract(pair, PAIR, wallet).mint(wallet.address)).wait();
    const fundedAt = minted!.blockNumber;

    let routes: unknown[] = [];
    const deadline = Date.now() + 15_000;
    while (routes.length === 0 && Date.now() < deadline) {
      routes = (await quote()).body.data;
      if (routes.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(routes.length).toBeGreaterThan(0);
    expect(await rpc.getBlockNumber()).toBeLessThanOrEqual(fundedAt + 2);
    const [row] = await t.app.get(DataSource).query('SELECT dex_key, token0, token1 FROM swap_pools WHERE chain_id = 31337 AND address = $1', [pair.toLowerCase()]);
    expect(row).toMatchObject({ dex_key: 'uniswap-v2' });
  });

  it("a discovered pool's token outside the catalog is a route hop only: not listed, not quotable", async () => {
    const t = apps[apps.length - 1];
    const { apiKey } = await createAccount(t);
    const artifact = (await loadArtifacts({ stateDir: TEST_STATE_DIR })).MintableERC20;
    const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy('Stranger', 'STR', 18);
    await deployed.waitForDeployment();
    const stranger = (await deployed.getAddress()).toLowerCase();
    const usdc = token(chain, 'USDC');
    const factory = new Contract(chain.contracts.uniswapV2Factory, FACTORY, wallet);
    await (await factory.createPair(stranger, usdc)).wait();
    const pair = String(await factory.getPair(stranger, usdc)).toLowerCase();
    const indexer = t.app.get(PoolIndexer);
    const deadline = Date.now() + 15_000;
    while (!indexer.peek(31337)?.pools.has(pair) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    // Discovered, with its token's metadata stored...
    expect(indexer.peek(31337)?.tokens.get(stranger)?.symbol).toBe('STR');
    const [stored] = await t.app.get(DataSource).query('SELECT symbol FROM swap_tokens WHERE chain_id = 31337 AND address = $1', [stranger]);
    expect(stored).toEqual({ symbol: 'STR' });
    // ...but the catalog is the chains file's.
    const listed = (await t.http().get('/tokens').set('api-key', apiKey).query({ chain_id: 31337 }).expect(200)).body.data as Array<{ address: string }>;
    expect(listed.some((x) => x.address.toLowerCase() === stranger)).toBe(false);
    const q = await t.http().get('/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: wallet.address, fromToken: stranger, toToken: usdc, amount: '1000' }).expect(200);
    expect(q.body.data).toEqual([]);
  });
});
