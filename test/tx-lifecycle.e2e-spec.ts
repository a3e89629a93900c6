import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts';
import { PricingService } from '../src/modules/pricing';
import { weiToMicroUsd } from '../src/modules/relay/core/fees';
import { QUEUES } from '../src/queue/queue-names';
import { heartbeat } from '../scripts/local-stack/heartbeat';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx, waitForTxs } from './support/wait-for-tx';

/**
 * Transaction lifecycle (extensions.md): cancel, speed-up, validUntil, failureReason,
 * revertReason and stages. Chain 84532 with automine off holds broadcast transactions unmined
 * until a test mines; one key per region, so every transaction of a region has the same sender.
 */
describe('transaction lifecycle', () => {
  let t: TestApp;
  let db: DataSource;
  let queue: Queue;
  const slow = testChain(84532);
  const rpc = provider(slow);
  const usdcSlow = token(slow, 'USDC');
  const fast = testChain(31337);
  const usdcFast = token(fast, 'USDC');
  const slowTx = (extra: Record<string, unknown> = {}) => ({ chainId: 84532, to: usdcSlow, callData: mintCall(randomAddress()), ...extra });

  beforeAll(async () => {
    t = await createTestApp({ env: { RELAYER_KEYS_PER_REGION: '1' } });
    db = t.app.get(DataSource);
    queue = t.app.get<Queue>(getQueueToken(QUEUES.relaySend));
  });
  afterEach(async () => {
    await queue.resume();
    await rpc.send('evm_setAutomine', [true]);
  });
  afterAll(() => t.close());

  const submit = (apiKey: string, body: Record<string, unknown>) => t.http().post('/api/submit-tx').set('api-key', apiKey).send(body).expect(201).then((r) => r.body.data.txId as string);
  const record = (id: string) => t.http().get('/api/tx').query({ id, includeReceipt: 'true' }).expect(200).then((r) => r.body.data);
  /** Until the transaction has a hash a node accepted (automine off: it then waits in the pool). */
  const sent = async (id: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [b] = await db.query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1 AND broadcast_at IS NOT NULL ORDER BY id DESC LIMIT 1`, [id]);
      if (b) return b.hash as string;
      if (Date.now() > deadline) throw new Error(`${id} was not broadcast`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const account = async (userId: string) => (await db.query('SELECT available_micro, pending_micro FROM accounts WHERE id = $1', [userId]))[0];
  const isoOrder = (stages: Record<string, string | null>, keys: string[]) => keys.map((k) => Date.parse(stages[k] as string)).every((v, i, all) => !Number.isNaN(v) && (i === 0 || all[i - 1] <= v));

  it('the idle heartbeat mines only while the chain automines', async () => {
    const before = await rpc.getBlockNumber();
    expect(await heartbeat(slow.rpcUrl)).toBe(true);
    expect(await rpc.getBlockNumber()).toBe(before + 1);
    await rpc.send('evm_setAutomine', [false]);
    expect(await heartbeat(slow.rpcUrl)).toBe(false);
    expect(await rpc.getBlockNumber()).toBe(before + 1);
  });

  it('cancel before broadcast: FAILED cancelled at once, reservation released, nothing sent', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    // Held in the queue: the row is accepted and stays so until the queue resumes.
    await queue.pause();
    const id = await submit(apiKey, slowTx());
    expect((await account(userId)).pending_micro).not.toBe('0');
    const speedUp = await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({}).expect(409);
    expect(speedUp.body.error.code).toBe('TRANSACTION_009');
    const res = await t.http().post(`/api/tx/${id}/cancel`).set('api-key', apiKey).expect(200);
    expect(res.body.data).toMatchObject({ id, status: 'FAILED', failureReason: 'cancelled', revertReason: null, costUSD: 0, isAccountCharged: false, executionTxHash: null });
    expect(res.body.data.stages).toMatchObject({ signedAt: null, broadcastAt: null, minedAt: null });
    expect(res.body.data.stages.settledAt).not.toBeNull();
    expect(await account(userId)).toEqual({ available_micro: '50000000', pending_micro: '0' });
    await queue.resume();
    // The held send job runs now and finds nothing to do.
    await new Promise((r) => setTimeout(r, 500));
    expect(await db.query('SELECT 1 FROM relay_broadcasts WHERE tx_id = $1', [id])).toHaveLength(0);
    expect((await record(id)).status).toBe('FAILED');
    // Terminal: 409; another account: 404.
    expect((await t.http().post(`/api/tx/${id}/cancel`).set('api-key', apiKey).expect(409)).body.error.code).toBe('TRANSACTION_009');
    const other = await createAccount(t, 5);
    expect((await t.http().post(`/api/tx/${id}/cancel`).set('api-key', other.apiKey).expect(404)).body.error.code).toBe('TRANSACTION_003');
    expect((await t.http().post(`/api/tx/not-a-uuid/cancel`).set('api-key', apiKey).expect(404)).body.error.code).toBe('TRANSACTION_003');
    expect((await t.app.get(LedgerService).audit(userId)).reconciles).toBe(true);
  });

  it('cancel after broadcast: the 0-value self-transfer is mined, FAILED cancelled, its gas charged exactly', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const id = await submit(apiKey, slowTx());
    const original = await sent(id);
    const res = await t.http().post(`/api/tx/${id}/cancel`).set('api-key', apiKey).expect(200);
    expect(res.body.data).toMatchObject({ id, status: 'PENDING', failureReason: null });
    const [cancel] = await db.query(`SELECT hash, sender, nonce::text AS nonce FROM relay_broadcasts WHERE tx_id = $1 AND kind = 'cancel'`, [id]);
    expect(cancel).toBeDefined();
    expect((await rpc.getTransaction(cancel.hash))).not.toBeNull();
    await rpc.send('evm_mine', []);
    const done = await waitForTx(t, id, { status: 'FAILED', timeoutMs: 15_000, query: { includeReceipt: 'true' } });
    expect(done).toMatchObject({ failureReason: 'cancelled', executionTxHash: cancel.hash, isAccountCharged: true });
    expect(await rpc.getTransactionReceipt(original)).toBeNull();
    const receipt = (await rpc.getTransactionReceipt(cancel.hash))!;
    const mined = (await rpc.getTransaction(cancel.hash))!;
    expect(receipt.status).toBe(1);
    expect(mined.to!.toLowerCase()).toBe(cancel.sender);
    expect(mined.from.toLowerCase()).toBe(cancel.sender);
    expect(mined.value).toBe(0n);
    expect(BigInt(mined.nonce)).toBe(BigInt(cancel.nonce));
    // Ledger exact: the cancellation's gas at the native price, nothing else, the rest released.
    const price = await t.app.get(PricingService).nativeUsd(84532);
    const costMicro = weiToMicroUsd(receipt.gasUsed * receipt.gasPrice, price.usd);
    const [row] = await db.query('SELECT cost_micro::text AS cost FROM relay_transactions WHERE id = $1', [id]);
    expect(BigInt(row.cost)).toBe(costMicro);
    expect(costMicro).toBeGreaterThan(0n);
    expect(await account(userId)).toEqual({ available_micro: (50_000_000n - costMicro).toString(), pending_micro: '0' });
    expect((await t.app.get(LedgerService).audit(userId)).reconciles).toBe(true);
    expect(isoOrder(done.stages as Record<string, string>, ['acceptedAt', 'signedAt', 'broadcastAt', 'minedAt', 'settledAt'])).toBe(true);
  });

  it('speed-up replaces a stuck transaction: mined with the new hash, EXECUTED', async () => {
    const { apiKey } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const id = await submit(apiKey, slowTx());
    const first = await sent(id);
    const before = await record(id);
    // Too small a raise, the two ways to ask at once, and fees beyond the per-transaction limit are refused.
    const low = await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ maxFeePerGas: before.maxFeePerGas, maxPriorityFeePerGas: before.maxPriorityFeePerGas }).expect(400);
    expect(low.body.error.code).toBe('TRANSACTION_005');
    expect((await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ bumpPercent: 30, maxFeePerGas: '1', maxPriorityFeePerGas: '1' }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ bumpPercent: 5 }).expect(400)).body.error.code).toBe('VALIDATION_004');
    const huge = (10n ** 24n).toString();
    expect((await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ maxFeePerGas: huge, maxPriorityFeePerGas: huge }).expect(400)).body.error.code).toBe('TRANSACTION_001');
    const res = await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({ bumpPercent: 50 }).expect(200);
    const second = res.body.data.executionTxHash as string;
    expect(second).not.toBe(first);
    expect(BigInt(res.body.data.maxFeePerGas)).toBeGreaterThanOrEqual((BigInt(before.maxFeePerGas) * 150n) / 100n);
    expect(await rpc.getTransaction(second)).not.toBeNull();
    await rpc.send('evm_mine', []);
    const done = await waitForTx(t, id, { status: 'EXECUTED', timeoutMs: 15_000 });
    expect(done).toMatchObject({ executionTxHash: second, failureReason: null, revertReason: null });
    expect((await rpc.getTransactionReceipt(second))?.status).toBe(1);
    expect(await rpc.getTransactionReceipt(first)).toBeNull();
    expect((await t.http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send({}).expect(409)).body.error.code).toBe('TRANSACTION_009');
  });

  it('validUntil: an unsent transaction expires FAILED expired and released; the signer\'s next transaction takes the next nonce', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const bad = await t.http().post('/api/submit-tx').set('api-key', apiKey).send(slowTx({ validUntil: Math.floor(Date.now() / 1000) - 1 })).expect(400);
    expect(bad.body.error.code).toBe('VALIDATION_001');
    await t.http().post('/api/submit-tx').set('api-key', apiKey).send(slowTx({ validUntil: Math.floor(Date.now() / 1000) + 90 * 86400 })).expect(400);
    await queue.pause();
    const validUntil = Math.floor(Date.now() / 1000) + 2;
    const id = await submit(apiKey, slowTx({ validUntil }));
    expect((await record(id)).validUntil).toBe(validUntil);
    // The reconciler (every second in tests) expires it once validUntil passed.
    const expired = await waitForTx(t, id, { status: 'FAILED', timeoutMs: 10_000 });
    expect(expired).toMatchObject({ failureReason: 'expired', executionTxHash: null, costUSD: 0 });
    expect(Date.now()).toBeGreaterThanOrEqual(validUntil * 1000);
    expect(await account(userId)).toEqual({ available_micro: '50000000', pending_micro: '0' });
    await queue.resume();
    const next = await waitForTx(t, await submit(apiKey, slowTx()), { status: 'EXECUTED', timeoutMs: 15_000 });
    const mined = (await rpc.getTransaction(next.executionTxHash as string))!;
    // No gap: the nonce it took was the sender's next one on chain.
    expect(await rpc.getTransactionCount(mined.from, 'latest')).toBe(mined.nonce + 1);
    expect(await db.query('SELECT 1 FROM relay_broadcasts WHERE tx_id = $1', [id])).toHaveLength(0);
  });

  it('validUntil: a broadcast transaction not mined in time is cancelled at its nonce; the signer\'s next transaction executes', async () => {
    const { apiKey } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const id = await submit(apiKey, slowTx({ validUntil: Math.floor(Date.now() / 1000) + 2 }));
    const original = await sent(id);
    const sender = (await rpc.getTransaction(original))!.from;
    const deadline = Date.now() + 10_000;
    let cancel: { hash: string } | undefined;
    while (!cancel && Date.now() < deadline) {
      [cancel] = await db.query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1 AND kind = 'cancel' AND broadcast_at IS NOT NULL`, [id]);
      if (!cancel) await new Promise((r) => setTimeout(r, 100));
    }
    expect(cancel).toBeDefined();
    await rpc.send('evm_mine', []);
    const done = await waitForTx(t, id, { status: 'FAILED', timeoutMs: 15_000 });
    expect(done).toMatchObject({ failureReason: 'expired', executionTxHash: cancel!.hash, isAccountCharged: true });
    await rpc.send('evm_setAutomine', [true]);
    const next = await waitForTx(t, await submit(apiKey, slowTx()), { status: 'EXECUTED', timeoutMs: 15_000 });
    const mined = (await rpc.getTransaction(next.executionTxHash as string))!;
    expect(mined.from).toBe(sender);
    expect(await rpc.getTransactionCount(sender, 'latest')).toBe(mined.nonce + 1);
  });

  it('a transaction that reverts on chain is FAILED reverted with its decoded revertReason, in order stages, in lists too', async () => {
    const { apiKey } = await createAccount(t, 50);
    const path = `m/44'/60'/2'/0/${Math.floor(Math.random() * 1e6)}`;
    const sync = (body: Record<string, unknown>) => t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: body }).expect(200);
    const first = await sync({ chainId: 31337, to: usdcFast, callData: mintCall(randomAddress()), isAuthenticatedTx: true, derivationPath: path });
    const sender = (await provider(fast).getTransaction(first.body.data.executionTxHash))!.from;
    const minter = new Wallet('0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', provider(fast)); // anvil #8
    await (await minter.sendTransaction({ to: usdcFast, data: mintCall(sender, 100n) })).wait();
    // Both simulate fine; the second to be mined finds the balance gone and reverts on chain.
    const transfer = { chainId: 31337, to: usdcFast, callData: erc20.encodeFunctionData('transfer', [randomAddress(), 100n]), isAuthenticatedTx: true, derivationPath: path };
    const ids = await Promise.all([1, 2].map(() => submit(apiKey, transfer)));
    const rows = await waitForTxs(t, ids, { timeoutMs: 20_000 });
    const failed = rows.find((r) => r.status === 'FAILED')!;
    const executed = rows.find((r) => r.status === 'EXECUTED')!;
    expect(failed).toMatchObject({ failureReason: 'reverted', isAccountCharged: true });
    expect(failed.revertReason).toMatch(/^execution reverted: ERC20InsufficientBalance\(sender=0x[0-9a-fA-F]{40}, balance=0, needed=100\)$/);
    expect(executed).toMatchObject({ failureReason: null, revertReason: null });
    const all = ['acceptedAt', 'signedAt', 'broadcastAt', 'minedAt', 'settledAt'];
    for (const r of [failed, executed]) expect(isoOrder(r.stages as Record<string, string>, all)).toBe(true);
    const list = await t.http().get('/api/txs').set('api-key', apiKey).query({ status: 'FAILED' }).expect(200);
    expect(list.body.data.items.find((i: { id: string }) => i.id === failed.id)).toMatchObject({ failureReason: 'reverted', revertReason: failed.revertReason, stages: failed.stages });
  });
});
