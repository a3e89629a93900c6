import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Sql, sql } from '../../database/sql';
import { SqlRunner, SqlStore } from '../../database/sql-store';
import type { TxNotification } from './tx-notification';

/** Every statement that writes `tx_status_events` (the outbox of status changes). */
@Injectable()
export class TxStatusEventStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insert(notification: TxNotification, runner: SqlRunner): Promise<void> {
    const { txId, userId, status, previousStatus } = notification;
    await this.rows(outboxInsert(sql`VALUES (${txId}::uuid, ${userId}::uuid, ${status}, ${previousStatus}, ${JSON.stringify(notification)}::jsonb)`), runner);
  }
}

/**
 * The outbox INSERT, for statements that write the status change themselves (one-statement
 * submission and settlement): `rows` yields (tx_id, user_id, status, previous_status, payload).
 */
export function outboxInsert(rows: Sql): Sql {
  return sql`INSERT INTO tx_status_events (tx_id, user_id, status, previous_status, payload) ${rows}`;
}
