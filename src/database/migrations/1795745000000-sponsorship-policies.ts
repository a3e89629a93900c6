import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sponsorship policies per end user (extensions.md): a team's policies with their usage
 * counters (spent, reserved, count: what the reservation statement checks and moves), the usage
 * of each end user in its current window, and on each relayed transaction the policy that
 * sponsored it with what it counted there (so settlement and release give back exactly that,
 * and only to the window it was counted in). Webhook registrations gain their event filter.
 */
export class SponsorshipPolicies1795745000000 implements MigrationInterface {
  name = 'SponsorshipPolicies1795745000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE sponsorship_policies (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name varchar(100) NOT NULL,
      enabled boolean NOT NULL DEFAULT true,
      chain_ids integer[],
      targets jsonb,
      starts_at timestamptz,
      ends_at timestamptz,
      budget_micro bigint CHECK (budget_micro >= 0),
      per_user_max_micro bigint CHECK (per_user_max_micro >= 0),
      per_user_max_txs integer CHECK (per_user_max_txs >= 0),
      per_user_window_seconds integer CHECK (per_user_window_seconds > 0),
      allow_end_users varchar(42)[],
      deny_end_users varchar(42)[],
      max_gas_price_wei numeric(78, 0) CHECK (max_gas_price_wei > 0),
      spent_micro bigint NOT NULL DEFAULT 0,
      reserved_micro bigint NOT NULL DEFAULT 0 CHECK (reserved_micro >= 0),
      tx_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX sponsorship_policies_user_idx ON sponsorship_policies (user_id, created_at, id)`);
    await q.query(`CREATE TABLE sponsorship_policy_end_users (
      policy_id uuid NOT NULL REFERENCES sponsorship_policies(id) ON DELETE CASCADE,
      end_user varchar(42) NOT NULL,
      window_start timestamptz NOT NULL,
      spent_micro bigint NOT NULL DEFAULT 0,
      reserved_micro bigint NOT NULL DEFAULT 0 CHECK (reserved_micro >= 0),
      tx_count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (policy_id, end_user)
    )`);
    await q.query(`ALTER TABLE relay_transactions
      ADD COLUMN policy_id uuid,
      ADD COLUMN end_user varchar(42),
      ADD COLUMN policy_reserved_micro bigint,
      ADD COLUMN policy_window_start timestamptz,
      ADD COLUMN max_gas_price_wei numeric(78, 0)`);
    await q.query(`ALTER TABLE webhooks ADD COLUMN events text[]`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks DROP COLUMN events`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN policy_id, DROP COLUMN end_user, DROP COLUMN policy_reserved_micro, DROP COLUMN policy_window_start, DROP COLUMN max_gas_price_wei`);
    await q.query(`DROP TABLE sponsorship_policy_end_users`);
    await q.query(`DROP TABLE sponsorship_policies`);
  }
}
