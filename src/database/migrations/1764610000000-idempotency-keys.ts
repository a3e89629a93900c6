import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key claims and the answers they replay, per account. The primary key is the
 * race guard (one of two concurrent claims wins); `response` is null while the request runs.
 */
export class IdempotencyKeys1764610000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE idempotency_keys (
      user_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      key varchar(255) NOT NULL,
      request_hash char(64) NOT NULL,
      status_code int,
      response jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, key)
    )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
