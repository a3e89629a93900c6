import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The two in-flight moves of a relayed transaction (accepted → signed → broadcast) as HOT updates:
 * new row versions on the same page, no index entries. PostgreSQL makes an update HOT only when
 * no column an index reads (key or predicate) changes, and `stage` changed on every move because
 * the finality scan's partial index (`relay_transactions_mined_idx`) was `WHERE stage IN (mined
 * stages)`: each move wrote an entry into every index of the table. The index now reads a stored
 * generated column, `awaiting_finality`, which changes only when a row is settled into a mined
 * stage and when it becomes final. `relay_transactions_user_id_idx (user_id)` goes: the list
 * index `(user_id, created_at DESC, id DESC)` serves every lookup by user_id, the foreign key's
 * included. The partitions keep a quarter of each page free, so the new versions find room
 * (new months get the same from PartitionStore.ensureMonth).
 */
export class HotStageMoves1795766000000 implements MigrationInterface {
  name = 'HotStageMoves1795766000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN awaiting_finality boolean
                     GENERATED ALWAYS AS (stage IN ('mined_executed', 'mined_reverted', 'mined_cancelled')) STORED`);
    await q.query(`DROP INDEX relay_transactions_mined_idx`);
    await q.query(`CREATE INDEX relay_transactions_mined_idx ON relay_transactions (chain_id) WHERE awaiting_finality`);
    await q.query(`DROP INDEX relay_transactions_user_id_idx`);
    for (const partition of await partitionsOf(q)) await q.query(`ALTER TABLE ${partition} SET (fillfactor = 75)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const partition of await partitionsOf(q)) await q.query(`ALTER TABLE ${partition} RESET (fillfactor)`);
    await q.query(`CREATE INDEX relay_transactions_user_id_idx ON relay_transactions (user_id)`);
    await q.query(`DROP INDEX relay_transactions_mined_idx`);
    await q.query(`CREATE INDEX relay_transactions_mined_idx ON relay_transactions (chain_id) WHERE stage IN ('mined_executed', 'mined_reverted', 'mined_cancelled')`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN awaiting_finality`);
  }
}

async function partitionsOf(q: QueryRunner): Promise<string[]> {
  const rows: Array<{ name: string }> = await q.query(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'relay_transactions'::regclass ORDER BY c.relname`,
  );
  return rows.map((r) => r.name);
}
