import { MigrationInterface, QueryRunner } from 'typeorm';

/** Webhook registrations, per-account signing secrets, durable deliveries, and the outbox cursor. */
export class Webhooks1764000000000 implements MigrationInterface {
  name = 'Webhooks1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        position int NOT NULL,
        url text NOT NULL,
        auth_type varchar(16) NOT NULL CHECK (auth_type IN ('none', 'bearer', 'basic', 'api-key')),
        secret_sealed text,
        api_key_var varchar(128),
        api_key_placement varchar(16) NOT NULL DEFAULT 'header',
        enabled boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (auth_type = 'none' OR secret_sealed IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX webhooks_user_idx ON webhooks (user_id, position)`);
    await q.query(`
      CREATE TABLE webhook_signing_keys (
        user_id uuid PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        secret_sealed text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        rotated_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id bigserial PRIMARY KEY,
        webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id bigint NOT NULL REFERENCES tx_status_events(id) ON DELETE CASCADE,
        tx_id uuid NOT NULL,
        user_id uuid NOT NULL,
        status varchar(16) NOT NULL CHECK (status IN ('pending', 'delivered', 'dead', 'cancelled')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_status_code int,
        last_error text,
        delivered_at timestamptz,
        dead_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (webhook_id, event_id)
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_chain_idx ON webhook_deliveries (webhook_id, tx_id, event_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_dead_idx ON webhook_deliveries (dead_at DESC) WHERE status = 'dead'`);
    // Events from before webhooks existed have no one to go to; the cursor starts after them.
    await q.query(`ALTER TABLE tx_status_events ADD COLUMN dispatched_at timestamptz`);
    await q.query(`UPDATE tx_status_events SET dispatched_at = created_at`);
    await q.query(`CREATE INDEX tx_status_events_undispatched_idx ON tx_status_events (id) WHERE dispatched_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX tx_status_events_undispatched_idx`);
    await q.query(`ALTER TABLE tx_status_events DROP COLUMN dispatched_at`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_signing_keys`);
    await q.query(`DROP TABLE webhooks`);
  }
}
