import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { mintCall, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import { clusterKeys, QUEUE_BACKENDS, RedisCluster, startRedisCluster } from './support/redis-cluster';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';

// The same flow with the queues on the app's Redis and on a Redis Cluster (QUEUE_REDIS_CLUSTER_NODES).
describe.each(QUEUE_BACKENDS)('relay: submit, send, confirm, settle (queues on $queues)', (backend) => {
  let t: TestApp;
  let cluster: RedisCluster | undefined;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');

  beforeAll(async () => {
    if (backend.cluster) cluster = await startRedisCluster();
    t = await createTestApp({ env: cluster?.env });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
  });

  it('submit-tx relays a call, executes it on chain and charges the actual cost', async () => {
    const { apiKey, userId } = await createAccount(t, 20);
    const recipient = randomAddress();
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(recipient, 5_000_000n), label: 'mint' }).expect(201);
    expect(res.body.data).toEqual({ txId: expect.any(String), estimatedCostUSD: expect.any(Number) });
    const tx = await waitForTx(t, res.body.data.txId, { query: { includeReceipt: 'true' } });
    expect(tx).toMatchObject({ status: 'EXECUTED', isAccountCharged: true, label: 'mint', chainId: 31337, transactionType: 'flash', submitRegion: 'us-east', retries: 0 });
    expect(tx.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(tx.costUSD as number).toBeGreaterThan(0);
    expect(tx.costUSD as number).toBeLessThanOrEqual(res.body.data.estimatedCostUSD);
    expect(await tokenContract(chain, 'USDC').balanceOf(recipient)).toBe(5_000_000n);
    const audit = await t.app.get(LedgerService).audit(userId);
    expect(audit.reconciles).toBe(true);
    expect(audit.pendingMicro).toBe(0n);
    // The signed bytes are kept with the nonce they used, and marked accepted by the node.
    const [sent] = await t.app.get(DataSource).query('SELECT hash, nonce::text AS nonce, broadcast_at FROM relay_broadcasts WHERE tx_id = $1', [res.body.data.txId]);
    expect(sent.hash).toBe(tx.executionTxHash);
    expect(sent.broadcast_at).toBeInstanceOf(Date);
    // Operators see the node calls it took.
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/chain_rpc_requests_total\{chain="31337",provider="http:\/\/127\.0\.0\.1:\d+",method="eth_sendRawTransaction",outcome="ok"\} [1-9]/);
    expect(metrics.text).toMatch(/chain_rpc_duration_seconds_count\{chain="31337",method="eth_estimateGas"\} [1-9]/);
  });

  it('submit-tx-sync answers with the executed record', async () => {
    const { apiKey } = await createAccount(t, 20);
    const res = await t
      .http()
      .post('/api/submit-tx-sync')
      .set('api-key', apiKey)
      .send({ tx: { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }, timeoutMs: 15000, includeReceipt: true })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: 'EXECUTED', isAccountCharged: true, receipt: { status: 1 } });
  });

  if (backend.cluster)
    it('on the cluster, the send jobs ran there and each queue keeps its keys in a slot of its own', async () => {
    const c = cluster!;
    const prefix = testEnv().REDIS_PREFIX;
    const keys = await clusterKeys(c, `{${prefix}:*`);
    // The send jobs of the two transactions above completed on the cluster (the queue's event stream says so; completed jobs are removed).
    const events = await c.cli(c.ports[0], '-c', 'xrange', `{${prefix}:relay-send}:relay-send:events`, '-', '+');
    expect(events.split('\n').filter((line) => line === 'completed').length).toBeGreaterThanOrEqual(2);
    const sendSlot = await c.cli(c.ports[0], 'cluster', 'keyslot', `{${prefix}:relay-send}:relay-send:completed`);
    const reconcilerSlot = await c.cli(c.ports[0], 'cluster', 'keyslot', `{${prefix}:reconciler}:reconciler:repeat`);
    expect(sendSlot).not.toBe(reconcilerSlot);
    // Hash tags per queue spread the queues over more than one master.
    expect([...keys.values()].filter((k) => k.length > 0).length).toBeGreaterThan(1);
  });
});
