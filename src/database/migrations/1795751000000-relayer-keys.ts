import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lifecycle of each relayer key, shared by every process: `active` takes new work,
 * `draining` (retire asked) takes none while its in-flight transactions finish and its balance
 * is swept to the treasury, `retired` is done. A key with no row is active (rows are written
 * as keys are first seen).
 */
export class RelayerKeys1795751000000 implements MigrationInterface {
  name = 'RelayerKeys1795751000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE relayer_keys (
        address varchar(42) PRIMARY KEY,
        region varchar(64) NOT NULL,
        signer varchar(16) NOT NULL CHECK (signer IN ('local', 'pkcs11')),
        state varchar(16) NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'draining', 'retired')),
        state_changed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE relayer_keys`);
  }
}
