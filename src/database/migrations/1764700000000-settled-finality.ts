import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Settlements followed to their chain's confirmation depth. `finalized_at` is set once a settled
 * row's block is that deep and still canonical; until then the reconciler re-reads it, and a
 * reorg that moved the transaction (another block, price or outcome) corrects the row and posts
 * an `adjust` ledger entry under the row's `tx:<id>` reference. Adjustments may be several per
 * row (one per reorg), so the one-per-kind-and-reference guard no longer covers that kind: the
 * row's lock and its recorded receipt keep a correction from being applied twice.
 */
export class SettledFinality1764700000000 implements MigrationInterface {
  name = 'SettledFinality1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN finalized_at timestamptz`);
    // Rows settled before this migration were never followed: take them as final rather than re-read the whole history.
    await q.query(`UPDATE relay_transactions SET finalized_at = COALESCE(settled_at, now()) WHERE receipt IS NOT NULL`);
    await q.query(`CREATE INDEX relay_transactions_unfinalized_idx ON relay_transactions (chain_id) WHERE finalized_at IS NULL AND receipt IS NOT NULL`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'settle', 'release', 'debit', 'adjust'))`);
    await q.query(`DROP INDEX ledger_entries_kind_reference_uq`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE reference IS NOT NULL AND kind <> 'adjust'`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Adjustments are money already moved: they stay as debits (charges) or credits (refunds) under their reference.
    await q.query(`UPDATE ledger_entries SET kind = CASE WHEN available_delta < 0 THEN 'debit' ELSE 'credit' END,
                          reference = reference || '#' || id WHERE kind = 'adjust'`);
    await q.query(`DROP INDEX ledger_entries_kind_reference_uq`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE reference IS NOT NULL`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'settle', 'release', 'debit'))`);
    await q.query(`DROP INDEX relay_transactions_unfinalized_idx`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN finalized_at`);
  }
}
