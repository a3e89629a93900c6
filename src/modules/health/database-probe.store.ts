import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';
import { SqlStore } from '../../database/sql-store';

/** The health check's round trip to the database (no table). */
@Injectable()
export class DatabaseProbe extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async ping(): Promise<void> {
    await this.rows(sql`SELECT 1`);
  }
}
