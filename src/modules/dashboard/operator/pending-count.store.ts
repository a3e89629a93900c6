import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

/** The operator figures' one read of relay_transactions: how many are PENDING (the partial index relay_transactions_pending_idx answers it). */
@Injectable()
export class PendingCountStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async pending(): Promise<number> {
    const [row] = await this.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM relay_transactions WHERE status = 'PENDING'`);
    return row?.n ?? 0;
  }
}
