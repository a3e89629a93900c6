import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

/** Idempotency-Key on the submission routes (extensions.md, Idempotency). */
describe('Idempotency-Key', () => {
  let t: TestApp;
  let db: DataSource;
  const usdc = token(testChain(31337), 'USDC');
  const tx = (to = randomAddress()) => ({ chainId: 31337, to: usdc, callData: mintCall(to) });

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const rowsOf = async (userId: string) => Number((await db.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]))[0].n);
  const reservesOf = async (userId: string) => Number((await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'reserve'`, [userId]))[0].n);

  it('two concurrent identical submissions create one transaction, one row and one reservation', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const body = tx();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'order-42').send(body)),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const ids = new Set(answers.map((a) => a.body.data.txId));
    expect(ids.size).toBe(1);
    expect(answers.every((a) => a.body.data.estimatedCostUSD === answers[0].body.data.estimatedCostUSD)).toBe(true);
    expect(await rowsOf(userId)).toBe(1);
    expect(await reservesOf(userId)).toBe(1);
    expect((await t.app.get(LedgerService).audit(userId)).reconciles).toBe(true);
  });

  it('a replay after completion answers the first answer again and creates nothing', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const body = tx();
    const first = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'k1').send(body).expect(201);
    // Key order in the body does not make another request.
    const reordered = { callData: body.callData, to: body.to, chainId: body.chainId };
    const again = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'k1').send(reordered).expect(201);
    expect(again.body.data).toEqual(first.body.data);
    expect(await rowsOf(userId)).toBe(1);
    // Another key is another request; no key at all is never deduplicated.
    await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'k2').send(body).expect(201);
    await t.http().post('/api/submit-tx').set('api-key', apiKey).send(body).expect(201);
    expect(await rowsOf(userId)).toBe(3);
  });

  it('the same key with another body is 409 RESOURCE_004, and keys are per account', async () => {
    const a = await createAccount(t, 50);
    const b = await createAccount(t, 50);
    const first = await t.http().post('/api/submit-tx').set('api-key', a.apiKey).set('Idempotency-Key', 'shared').send(tx()).expect(201);
    const other = await t.http().post('/api/submit-tx').set('api-key', a.apiKey).set('Idempotency-Key', 'shared').send(tx()).expect(409);
    expect(other.body).toMatchObject({ success: false, error: { code: 'RESOURCE_004' } });
    // The same body on another route is another request too.
    await t.http().post('/api/submit-tx-sync').set('api-key', a.apiKey).set('Idempotency-Key', 'shared').send({ tx: tx() }).expect(409);
    const foreign = await t.http().post('/api/submit-tx').set('api-key', b.apiKey).set('Idempotency-Key', 'shared').send(tx()).expect(201);
    expect(foreign.body.data.txId).not.toBe(first.body.data.txId);
    expect(await rowsOf(a.userId)).toBe(1);
  });

  it('a malformed key is 400 VALIDATION_001; a request refused with a 4xx does not use its key up', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    for (const key of ['x'.repeat(256), 'tab\there', 'caf\u00e9']) {
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', key).send(tx());
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_001');
    }
    const refused = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'retry-me').send({ ...tx(), to: '0x1234' });
    expect(refused.status).toBe(400);
    expect(await rowsOf(userId)).toBe(0);
    const body = tx();
    const ok = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'retry-me').send(body).expect(201);
    expect(ok.body.data.txId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await rowsOf(userId)).toBe(1);
  });

  it('submit-tx-sync replays the record as it is now', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const body = { tx: tx(), includeReceipt: true };
    const first = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).set('Idempotency-Key', 'sync-1').send(body).expect(200);
    expect(first.body.data.status).toBe('EXECUTED');
    const again = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).set('Idempotency-Key', 'sync-1').send(body).expect(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, status: 'EXECUTED', executionTxHash: first.body.data.executionTxHash });
    expect(again.body.data.receipt.transactionHash).toBe(first.body.data.executionTxHash);
    expect(await rowsOf(userId)).toBe(1);
  });

  it('an expired key is a new request', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const body = tx();
    const first = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'old').send(body).expect(201);
    await db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [userId]);
    const second = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('Idempotency-Key', 'old').send(body).expect(201);
    expect(second.body.data.txId).not.toBe(first.body.data.txId);
    expect(await rowsOf(userId)).toBe(2);
  });
});
