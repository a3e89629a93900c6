import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { HDNodeWallet, Mnemonic, parseEther, toQuantity, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { DEV_AUTH_MNEMONIC } from '../scripts/local-stack/dev-keys';
import { QUEUES } from '../src/queue/queue-names';
import { erc20, mintCall, provider, randomAddress, testChain, TestChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx, waitForTxs } from './support/wait-for-tx';

/**
 * Derived senders belong to one account (issue 23): the same derivationPath on two accounts is two
 * addresses, on one account always the same one (across restarts), and a derived transaction is
 * resent, replaced and cancelled from its own key even after that key left the (tiny) cache.
 */
describe('derived senders per account', () => {
  // One key in the cache: every other derivation evicts the one before.
  const env = { DERIVED_SIGNER_CACHE_SIZE: '1' };
  let t: TestApp;
  const fast = testChain(31337);
  const slow = testChain(84532);
  const usdc = token(fast, 'USDC');

  beforeAll(async () => {
    t = await createTestApp({ env });
  });
  afterEach(async () => {
    await provider(slow).send('evm_setAutomine', [true]);
  });
  afterAll(() => t.close());

  const newPath = () => `m/44'/60'/0'/0/${1_000_000 + Math.floor(Math.random() * 1e9)}`;
  const derivedTx = (path: string, callData = mintCall(randomAddress()), chainId = 31337, to = usdc) => ({ chainId, to, callData, isAuthenticatedTx: true, derivationPath: path });
  const sync = (apiKey: string, tx: Record<string, unknown>) => t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 30_000 });
  const quote = (apiKey: string, tx: Record<string, unknown>) => t.http().post('/api/quote').set('api-key', apiKey).send(tx);
  const fromOf = async (chain: TestChain, hash: string) => (await provider(chain).getTransaction(hash))!.from;
  /** Sends a derived transaction through submit-tx-sync and answers the on-chain `from`. */
  const sentFrom = async (apiKey: string, path: string) => {
    const res = await sync(apiKey, derivedTx(path)).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    return fromOf(fast, res.body.data.executionTxHash);
  };
  /** Mints test USDC to `to` from a wallet of its own (no nonce shared with anything else). */
  const mintTo = async (to: string, amount: bigint) => {
    const minter = Wallet.createRandom().connect(provider(fast));
    await provider(fast).send('anvil_setBalance', [minter.address, toQuantity(parseEther('1'))]);
    await (await minter.sendTransaction({ to: usdc, data: mintCall(to, amount) })).wait();
  };
  const legacyAddress = (path: string) => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_AUTH_MNEMONIC), path).address;

  it('a derived sender funded while its previous transaction waits in the pool is topped up for both', async () => {
    // The second transaction's top-up check ran after the first one's top-up was mined but before
    // the first was: a check of its own worst case alone saw enough, so the key came up short once
    // the first was mined, and resends never top up (it failed not_sent, the transfer's gas charged).
    const { apiKey } = await createAccount(t, 50);
    const db = t.app.get(DataSource);
    const rpc = provider(slow);
    const usdcSlow = token(slow, 'USDC');
    const path = newPath();
    const submitSlow = () => t.http().post('/api/submit-tx').set('api-key', apiKey).send(derivedTx(path, mintCall(randomAddress()), 84532, usdcSlow)).expect(201).then((r) => r.body.data.txId as string);
    await rpc.send('evm_setAutomine', [false]);
    await rpc.send('evm_setIntervalMining', [1]);
    try {
      const first = await submitSlow();
      // Broadcast: its top-up is mined, the transaction itself waits for the next block.
      const deadline = Date.now() + 15_000;
      let broadcast = false;
      while (!broadcast && Date.now() < deadline) {
        broadcast = (await db.query(`SELECT 1 FROM relay_broadcasts WHERE tx_id = $1 AND broadcast_at IS NOT NULL`, [first])).length > 0;
        if (!broadcast) await new Promise((r) => setTimeout(r, 20));
      }
      expect(broadcast).toBe(true);
      const second = await submitSlow();
      const rows = await waitForTxs(t, [first, second], { timeoutMs: 30_000 });
      expect(rows.map((r) => [r.status, r.failureReason])).toEqual([
        ['EXECUTED', null],
        ['EXECUTED', null],
      ]);
    } finally {
      await rpc.send('evm_setIntervalMining', [0]);
    }
  });

  it('two accounts, one path: two senders, so one team cannot quote or move what the other\'s address holds', async () => {
    const a = await createAccount(t, 50);
    const b = await createAccount(t, 50);
    const path = newPath();
    const fromA = await sentFrom(a.apiKey, path);
    const fromB = await sentFrom(b.apiKey, path);
    expect(fromA).not.toBe(fromB);
    // Neither is the path's old global key.
    expect([fromA, fromB]).not.toContain(legacyAddress(path));
    // A's address holds 100 USDC: A may move them; B, quoting the very same transaction, simulates from its own empty address.
    await mintTo(fromA, 100n);
    const transfer = derivedTx(path, erc20.encodeFunctionData('transfer', [randomAddress(), 100n]));
    await quote(a.apiKey, transfer).expect(201);
    const refused = await quote(b.apiKey, transfer).expect(500);
    expect(refused.body.error.code).toBe('TRANSACTION_004');
    expect(refused.body.error.message).toMatch(/ERC20InsufficientBalance/);
  });

  it('the same path on one account keeps its address across an app restart (and two accounts stay apart)', async () => {
    const a = await createAccount(t, 50);
    const b = await createAccount(t, 50);
    const path = newPath();
    const before = [await sentFrom(a.apiKey, path), await sentFrom(b.apiKey, path)];
    await t.close();
    t = await createTestApp({ env });
    const after = [await sentFrom(a.apiKey, path), await sentFrom(b.apiKey, path)];
    expect(after).toEqual(before);
    expect(before[0]).not.toBe(before[1]);
  });

  it('a derived transaction is sped up and cancelled from its own key after that key left the cache', async () => {
    const { apiKey } = await createAccount(t, 50);
    const other = await createAccount(t, 50);
    const db = t.app.get(DataSource);
    const rpc = provider(slow);
    const usdcSlow = token(slow, 'USDC');
    const path = newPath();
    // Learn the sender (automine on: its top-up is mined), then fund it so no top-up is needed while blocks wait.
    const first = await sync(apiKey, derivedTx(path, mintCall(randomAddress()), 84532, usdcSlow)).expect(200);
    const sender = await fromOf(slow, first.body.data.executionTxHash);
    await rpc.send('anvil_setBalance', [sender, toQuantity(parseEther('10'))]);
    await rpc.send('evm_setAutomine', [false]);
    const id = (await t.http().post('/api/submit-tx').set('api-key', apiKey).send(derivedTx(path, mintCall(randomAddress()), 84532, usdcSlow)).expect(201)).body.data.txId as string;
    const deadline = Date.now() + 15_000;
    let original: string | undefined;
    while (!original && Date.now() < deadline) {
      [original] = (await db.query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1 AND broadcast_at IS NOT NULL`, [id])).map((r: { hash: string }) => r.hash);
      if (!original) await new Promise((r) => setTimeout(r, 50));
    }
    expect(original).toBeDefined();
    const evict = () => quote(other.apiKey, derivedTx(newPath())).expect(201);
    await evict();
    const sped = await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ bumpPercent: 50 }).expect(200);
    const replacement = sped.body.data.executionTxHash as string;
    expect(replacement).not.toBe(original);
    expect(await fromOf(slow, replacement)).toBe(sender);
    await evict();
    await t.http().post(`/api/tx/${id}/cancel`).set('api-key', apiKey).expect(200);
    const [cancel] = await db.query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1 AND kind = 'cancel'`, [id]);
    expect(cancel).toBeDefined();
    expect(await fromOf(slow, cancel.hash)).toBe(sender);
    await rpc.send('evm_mine', []);
    const done = await waitForTx(t, id, { status: 'FAILED', timeoutMs: 15_000 });
    expect(done).toMatchObject({ failureReason: 'cancelled', executionTxHash: cancel.hash });
  });

  it('a row accepted under the old global derivation is still sent from its old address', async () => {
    const { apiKey } = await createAccount(t, 50);
    const path = newPath();
    const queue = t.app.get<Queue>(getQueueToken(QUEUES.relaySend));
    await queue.pause();
    let id: string;
    try {
      id = (await t.http().post('/api/submit-tx').set('api-key', apiKey).send(derivedTx(path)).expect(201)).body.data.txId as string;
      // What the migration does to a row recorded before it.
      await t.app.get(DataSource).query(`UPDATE relay_transactions SET derivation_scheme = 'legacy' WHERE id = $1`, [id]);
    } finally {
      await queue.resume();
    }
    const done = await waitForTx(t, id, { status: 'EXECUTED', timeoutMs: 30_000 });
    expect(await fromOf(fast, done.executionTxHash as string)).toBe(legacyAddress(path));
  });

  it('legacyDerivation lets an account move what its own old address holds, and no other account', async () => {
    const a = await createAccount(t, 50);
    const b = await createAccount(t, 50);
    const db = t.app.get(DataSource);
    const path = newPath();
    const shared = newPath();
    const old = legacyAddress(path);
    // As the migration records history: `path` was A's alone, `shared` was used by both.
    await db.query(
      `INSERT INTO legacy_derivation_paths (user_id, derivation_path, address, first_used_at) VALUES ($1, $3, $4, now()), ($1, $5, NULL, now()), ($2, $5, NULL, now())`,
      [a.userId, b.userId, path, old.toLowerCase(), shared],
    );
    await mintTo(old, 100n);
    const transfer = derivedTx(path, erc20.encodeFunctionData('transfer', [randomAddress(), 100n]));
    // Off: A's own key, which holds nothing.
    expect((await quote(a.apiKey, transfer).expect(500)).body.error.code).toBe('TRANSACTION_004');
    for (const account of [a, b]) await t.http().patch(`/admin/accounts/${account.address}/limits`).set(adminAuth).send({ legacyDerivation: true }).expect(200);
    // On: A moves what its old address holds; B, flag on too, never reaches A's old key, and no one reaches a shared one.
    expect((await quote(b.apiKey, transfer).expect(500)).body.error.code).toBe('TRANSACTION_004');
    const moved = await sync(a.apiKey, transfer).expect(200);
    expect(moved.body.data.status).toBe('EXECUTED');
    expect(await fromOf(fast, moved.body.data.executionTxHash)).toBe(old);
    expect(await sentFrom(a.apiKey, shared)).not.toBe(legacyAddress(shared));
    expect(await sentFrom(b.apiKey, shared)).not.toBe(legacyAddress(shared));
    expect(await sentFrom(b.apiKey, path)).not.toBe(old);
  });
});
