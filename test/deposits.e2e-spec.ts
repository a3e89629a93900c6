import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Contract, ContractFactory, HDNodeWallet, parseEther, parseUnits, toBeHex, Wallet, ZeroAddress } from 'ethers';
import { DataSource } from 'typeorm';
import { devRelayerAddresses, devTreasuryAddress } from '../scripts/local-stack/dev-keys';
import { loadArtifacts } from '../scripts/devnet/compile';
import { DepositSweeper, DepositWatcher } from '../src/modules/funding';
import { ChainRegistry } from '../src/modules/chains';
import { ScenarioChain, startScenarioChain } from './support/chain-conditions/anvil-control';
import { CONDITIONS_PORT } from './support/chain-conditions/scenario';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_STATE_DIR } from './support/test-env';
import { WebhookReceiver } from './support/webhook-receiver';
import { io, Socket } from 'socket.io-client';

/**
 * Self-serve funding on a chain of the spec's own (anvil, confirmations 3) with a USD stablecoin
 * and a Chainlink-style feed: deposits are credited once at their depth, native ones at the
 * feed's price of the crediting block, never twice whoever races, never when reorged away
 * before their depth, whatever restarts in between; credited funds are swept to the treasury.
 * Each pass is driven by hand (`DepositWatcher.pass`), the way the periodic job runs it.
 */
const CHAIN_ID = 31501;
const CONFIRMATIONS = 3;
const PORT = CONDITIONS_PORT + 70;

describe('deposits (self-serve funding)', () => {
  let chain: ScenarioChain;
  let t: TestApp;
  let db: DataSource;
  let deployer: HDNodeWallet;
  let usdc: Contract;
  let feed: Contract;
  let env: Record<string, string>;

  const watcher = (app: TestApp = t) => app.app.get(DepositWatcher);
  const pass = (app: TestApp = t) => watcher(app).pass(CHAIN_ID);

  async function account(): Promise<{ userId: string; apiKey: string; depositAddress: string }> {
    const { userId, apiKey } = await createAccount(t, 0);
    const funding = await t.http().get('/api/funding').set('api-key', apiKey).expect(200);
    return { userId, apiKey, depositAddress: funding.body.data.depositAddress };
  }

  async function payUsdc(to: string, usd: string): Promise<{ hash: string; block: number; logIndex: number }> {
    const receipt = await (await usdc.transfer(to, parseUnits(usd, 6))).wait();
    const log = receipt.logs.find((l: { address: string }) => l.address.toLowerCase() === String(usdc.target).toLowerCase());
    return { hash: receipt.hash.toLowerCase(), block: receipt.blockNumber, logIndex: log.index };
  }

  async function payNative(to: string, eth: string): Promise<{ hash: string; block: number }> {
    const receipt = await (await deployer.sendTransaction({ to, value: parseEther(eth) })).wait();
    return { hash: receipt!.hash.toLowerCase(), block: receipt!.blockNumber };
  }

  const available = async (userId: string) => BigInt((await db.query('SELECT available_micro::text AS a FROM accounts WHERE id = $1', [userId]))[0].a);
  const depositEntries = async (userId: string) =>
    db.query(`SELECT reference, available_delta::text AS amount FROM ledger_entries WHERE user_id = $1 AND kind = 'deposit' ORDER BY id`, [userId]) as Promise<Array<{ reference: string; amount: string }>>;
  const depositEvents = async (userId: string) =>
    (await db.query(`SELECT payload FROM tx_status_events WHERE user_id = $1 AND status = 'deposit' AND tx_id IS NULL ORDER BY id`, [userId])).map((r: { payload: unknown }) => r.payload);
  const mineTo = async (block: number) => {
    const head = await chain.blockNumber();
    if (block > head) await chain.mine(block - head);
  };

  beforeAll(async () => {
    chain = await startScenarioChain({ port: PORT, chainId: CHAIN_ID, fund: [...devRelayerAddresses(3, 2), devTreasuryAddress()] });
    deployer = Wallet.createRandom().connect(chain.provider);
    await chain.rpc('anvil_setBalance', [deployer.address, toBeHex(parseEther('1000'))]);
    const artifacts = await loadArtifacts({ stateDir: TEST_STATE_DIR });
    const token = await new ContractFactory(artifacts.MintableERC20.abi, artifacts.MintableERC20.bytecode, deployer).deploy('USD Coin', 'USDC', 6);
    await token.waitForDeployment();
    usdc = new Contract(await token.getAddress(), artifacts.MintableERC20.abi, deployer);
    await (await usdc.mint(deployer.address, parseUnits('1000000', 6))).wait();
    const aggregator = await new ContractFactory(artifacts.NativeUsdFeed.abi, artifacts.NativeUsdFeed.bytecode, deployer).deploy(8, 3000n * 10n ** 8n);
    await aggregator.waitForDeployment();
    feed = new Contract(await aggregator.getAddress(), artifacts.NativeUsdFeed.abi, deployer);

    const chainsFile = join(TEST_STATE_DIR, 'chains-deposits.json');
    writeFileSync(
      chainsFile,
      JSON.stringify({
        chains: [
          {
            chainId: CHAIN_ID,
            name: 'Deposits',
            rpcUrl: chain.rpcUrl,
            enabled: true,
            isTestnet: true,
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            blockExplorer: { name: 'none', url: '', apiUrl: '' },
            capabilities: { eip7702: false, flashBlocks: false, exchangeAction: false },
            contracts: { nativeUsdFeed: await feed.getAddress() },
            tokens: [{ address: await usdc.getAddress(), symbol: 'USDC', name: 'USD Coin', decimals: 6, usdStable: true }],
            pricing: { chainlink: { nativeUsd: await feed.getAddress(), maxAgeSeconds: 86_400 } },
            confirmations: CONFIRMATIONS,
          },
        ],
      }),
    );
    // api role: no queue consumers, so only the passes this spec runs touch deposits.
    env = { CHAINS_FILE: chainsFile, APP_ROLE: 'api' };
    t = await createTestApp({ env });
    db = t.app.get(DataSource);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await chain?.stop();
  });

  it('GET /api/funding: one address per account, the stablecoins and the native currency, the depth', async () => {
    const a = await account();
    const again = await t.http().get('/api/funding').set('api-key', a.apiKey).expect(200);
    expect(again.body.data).toEqual({
      depositAddress: a.depositAddress,
      chains: [
        {
          chainId: CHAIN_ID,
          tokens: [
            { address: await usdc.getAddress(), symbol: 'USDC', decimals: 6 },
            { address: ZeroAddress, symbol: 'ETH', decimals: 18 },
          ],
          confirmations: CONFIRMATIONS,
        },
      ],
    });
    const b = await account();
    expect(b.depositAddress).not.toBe(a.depositAddress);
    // Never a service key.
    const service = [...devRelayerAddresses(3, 2), devTreasuryAddress()].map((x) => x.toLowerCase());
    expect(service).not.toContain(a.depositAddress);
  });

  it('credits a USDC deposit exactly once, after its depth and not before', async () => {
    const a = await account();
    await pass();
    const paid = await payUsdc(a.depositAddress, '25');
    await pass();
    expect(await available(a.userId)).toBe(0n);
    let list = (await t.http().get('/api/deposits').set('api-key', a.apiKey).expect(200)).body.data;
    expect(list.items).toEqual([
      { chainId: CHAIN_ID, txHash: paid.hash, logIndex: paid.logIndex, token: (await usdc.getAddress()).toLowerCase(), amount: '25000000', creditedUsd: null, status: 'seen', confirmations: 0, creditedAt: null },
    ]);

    await mineTo(paid.block + CONFIRMATIONS - 1);
    await pass();
    expect(await available(a.userId)).toBe(0n);
    expect(await depositEntries(a.userId)).toEqual([]);

    await mineTo(paid.block + CONFIRMATIONS);
    for (let i = 0; i < 3; i++) await pass();
    expect(await available(a.userId)).toBe(25_000_000n);
    expect(await depositEntries(a.userId)).toEqual([{ reference: `dep:${CHAIN_ID}:${paid.hash}:${paid.logIndex}`, amount: '25000000' }]);
    expect(await depositEvents(a.userId)).toEqual([
      { event: 'account.deposit', userId: a.userId, chainId: CHAIN_ID, txHash: paid.hash, token: (await usdc.getAddress()).toLowerCase(), amount: '25000000', creditedUsd: 25, timestamp: expect.any(String) },
    ]);
    list = (await t.http().get('/api/deposits').set('api-key', a.apiKey).expect(200)).body.data;
    expect(list.items[0]).toMatchObject({ status: 'credited', creditedUsd: 25, confirmations: CONFIRMATIONS, creditedAt: expect.any(String) });
    expect(list.nextCursor).toBeNull();

    // The database itself refuses a second credit of the same transfer.
    await expect(
      db.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'deposit', 1, 0, $2)`, [a.userId, `dep:${CHAIN_ID}:${paid.hash}:${paid.logIndex}`]),
    ).rejects.toThrow(/ledger_entries_kind_reference_uq/);
    await expect(db.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'deposit', 1, 0, NULL)`, [a.userId])).rejects.toThrow(
      /ledger_entries_deposit_reference_check/,
    );
  });

  it('credits a native deposit at the feed price of the crediting block', async () => {
    const a = await account();
    await pass();
    await (await feed.updateAnswer(2500n * 10n ** 8n, { gasLimit: 300_000n })).wait();
    const paid = await payNative(a.depositAddress, '0.01');
    // The price moves after the deposit and before its crediting block, then again after it.
    await (await feed.updateAnswer(2000n * 10n ** 8n, { gasLimit: 300_000n })).wait();
    await mineTo(paid.block + CONFIRMATIONS);
    await (await feed.updateAnswer(4000n * 10n ** 8n, { gasLimit: 300_000n })).wait();
    await pass();
    expect(await depositEntries(a.userId)).toEqual([{ reference: `dep:${CHAIN_ID}:${paid.hash}:-1`, amount: '20000000' }]);
    const [row] = await db.query('SELECT native_price_usd::text AS price, credit_block::int AS block FROM deposits WHERE tx_hash = $1', [paid.hash]);
    expect(row).toEqual({ price: '2000.000000', block: paid.block + CONFIRMATIONS });
    expect((await depositEvents(a.userId))[0]).toMatchObject({ token: ZeroAddress, amount: parseEther('0.01').toString(), creditedUsd: 20 });
    await (await feed.updateAnswer(3000n * 10n ** 8n, { gasLimit: 300_000n })).wait();
  });

  it('credits once when two watcher instances race over the same deposits', async () => {
    const second = await createTestApp({ env });
    try {
      const accounts = await Promise.all([account(), account(), account()]);
      await pass();
      const paid = [];
      for (const a of accounts) paid.push(await payUsdc(a.depositAddress, '7'));
      paid.push(await payNative(accounts[0].depositAddress, '0.001'));
      await mineTo(Math.max(...paid.map((p) => p.block)) + CONFIRMATIONS);
      const results = await Promise.all([pass(), pass(second), pass(), pass(second)]);
      expect(results.reduce((n, r) => n + r.credited, 0)).toBe(4);
      expect(await available(accounts[0].userId)).toBe(7_000_000n + 3_000_000n);
      for (const a of accounts.slice(1)) expect(await available(a.userId)).toBe(7_000_000n);
      for (const a of accounts) expect(await depositEvents(a.userId)).toHaveLength(a === accounts[0] ? 2 : 1);
    } finally {
      await second.close();
    }
  });

  it('never credits a deposit reorged away before its depth', async () => {
    const a = await account();
    await pass();
    const paid = await payUsdc(a.depositAddress, '40');
    await pass();
    expect((await db.query('SELECT status FROM deposits WHERE tx_hash = $1', [paid.hash]))[0].status).toBe('seen');
    // The block holding it is replaced by an empty one; the chain then goes past the depth.
    await chain.reorg((await chain.blockNumber()) - paid.block + 1, []);
    expect(await chain.rpc('eth_getTransactionReceipt', [paid.hash])).toBeNull();
    await mineTo(paid.block + CONFIRMATIONS + 1);
    await pass();
    await pass();
    expect(await depositEntries(a.userId)).toEqual([]);
    expect(await available(a.userId)).toBe(0n);
    expect((await db.query('SELECT status FROM deposits WHERE tx_hash = $1', [paid.hash]))[0].status).toBe('orphaned');
    expect((await t.http().get('/api/deposits').set('api-key', a.apiKey).expect(200)).body.data.items).toEqual([]);
  });

  it('credits a deposit reorged before its depth into another block once, where the chain has it', async () => {
    const a = await account();
    await pass();
    // An empty block first: the reorg below replaces it too, and it must hold nothing else.
    await chain.mine(1);
    const paid = await payUsdc(a.depositAddress, '11');
    const raw = (await chain.rpc('eth_getRawTransactionByHash', [paid.hash])) as string;
    await pass();
    const depth = (await chain.blockNumber()) - paid.block + 1;
    // Re-included one block later than before.
    await chain.reorg(depth + 1, [{ raw, offset: 1 }]);
    const moved = (await chain.rpc('eth_getTransactionReceipt', [paid.hash])) as { blockNumber: string; blockHash: string };
    expect(Number(BigInt(moved.blockNumber))).toBe(paid.block);
    await mineTo(Number(BigInt(moved.blockNumber)) + CONFIRMATIONS);
    await pass();
    await pass();
    expect(await depositEntries(a.userId)).toHaveLength(1);
    expect(await available(a.userId)).toBe(11_000_000n);
    const [row] = await db.query('SELECT block_hash FROM deposits WHERE tx_hash = $1', [paid.hash]);
    expect(row.block_hash).toBe(moved.blockHash.toLowerCase());
  });

  it('loses nothing when the service restarts between seen and credited', async () => {
    const a = await account();
    await pass();
    const paid = await payUsdc(a.depositAddress, '5');
    await pass();
    expect((await db.query('SELECT status FROM deposits WHERE tx_hash = $1', [paid.hash]))[0].status).toBe('seen');
    await t.close();
    await mineTo(paid.block + CONFIRMATIONS + 2);
    t = await createTestApp({ env });
    db = t.app.get(DataSource);
    await pass();
    await pass();
    expect(await depositEntries(a.userId)).toEqual([{ reference: `dep:${CHAIN_ID}:${paid.hash}:${paid.logIndex}`, amount: '5000000' }]);
    expect(await available(a.userId)).toBe(5_000_000n);
  });

  it("sweeps credited deposits to the treasury, the ERC-20 transfer paid with the treasury's gas", async () => {
    const a = await account();
    const b = await account();
    await pass();
    const paid = await payUsdc(a.depositAddress, '30');
    const native = await payNative(b.depositAddress, '0.02');
    await mineTo(Math.max(paid.block, native.block) + CONFIRMATIONS);
    await pass();
    expect(await available(a.userId)).toBe(30_000_000n);
    const treasury = devTreasuryAddress();
    const usdcBefore = (await usdc.balanceOf(treasury)) as bigint;

    const chainDef = t.app.get(ChainRegistry).get(CHAIN_ID);
    const swept = await t.app.get(DepositSweeper).sweepChain(chainDef);
    const sweptA = swept.find((s) => s.address === a.depositAddress);
    const sweptB = swept.find((s) => s.address === b.depositAddress);
    // a: the treasury's gas top-up, then the USDC transfer by the deposit key (then any gas left over).
    const [topUp, tokenTransfer] = await Promise.all(sweptA!.hashes.slice(0, 2).map((h) => chain.provider.getTransaction(h)));
    expect(topUp!.from.toLowerCase()).toBe(treasury.toLowerCase());
    expect(topUp!.to!.toLowerCase()).toBe(a.depositAddress);
    expect(tokenTransfer!.from.toLowerCase()).toBe(a.depositAddress);
    expect(tokenTransfer!.to!.toLowerCase()).toBe((await usdc.getAddress()).toLowerCase());
    expect((await usdc.balanceOf(a.depositAddress)) as bigint).toBe(0n);
    // Every swept address's USDC went to the treasury (earlier specs' deposits too).
    expect((await usdc.balanceOf(treasury)) as bigint).toBeGreaterThanOrEqual(usdcBefore + 30_000_000n);
    // b: its native balance, less the transfer's own gas.
    expect(sweptB!.hashes).toHaveLength(1);
    const nativeSweep = await chain.provider.getTransaction(sweptB!.hashes[0]);
    expect(nativeSweep!.from.toLowerCase()).toBe(b.depositAddress);
    expect(nativeSweep!.to!.toLowerCase()).toBe(treasury.toLowerCase());
    expect(nativeSweep!.value).toBe(parseEther('0.02') - 21_000n * nativeSweep!.gasPrice);
    expect(await chain.provider.getBalance(b.depositAddress)).toBeLessThan(21_000n * nativeSweep!.gasPrice);
    expect((await chain.provider.getTransactionReceipt(sweptB!.hashes[0]))!.status).toBe(1);

    const rows = await db.query('SELECT swept_at IS NOT NULL AS swept, swept_tx_hash FROM deposits WHERE address = ANY($1)', [[a.depositAddress, b.depositAddress]]);
    expect(rows.map((r: { swept: boolean }) => r.swept)).toEqual([true, true]);
    // The treasury's gas sent to a's address is not a deposit: nothing more is credited.
    await mineTo((await chain.blockNumber()) + CONFIRMATIONS);
    await pass();
    expect(await available(a.userId)).toBe(30_000_000n);
    expect(await depositEntries(a.userId)).toHaveLength(1);
    // Nothing left to sweep: a second pass sends nothing for them.
    const again = await t.app.get(DepositSweeper).sweepChain(chainDef);
    expect(again.filter((s) => s.address === a.depositAddress || s.address === b.depositAddress)).toEqual([]);
  });

  it('announces account.deposit to the account\'s webhooks and Socket.IO', async () => {
    // A full app (worker role included) so the webhook dispatcher runs; the pass is still driven here.
    const full = await createTestApp({ env: { ...env, APP_ROLE: 'all' } });
    const receiver = await WebhookReceiver.start();
    let socket: Socket | undefined;
    try {
      await full.app.listen(0);
      const a = await account();
      await full.http().post('/api/user/register-webhooks').set('api-key', a.apiKey).send([{ url: receiver.url('/events'), authType: 'none' }]).expect(200);
      const url = `http://127.0.0.1:${(full.app.getHttpServer().address() as AddressInfo).port}`;
      socket = io(`${url}/tx`, { path: '/socket.io', auth: { apiKey: a.apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
      const pushed: Array<Record<string, unknown>> = [];
      socket.on('account.deposit', (e: Record<string, unknown>) => pushed.push(e));
      expect(await socket.timeout(10_000).emitWithAck('subscribe', { all: true })).toEqual({ ok: true });

      await pass(full);
      const paid = await payUsdc(a.depositAddress, '12.5');
      await mineTo(paid.block + CONFIRMATIONS);
      await pass(full);
      const deposits = () => receiver.calls.filter((c) => c.body.event === 'account.deposit');
      await receiver.waitFor(() => deposits().length === 1);
      const expected = { event: 'account.deposit', userId: a.userId, chainId: CHAIN_ID, txHash: paid.hash, token: (await usdc.getAddress()).toLowerCase(), amount: '12500000', creditedUsd: 12.5, timestamp: expect.stringMatching(/Z$/) };
      expect(deposits()[0].body).toEqual(expected);
      for (let i = 0; i < 40 && pushed.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(pushed).toEqual([expected]);
    } finally {
      socket?.disconnect();
      await receiver.close();
      await full.close();
    }
  });

  it('refuses without credentials and with a bad cursor or limit', async () => {
    const a = await account();
    expect((await t.http().get('/api/funding').expect(401)).body.error.code).toBe('AUTH_001');
    expect((await t.http().get('/api/deposits').expect(401)).body.error.code).toBe('AUTH_001');
    expect((await t.http().get('/api/deposits').query({ cursor: 'abc' }).set('api-key', a.apiKey).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await t.http().get('/api/deposits').query({ limit: 0 }).set('api-key', a.apiKey).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await t.http().get('/api/deposits').query({ limit: 201 }).set('api-key', a.apiKey).expect(400)).body.error.code).toBe('VALIDATION_001');
  });

  it("never shows another account's deposits", async () => {
    const a = await account();
    const b = await account();
    await pass();
    await payUsdc(a.depositAddress, '3');
    await pass();
    expect((await t.http().get('/api/deposits').set('api-key', a.apiKey).expect(200)).body.data.items).toHaveLength(1);
    expect((await t.http().get('/api/deposits').set('api-key', b.apiKey).expect(200)).body.data.items).toEqual([]);
    // A cursor does not cross accounts either: it only pages the caller's own rows.
    const [{ id }] = await db.query('SELECT id::text FROM deposits WHERE user_id = $1', [a.userId]);
    expect((await t.http().get('/api/deposits').query({ cursor: String(BigInt(id) + 1n) }).set('api-key', b.apiKey).expect(200)).body.data.items).toEqual([]);
  });
});
