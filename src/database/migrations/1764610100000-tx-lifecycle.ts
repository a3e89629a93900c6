import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transaction lifecycle of extensions.md: why a transaction FAILED (`failure_reason`), when
 * it was mined (`mined_at`), the client's deadline (`valid_until`), a pending request to cancel
 * it (`cancel_reason`: the failure reason a mined cancellation gets), and which broadcasts are
 * cancellations (a 0-value self-transfer at the transaction's nonce). Existing rows get the
 * reason their stage and columns imply.
 */
export class TxLifecycle1764610100000 implements MigrationInterface {
  name = 'TxLifecycle1764610100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions
      ADD COLUMN failure_reason varchar(32),
      ADD COLUMN mined_at timestamptz,
      ADD COLUMN valid_until timestamptz,
      ADD COLUMN cancel_reason varchar(16)`);
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_failure_reason CHECK (
        failure_reason IN ('reverted', 'simulation_reverted', 'expired', 'cancelled', 'not_sent', 'exchange_rejected'))`);
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_cancel_reason CHECK (cancel_reason IN ('expired', 'cancelled'))`);
    await q.query(`UPDATE relay_transactions SET failure_reason = CASE
        WHEN stage = 'reverted' THEN 'reverted'
        WHEN to_address IS NULL AND estimated_cost_micro = 0 AND nonce IS NULL THEN 'exchange_rejected'
        ELSE 'not_sent' END
      WHERE status = 'FAILED'`);
    await q.query(`UPDATE relay_transactions SET mined_at = settled_at WHERE receipt IS NOT NULL`);
    // The in-flight ones with a deadline are few: a partial index keeps the expiry scan cheap.
    await q.query(`CREATE INDEX relay_transactions_valid_until ON relay_transactions (valid_until) WHERE valid_until IS NOT NULL AND status = 'PENDING'`);
    await q.query(`ALTER TABLE relay_broadcasts ADD COLUMN kind varchar(8) NOT NULL DEFAULT 'call' CHECK (kind IN ('call', 'cancel'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_broadcasts DROP COLUMN kind`);
    await q.query(`DROP INDEX relay_transactions_valid_until`);
    await q.query(`ALTER TABLE relay_transactions DROP CONSTRAINT relay_transactions_cancel_reason, DROP CONSTRAINT relay_transactions_failure_reason`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN failure_reason, DROP COLUMN mined_at, DROP COLUMN valid_until, DROP COLUMN cancel_reason`);
  }
}
