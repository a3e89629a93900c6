import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A webhook's circuit: failed attempts in a row (and the last one's error), and until when its attempts are short-circuited
 * (while the circuit is open; once past, one trial attempt moves it forward by the trial's lease).
 */
export class WebhookCircuit1795742554974 implements MigrationInterface {
  name = 'WebhookCircuit1795742554974';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0, ADD COLUMN circuit_open_until timestamptz, ADD COLUMN last_failure text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhooks DROP COLUMN consecutive_failures, DROP COLUMN circuit_open_until, DROP COLUMN last_failure`);
  }
}
