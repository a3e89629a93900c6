import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Sql, sql } from '../../database/sql';
import { SqlRunner, SqlStore } from '../../database/sql-store';
import type { AccountEvent } from './account-event';
import type { TxNotification } from './tx-notification';

/** Every statement that writes `tx_status_events` (the outbox of status changes). */
@Injectable()
export class TxStatusEventStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The oldest events no consumer has taken yet, locked for the caller's transaction (other dispatchers skip them). */
  async takeUndispatched(limit: number, runner: SqlRunner): Promise<string[]> {
    const events = await this.rows<{ id: string }>(sql`SELECT id FROM tx_status_events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`, runner);
    return events.map((e) => e.id);
  }

  /** Moves the outbox cursor past these events. */
  async markDispatched(eventIds: string[], runner: SqlRunner): Promise<void> {
    await this.rows(sql`UPDATE tx_status_events SET dispatched_at = now() WHERE id = ANY(${eventIds}::bigint[])`, runner);
  }

  /**
   * An account event (no transaction) into the outbox, in the caller's transaction: the
   * dispatcher turns it into webhook deliveries like a status change. `status` names the event
   * (`deposit` for account.deposit).
   */
  async insertAccountEvent(event: AccountEvent, status: string, runner: SqlRunner): Promise<void> {
    await this.rows(outboxInsert(sql`VALUES (NULL::uuid, ${event.userId}::uuid, ${status}, NULL, ${JSON.stringify(event)}::jsonb)`), runner);
  }

  async insert(notification: TxNotification, runner: SqlRunner): Promise<void> {
    const { txId, userId, status, previousStatus } = notification;
    await this.rows(outboxInsert(sql`VALUES (${txId}::uuid, ${userId}::uuid, ${status}, ${previousStatus}, ${JSON.stringify(notification)}::jsonb)`), runner);
  }
}

/** True for a row aliased `d` (tx_id, event_id) while an earlier event of its transaction is not dispatched yet. */
export const earlierEventUndispatched = sql`EXISTS (SELECT 1 FROM tx_status_events e WHERE e.tx_id = d.tx_id AND e.id < d.event_id AND e.dispatched_at IS NULL)`;

/**
 * The outbox INSERT, for statements that write the status change themselves (one-statement
 * submission and settlement): `rows` yields (tx_id, user_id, status, previous_status, payload).
 */
export function outboxInsert(rows: Sql): Sql {
  return sql`INSERT INTO tx_status_events (tx_id, user_id, status, previous_status, payload) ${rows}`;
}
