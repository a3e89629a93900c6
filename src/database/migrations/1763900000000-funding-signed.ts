import { MigrationInterface, QueryRunner } from 'typeorm';

/** The top-up transfer of a funding-signed transaction (POST /api/submit-signed-tx). */
export class FundingSigned1763900000000 implements MigrationInterface {
  name = 'FundingSigned1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN funding_tx_hash varchar(66)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN funding_tx_hash`);
  }
}
