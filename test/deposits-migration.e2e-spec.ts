import { DataSource } from 'typeorm';
import { ensureDatabase } from '../scripts/local-stack/database';
import { dataSourceOptions } from '../src/database/data-source-options';
import { Deposits1795750000000 } from '../src/database/migrations/1795750000000-deposits';
import { testEnv } from './support/test-env';

/**
 * The deposits migration on a database of its own: up() makes the database refuse a second
 * credit of one transfer; down() keeps credited deposits as credits (the balances stay what the
 * ledger sums say) and up() applies again after it.
 */
describe('migration Deposits', () => {
  const url = `${testEnv().DATABASE_URL}_deposits_migration`;
  const migration = new Deposits1795750000000();
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
  const ref = `dep:31337:0x${'ab'.repeat(32)}:2`;
  const deposit = (userId: string, reference: string | null, amount = 5) =>
    ds.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'deposit', $2, 0, $3)`, [userId, amount, reference]);

  it('refuses a second credit of a transfer, reverts to credits, and applies again', async () => {
    const [{ id }] = await ds.query(`INSERT INTO accounts (address) VALUES ('0x00000000000000000000000000000000000000d1') RETURNING id`);
    await deposit(id, ref);
    await expect(deposit(id, ref)).rejects.toThrow(/ledger_entries_kind_reference_uq/);
    await expect(deposit(id, null)).rejects.toThrow(/ledger_entries_deposit_reference_check/);
    await expect(deposit(id, 'dep:31337:nothex:0')).rejects.toThrow(/ledger_entries_deposit_reference_check/);
    await expect(deposit(id, `dep:31337:0x${'cd'.repeat(32)}:0`, -1)).rejects.toThrow(/ledger_entries_deposit_reference_check/);

    await run('down');
    expect(await ds.query(`SELECT kind, reference, available_delta::int AS amount FROM ledger_entries WHERE user_id = $1`, [id])).toEqual([{ kind: 'credit', reference: ref, amount: 5 }]);
    expect(await ds.query(`SELECT to_regclass('deposits') AS t`)).toEqual([{ t: null }]);
    await expect(deposit(id, `dep:31337:0x${'ef'.repeat(32)}:0`)).rejects.toThrow(/ledger_entries_kind_check/);

    await run('up');
    await deposit(id, `dep:31337:0x${'ef'.repeat(32)}:0`);
    expect(await ds.query(`SELECT count(*)::int AS n FROM deposits`)).toEqual([{ n: 0 }]);
  });
});
