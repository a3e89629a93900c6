import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

/** The stage each step writes (src/modules/relay/core/stage.ts), read back from the row. */
describe('relay: stages', () => {
  let t: TestApp;
  let db: DataSource;
  const usdc = token(testChain(31337), 'USDC');

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('a relayed transaction ends executed, with the moment of each stage in order', async () => {
    const { apiKey } = await createAccount(t, 20);
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: usdc, callData: mintCall(randomAddress(), 1n) }, timeoutMs: 15000 }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    const [row] = await db.query('SELECT stage, status, origin, created_at, signed_at, broadcast_at, settled_at FROM relay_transactions WHERE id = $1', [res.body.data.id]);
    expect(row).toMatchObject({ stage: 'executed', status: 'EXECUTED', origin: null });
    for (const stamp of ['signed_at', 'broadcast_at', 'settled_at']) expect(row[stamp]).toBeInstanceOf(Date);
    expect(row.signed_at.getTime()).toBeGreaterThanOrEqual(row.created_at.getTime());
    expect(row.settled_at.getTime()).toBeGreaterThanOrEqual(row.signed_at.getTime());
  });

  it('the database refuses a status that disagrees with the stage', async () => {
    const [executed] = await db.query(`SELECT id FROM relay_transactions WHERE stage = 'executed' LIMIT 1`);
    await expect(db.query(`UPDATE relay_transactions SET status = 'PENDING' WHERE id = $1`, [executed.id])).rejects.toThrow(/relay_transactions_stage_status/);
  });
});
