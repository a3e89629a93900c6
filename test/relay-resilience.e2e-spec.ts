import { getQueueToken } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ReconcilerService } from '../src/modules/relay/pipeline/reconcile/reconciler.service';
import { QUEUES } from '../src/queue/queue-names';
import { NonceManager } from '../src/modules/relay/pipeline/keys/nonce-manager.service';
import { SignerPool } from '../src/modules/relay/core/signer-pool.service';
import { mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { testEnv } from './support/test-env';

/**
 * Chain 84532 with automine switched off stands in for a slow or congested chain: the tests
 * decide when blocks come. Automine is restored after each test.
 */
describe('relay: waiting, stuck transactions and lost queues', () => {
  let t: TestApp;
  const chain = testChain(84532);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);
  const tx = () => ({ chainId: 84532, to: usdc, callData: mintCall(randomAddress()) });

  beforeAll(async () => {
    t = await createTestApp({ env: { RELAY_REPLACE_AFTER_MS: '1500' } });
  });
  afterEach(async () => {
    await rpc.send('evm_setAutomine', [true]);
  });
  afterAll(() => t.close());

  const waitStatus = (id: string, status: string) => waitForTx(t, id, { status, timeoutMs: 20_000 });

  it('submit-tx-sync answers 202 with timedOut when the chain is slow, and the transaction still lands', async () => {
    const { apiKey } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: tx(), timeoutMs: 1000 }).expect(202);
    expect(res.body.data).toMatchObject({ status: 'PENDING', timedOut: true, isAccountCharged: false, costUSD: null });
    await rpc.send('evm_mine', []);
    expect((await waitStatus(res.body.data.id, 'EXECUTED')).status).toBe('EXECUTED');
  });

  it('returnOnTxHash ends the wait as soon as the hash exists', async () => {
    const { apiKey } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: tx(), timeoutMs: 10000, returnOnTxHash: true }).expect(200);
    expect(res.body.data.status).toBe('PENDING');
    expect(res.body.data.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    await rpc.send('evm_mine', []);
    await waitStatus(res.body.data.id, 'EXECUTED');
  });

  it('a stuck transaction is replaced with higher fees and whichever hash is mined counts', async () => {
    const { apiKey } = await createAccount(t, 50);
    await rpc.send('evm_setAutomine', [false]);
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx()).expect(201);
    const id = res.body.data.txId;
    const dataSource = t.app.get(DataSource);
    const deadline = Date.now() + 15_000;
    let hashes: Array<{ hash: string; max_fee_per_gas: string }> = [];
    while (Date.now() < deadline && hashes.length < 2) {
      await t.app.get(ReconcilerService).reconcile();
      hashes = await dataSource.query('SELECT hash, max_fee_per_gas FROM relay_broadcasts WHERE tx_id = $1 ORDER BY id', [id]);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    expect(BigInt(hashes[1].max_fee_per_gas)).toBeGreaterThan(BigInt(hashes[0].max_fee_per_gas));
    await rpc.send('evm_mine', []);
    const done = await waitStatus(id, 'EXECUTED');
    expect(hashes.map((h) => h.hash)).toContain(done.executionTxHash);
    expect((await rpc.getTransactionReceipt(done.executionTxHash as string))?.status).toBe(1);
  });

  it('Redis flushed with transactions pending: every one still reaches a terminal state', async () => {
    const { apiKey } = await createAccount(t, 50);
    // Hold the send queue so the jobs exist only in Redis when it is wiped.
    const queue = t.app.get<Queue>(getQueueToken(QUEUES.relaySend));
    await queue.pause();
    const ids = await Promise.all(Array.from({ length: 5 }, () => t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx()).expect(201))).then((rs) => rs.map((r) => r.body.data.txId));
    const sent = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM relay_broadcasts WHERE tx_id = ANY($1)', [ids]);
    expect(sent[0].n).toBe(0);
    const redis = new Redis(testEnv().REDIS_URL);
    await redis.flushdb();
    await redis.quit();
    expect(await queue.getJobCounts('waiting', 'paused', 'delayed')).toEqual({ waiting: 0, paused: 0, delayed: 0 });
    // The reconciler's own schedule was flushed too; run passes until all are terminal.
    const deadline = Date.now() + 30_000;
    let statuses: string[] = [];
    while (Date.now() < deadline) {
      await t.app.get(ReconcilerService).reconcile();
      statuses = await Promise.all(ids.map((id) => t.http().get('/api/tx').query({ id }).then((r) => r.body.data.status)));
      if (statuses.every((s) => s !== 'PENDING')) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(statuses).toEqual(Array(5).fill('EXECUTED'));
  });

  it('a nonce claimed but never broadcast (a top-up, then a crash) is filled, and the key keeps working', async () => {
    const signers = t.app.get(SignerPool);
    const nonces = t.app.get(NonceManager);
    const dataSource = t.app.get(DataSource);
    const address = signers.poolAddresses('ap-south')[1];
    const before = await rpc.getTransactionCount(address, 'pending');
    await nonces.resync(84532, address);
    // A claim that stores nothing, as a top-up's does: the nonce is consumed and nothing will use it.
    await nonces.claim(84532, address, async (nonce) => nonce);
    await dataSource.query(`UPDATE signer_nonces SET updated_at = now() - interval '1 minute' WHERE chain_id = 84532 AND address = lower($1)`, [address]);
    expect(await t.app.get(ReconcilerService).fillGaps()).toBeGreaterThanOrEqual(1);
    expect(await rpc.getTransactionCount(address, 'pending')).toBe(before + 1);
    // The key's next relayed transaction is not stuck behind a hole.
    const { apiKey } = await createAccount(t, 50);
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).set('X-Relay-Region', 'ap-south').send({ tx: tx(), timeoutMs: 15000 }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
  });
});
