import { DataSource } from 'typeorm';
import { ensureDatabase } from '../scripts/local-stack/database';
import type { AppConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source-options';
import { TimePartitions1795760000000 } from '../src/database/migrations/1795760000000-time-partitions';
import { PartitionMaintenance } from '../src/modules/partitions/partition-maintenance.service';
import { monthOf, PartitionStore } from '../src/modules/partitions/partition.store';
import { testEnv } from './support/test-env';

/**
 * The time partitions (migration TimePartitions) on a database of their own: every constraint
 * that relied on a plain table still holds, down() gives back plain tables with the same rows,
 * months are created ahead, and retention drops only old months whose rows are all final.
 */
describe('time partitions', () => {
  const url = `${testEnv().DATABASE_URL}_partitions`;
  const migration = new TimePartitions1795760000000();
  let ds: DataSource;
  let userId: string;

  beforeAll(async () => {
    await ensureDatabase(url, { recreate: true });
    ds = new DataSource(dataSourceOptions(url, false));
    await ds.initialize();
    await ds.runMigrations();
    [{ id: userId }] = await ds.query(`INSERT INTO accounts (address) VALUES ('0x00000000000000000000000000000000000000e1') RETURNING id`);
  }, 60_000);
  afterAll(() => ds?.destroy());

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

  /** A transaction with one broadcast, one status event, one webhook delivery and a ledger entry, at `at`. */
  async function history(at: Date, opts: { status?: 'PENDING' | 'EXECUTED'; hash?: string; reference?: string } = {}): Promise<string> {
    const pending = opts.status === 'PENDING';
    const [{ id }] = await ds.query(
      `INSERT INTO relay_transactions (user_id, chain_id, call_data, status, stage, transaction_type, submit_region, estimated_cost_micro, created_at)
       VALUES ($1, 31337, '0x', $2, $3, 'flash', 'us-east', 1, $4) RETURNING id`,
      [userId, pending ? 'PENDING' : 'EXECUTED', pending ? 'accepted' : 'executed', at],
    );
    const hash = opts.hash ?? `0x${id.replace(/-/g, '').padEnd(64, '0')}`;
    await ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas, created_at) VALUES ($1, $2, 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1, $3)`, [id, hash, at]);
    const [{ id: eventId }] = await ds.query(`INSERT INTO tx_status_events (tx_id, user_id, status, payload, created_at, dispatched_at) VALUES ($1, $2, 'EXECUTED', '{}', $3, $3) RETURNING id`, [id, userId, at]);
    const [webhook] = await ds.query(`SELECT id FROM webhooks WHERE user_id = $1`, [userId]);
    await ds.query(`INSERT INTO webhook_deliveries (webhook_id, event_id, event_created_at, tx_id, user_id, status) VALUES ($1, $2, $3, $4, $5, 'delivered')`, [webhook.id, eventId, at, id, userId]);
    await ds.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference, created_at) VALUES ($1, 'settle', 0, 0, $2, $3)`, [userId, opts.reference ?? `settle:${id}`, at]);
    return id;
  }

  const snapshot = async () => ({
    txs: await ds.query(`SELECT id, status, created_at FROM relay_transactions ORDER BY id`),
    broadcasts: await ds.query(`SELECT id, tx_id, hash, created_at FROM relay_broadcasts ORDER BY id`),
    events: await ds.query(`SELECT id, tx_id, created_at, dispatched_at FROM tx_status_events ORDER BY id`),
    deliveries: await ds.query(`SELECT id, webhook_id, event_id, status FROM webhook_deliveries ORDER BY id`),
    ledger: await ds.query(`SELECT id, kind, reference, created_at FROM ledger_entries ORDER BY id`),
  });
  const partitioned = async () => (await ds.query(`SELECT c.relname AS t FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid ORDER BY 1`)).map((r: { t: string }) => r.t);

  it('keeps every uniqueness and foreign key, and down() gives back plain tables with the rows', async () => {
    await ds.query(`INSERT INTO webhooks (user_id, position, url, auth_type) VALUES ($1, 0, 'https://example.com/hook', 'none')`, [userId]);
    expect(await partitioned()).toEqual(['ledger_entries', 'relay_broadcasts', 'relay_transactions', 'tx_status_events', 'webhook_deliveries']);
    const txId = await history(new Date());
    const [b] = await ds.query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1`, [txId]);
    // The same signed bytes twice, the same settlement twice: refused under the constraint names the code knows.
    await expect(ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas) VALUES ($1, $2, 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1)`, [txId, b.hash])).rejects.toThrow(/relay_broadcasts_hash_key/);
    await expect(ds.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'settle', 0, 0, $2)`, [userId, `settle:${txId}`])).rejects.toThrow(/ledger_entries_kind_reference_uq/);
    // Raises and adjustments may repeat a reference, as before.
    await ds.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'adjust', 0, 0, 'same'), ($1, 'adjust', 0, 0, 'same')`, [userId]);
    // A broadcast of an unknown transaction is refused (the id table holds the foreign key).
    await expect(ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas) VALUES (gen_random_uuid(), '0x01', 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1)`)).rejects.toThrow(/foreign key/);
    // A forgotten broadcast frees its hash.
    await ds.query(`DELETE FROM relay_broadcasts WHERE tx_id = $1`, [txId]);
    await ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas) VALUES ($1, $2, 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1)`, [txId, b.hash]);
    // The delivery insert's conflict target.
    const [event] = await ds.query(`SELECT id, created_at FROM tx_status_events WHERE tx_id = $1`, [txId]);
    const again = await ds.query(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_created_at, tx_id, user_id, status) SELECT w.id, $1, $2, $3, $4, 'pending' FROM webhooks w WHERE w.user_id = $4 ON CONFLICT (webhook_id, event_id, event_created_at) DO NOTHING RETURNING id`,
      [event.id, event.created_at, txId, userId],
    );
    expect(again).toEqual([]);
    await history(new Date(Date.UTC(2019, 0, 15))); // older than every month: the default partition

    const before = await snapshot();
    await run('down');
    expect(await partitioned()).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(await ds.query(`SELECT to_regclass('relay_transaction_ids') AS a, to_regclass('relay_broadcast_hashes') AS b, to_regclass('ledger_entry_references') AS c`)).toEqual([{ a: null, b: null, c: null }]);
    await expect(ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas) VALUES ($1, $2, 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1)`, [txId, b.hash])).rejects.toThrow(/relay_broadcasts_hash_key/);
    await expect(ds.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'settle', 0, 0, $2)`, [userId, `settle:${txId}`])).rejects.toThrow(/ledger_entries_kind_reference_uq/);

    await run('up');
    expect(await partitioned()).toHaveLength(5);
    expect(await snapshot()).toEqual(before);
    await expect(ds.query(`INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas) VALUES ($1, $2, 31337, '0x00000000000000000000000000000000000000e2', 0, '0x', 1)`, [txId, b.hash])).rejects.toThrow(/relay_broadcasts_hash_key/);
  });

  it('creates months ahead, and retention drops only old months whose rows are all final', async () => {
    const config = { PARTITION_MONTHS_AHEAD: 2, RETENTION_DAYS: 30 } as AppConfig;
    const maintenance = new PartitionMaintenance(new PartitionStore(ds), config);
    const now = new Date();
    const months = (table: string) => new PartitionStore(ds).months(table as 'relay_transactions');

    // Ahead: this month and two more, for every table; a second pass creates nothing.
    const created = await maintenance.createAhead(now);
    const ahead = monthOf(now, 2).suffix;
    expect(await months('relay_transactions')).toContain(ahead);
    expect(await months('ledger_entries')).toContain(ahead);
    expect(await maintenance.createAhead(now)).toEqual([]);
    expect(created.every((n) => /_p\d{6}$/.test(n))).toBe(true);
    // A new month's relay_transactions keeps room on its pages for the in-flight moves (HOT updates).
    const [options] = await ds.query(`SELECT reloptions FROM pg_class WHERE relname = $1`, [`relay_transactions_p${ahead}`]);
    expect(options.reloptions).toEqual(['fillfactor=75']);

    // Two old months: one all final, one with a transaction still PENDING.
    const old = monthOf(now, -6);
    const older = monthOf(now, -7);
    await maintenance.createAhead(new Date(older.from)); // creates -7, -6, -5
    const finalTx = await history(new Date(Date.parse(older.from) + 86_400_000));
    const pendingTx = await history(new Date(Date.parse(old.from) + 86_400_000), { status: 'PENDING' });

    const dropped = await maintenance.applyRetention(now);
    expect(dropped).toEqual(expect.arrayContaining([`relay_transactions_p${older.suffix}`, `relay_broadcasts_p${older.suffix}`, `tx_status_events_p${older.suffix}`, `webhook_deliveries_p${older.suffix}`]));
    expect(dropped.some((n) => n.endsWith(old.suffix))).toBe(false);
    expect(await months('relay_transactions')).not.toContain(older.suffix);
    expect(await months('relay_transactions')).toContain(old.suffix);
    // The ledger keeps every month: balances are sums of it.
    expect(await months('ledger_entries')).toContain(older.suffix);
    expect(await ds.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE reference = $1`, [`settle:${finalTx}`])).toEqual([{ n: 1 }]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE id = $1`, [finalTx])).toEqual([{ n: 0 }]);
    expect(await ds.query(`SELECT count(*)::int AS n FROM relay_transaction_ids WHERE id = $1`, [finalTx])).toEqual([{ n: 0 }]);
    expect(await ds.query(`SELECT status FROM relay_transactions WHERE id = $1`, [pendingTx])).toEqual([{ status: 'PENDING' }]);

    // Once it is final, its month goes too; with retention off nothing is dropped.
    await ds.query(`UPDATE relay_transactions SET status = 'EXECUTED', stage = 'executed' WHERE id = $1`, [pendingTx]);
    expect(await new PartitionMaintenance(new PartitionStore(ds), { ...config, RETENTION_DAYS: 0 } as AppConfig).applyRetention(now)).toEqual([]);
    expect(await maintenance.applyRetention(now)).toContain(`relay_transactions_p${old.suffix}`);
  });
});
