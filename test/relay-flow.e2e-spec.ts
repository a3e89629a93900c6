import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { mintCall, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';

describe('relay: submit, send, confirm, settle', () => {
  let t: TestApp;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

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
});
