import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every fee increase is a reservation change. A speed-up, a re-price or a fee-bumped
 * replacement that needs more than the row holds posts a `raise` ledger entry (available →
 * pending, like `reserve`) under the row's `tx:<id>` reference, in the statement that raises
 * `estimated_cost_micro`; a row may be raised several times, so the one-per-kind-and-reference
 * guard does not cover that kind (the row's lock serialises raises). `max_cost_micro` keeps the
 * submission's `maxUSD` so a later raise honours it too.
 */
export class FeeRaiseReservations1795742304139 implements MigrationInterface {
  name = 'FeeRaiseReservations1795742304139';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN max_cost_micro bigint CHECK (max_cost_micro >= 0)`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'raise', 'settle', 'release', 'debit', 'adjust'))`);
    await q.query(`DROP INDEX ledger_entries_kind_reference_uq`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE reference IS NOT NULL AND kind NOT IN ('adjust', 'raise')`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Raises are folded into their reservation: the sums per account and per reference stay the same.
    await q.query(`UPDATE ledger_entries r SET available_delta = r.available_delta + x.available, pending_delta = r.pending_delta + x.pending
                     FROM (SELECT reference, SUM(available_delta) AS available, SUM(pending_delta) AS pending FROM ledger_entries WHERE kind = 'raise' GROUP BY reference) x
                    WHERE r.kind = 'reserve' AND r.reference = x.reference`);
    await q.query(`DELETE FROM ledger_entries WHERE kind = 'raise'`);
    await q.query(`DROP INDEX ledger_entries_kind_reference_uq`);
    await q.query(`CREATE UNIQUE INDEX ledger_entries_kind_reference_uq ON ledger_entries (kind, reference) WHERE reference IS NOT NULL AND kind <> 'adjust'`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN ('credit', 'reserve', 'settle', 'release', 'debit', 'adjust'))`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN max_cost_micro`);
  }
}
