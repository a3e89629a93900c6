import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

/** `legacy_derivation_paths`: which account used which derivation path before keys were per account (written once by the migration). */
@Injectable()
export class LegacyDerivationPathStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Whether `userId` used `path` before and no other account did: only then is the path's old key that account's alone. */
  async ownedOnlyBy(userId: string, path: string): Promise<boolean> {
    const rows = await this.rows<{ user_id: string }>(sql`SELECT user_id FROM legacy_derivation_paths WHERE derivation_path = ${path} LIMIT 2`);
    return rows.length === 1 && rows[0].user_id === userId;
  }
}
