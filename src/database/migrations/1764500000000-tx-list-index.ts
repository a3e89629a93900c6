import { MigrationInterface, QueryRunner } from 'typeorm';

/** GET /api/txs: an account's transactions newest first, paged by (created_at, id). */
export class TxListIndex1764500000000 implements MigrationInterface {
  name = 'TxListIndex1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX relay_transactions_user_created_idx ON relay_transactions (user_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX relay_transactions_user_created_idx`);
  }
}
