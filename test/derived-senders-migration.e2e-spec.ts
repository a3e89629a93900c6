import { DataSource } from 'typeorm';
import { ensureDatabase } from '../scripts/local-stack/database';
import { dataSourceOptions } from '../src/database/data-source-options';
import { DerivedSendersPerAccount1795742371560 } from '../src/database/migrations/1795742371560-derived-senders-per-account';
import { testEnv } from './support/test-env';

/**
 * The migration to per-account derived senders on a database of its own, with rows recorded
 * before it: they keep the old derivation, their paths are recorded per account, and down()
 * refuses while a per-account derived transaction is in flight.
 */
describe('migration DerivedSendersPerAccount', () => {
  const url = `${testEnv().DATABASE_URL}_migration`;
  const migration = new DerivedSendersPerAccount1795742371560();
  let ds: DataSource;

  beforeAll(async () => {
    await ensureDatabase(url, { recreate: true });
    ds = new DataSource(dataSourceOptions(url, false));
    await ds.initialize();
    await ds.runMigrations();
  });
  afterAll(() => ds.destroy());

  const run = async (step: 'up' | 'down') => {
    const runner = ds.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration[step](runner);
      await runner.commitTransaction();
    } catch (err) {
      await runner.rollbackTransaction();
      throw err;
    } finally {
      await runner.release();
    }
  };
  const account = async (address: string) => (await ds.query(`INSERT INTO accounts (address) VALUES ($1) RETURNING id`, [address]))[0].id as string;
  const row = (userId: string, path: string | null, stage: string, status: string, sender: string | null) =>
    ds.query(
      `INSERT INTO relay_transactions (chain_id, call_data, status, stage, user_id, submit_region, estimated_cost_micro, transaction_type, derivation_path, sender)
       VALUES (31337, '0x', $1, $2, $3, 'us-east', 1, $4, $5, $6) RETURNING id`,
      [status, stage, userId, path ? 'authenticated' : 'flash', path, sender],
    ).then((r: Array<{ id: string }>) => r[0].id);

  it('keeps rows recorded before it on the old derivation, records paths per account, and reverts only when nothing of the new kind is in flight', async () => {
    await run('down');
    const a = await account('0x00000000000000000000000000000000000000a1');
    const b = await account('0x00000000000000000000000000000000000000b2');
    const pending = await row(a, "m/44'/60'/0'/0/7", 'signed', 'PENDING', '0x7e51000000000000000000000000000000007075');
    const done = await row(a, "m/44'/60'/0'/0/7", 'executed', 'EXECUTED', '0x7e51000000000000000000000000000000007075');
    await row(b, "m/44'/60'/0'/0/7", 'executed', 'EXECUTED', '0x7e51000000000000000000000000000000007075');
    await row(b, "m/44'/60'/0'/0/9", 'accepted', 'PENDING', null);
    const pool = await row(a, null, 'executed', 'EXECUTED', '0x0000000000000000000000000000000000000001');

    await run('up');
    const schemes = await ds.query(`SELECT id, derivation_scheme FROM relay_transactions WHERE id = ANY($1) ORDER BY id`, [[pending, done, pool]]);
    expect(Object.fromEntries(schemes.map((r: { id: string; derivation_scheme: string | null }) => [r.id, r.derivation_scheme]))).toEqual({ [pending]: 'legacy', [done]: 'legacy', [pool]: null });
    const paths = await ds.query(`SELECT user_id, derivation_path, address FROM legacy_derivation_paths ORDER BY user_id = $1 DESC, derivation_path`, [a]);
    expect(paths).toEqual([
      { user_id: a, derivation_path: "m/44'/60'/0'/0/7", address: '0x7e51000000000000000000000000000000007075' },
      { user_id: b, derivation_path: "m/44'/60'/0'/0/7", address: '0x7e51000000000000000000000000000000007075' },
      { user_id: b, derivation_path: "m/44'/60'/0'/0/9", address: null },
    ]);
    expect((await ds.query(`SELECT legacy_derivation FROM accounts WHERE id = $1`, [a]))[0].legacy_derivation).toBe(false);
    // A derived row without its scheme cannot be written any more.
    await expect(ds.query(`UPDATE relay_transactions SET derivation_scheme = NULL WHERE id = $1`, [pending])).rejects.toThrow(/derivation_scheme_check/);

    // A per-account derived transaction in flight: the code before would sign it from another address.
    const [{ id: fresh }] = await ds.query(
      `INSERT INTO relay_transactions (chain_id, call_data, status, stage, user_id, submit_region, estimated_cost_micro, transaction_type, derivation_path, derivation_scheme)
       VALUES (31337, '0x', 'PENDING', 'accepted', $1, 'us-east', 1, 'authenticated', $2, 'account') RETURNING id`,
      [a, "m/44'/60'/0'/0/8"],
    );
    await expect(run('down')).rejects.toThrow(/1 PENDING transactions of per-account derived senders/);
    await ds.query(`UPDATE relay_transactions SET stage = 'failed', status = 'FAILED' WHERE id = $1`, [fresh]);
    await run('down');
    const columns = await ds.query(`SELECT column_name FROM information_schema.columns WHERE (table_name = 'relay_transactions' AND column_name = 'derivation_scheme') OR (table_name = 'accounts' AND column_name = 'legacy_derivation')`);
    expect(columns).toEqual([]);
    expect((await ds.query(`SELECT to_regclass('legacy_derivation_paths') AS t`))[0].t).toBeNull();
    await run('up');
  });
});
