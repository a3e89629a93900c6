import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account policy (extensions.md, "Account policy"): allowed targets, the approval webhook (its
 * secret sealed like webhook secrets), the low-balance threshold with its once-per-crossing
 * state, and account events in the webhook outbox (rows without a transaction).
 */
export class AccountPolicy1764600000000 implements MigrationInterface {
  name = 'AccountPolicy1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE accounts
        ADD COLUMN allowed_targets jsonb NOT NULL DEFAULT '[]'::jsonb,
        ADD COLUMN low_balance_threshold_micro bigint CHECK (low_balance_threshold_micro >= 0),
        ADD COLUMN low_balance_alerted boolean NOT NULL DEFAULT false,
        ADD COLUMN approval_webhook_url text,
        ADD COLUMN approval_webhook_secret_sealed text,
        ADD COLUMN approval_webhook_enabled boolean NOT NULL DEFAULT false,
        ADD CONSTRAINT accounts_approval_webhook_complete CHECK ((approval_webhook_url IS NULL) = (approval_webhook_secret_sealed IS NULL))`);
    await q.query(`ALTER TABLE tx_status_events ALTER COLUMN tx_id DROP NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN tx_id DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Account events have no transaction; their deliveries go with them (ON DELETE CASCADE).
    await q.query(`DELETE FROM tx_status_events WHERE tx_id IS NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN tx_id SET NOT NULL`);
    await q.query(`ALTER TABLE tx_status_events ALTER COLUMN tx_id SET NOT NULL`);
    await q.query(`
      ALTER TABLE accounts
        DROP CONSTRAINT accounts_approval_webhook_complete,
        DROP COLUMN approval_webhook_enabled,
        DROP COLUMN approval_webhook_secret_sealed,
        DROP COLUMN approval_webhook_url,
        DROP COLUMN low_balance_alerted,
        DROP COLUMN low_balance_threshold_micro,
        DROP COLUMN allowed_targets`);
  }
}
