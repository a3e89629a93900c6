import { MigrationInterface, QueryRunner } from 'typeorm';

/** The native USD price a settled transaction's cost was converted at (NULL before this column existed, or when nothing was priced). */
export class NativePriceUsd1795742347423 implements MigrationInterface {
  name = 'NativePriceUsd1795742347423';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions ADD COLUMN native_price_usd numeric(30, 6)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN native_price_usd`);
  }
}
