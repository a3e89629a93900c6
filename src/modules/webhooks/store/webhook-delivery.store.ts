import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import { earlierEventUndispatched } from '../../tx-events/statements';
import type { WebhookAuthType } from '../entities/webhook.entity';

/** A delivery claimed for one attempt, with everything the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  /** Null for an account event. */
  txId: string | null;
  userId: string;
  attempts: number;
  url: string;
  authType: WebhookAuthType;
  secretSealed: string | null;
  apiKeyVar: string | null;
  enabled: boolean;
  signingSealed: string | null;
  payload: Record<string, unknown>;
  eventCreatedAt: Date;
}

export interface DueDelivery {
  id: string;
  attempts: number;
  delayMs: number;
}

export interface DueHead extends DueDelivery {
  userId: string;
}

export interface DeadLetterRow {
  id: string;
  userId: string;
  webhookId: string;
  url: string;
  txId: string | null;
  txStatus: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deadAt: Date;
}

export interface RecentDeliveryRow {
  id: string;
  webhookId: string;
  url: string;
  txId: string;
  txStatus: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
}

/** An earlier delivery of the same transaction to the same webhook is still open, or an earlier event is not dispatched yet. */
const BLOCKED = sql`(
  EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.tx_id = d.tx_id AND p.event_id < d.event_id AND p.status = 'pending')
  OR ${earlierEventUndispatched}
)`;

/**
 * The `webhook_deliveries` table: turning outbox events into delivery rows, claiming an
 * attempt, recording its outcome, dead letters. Every state change is a conditional UPDATE,
 * so duplicate jobs and several workers cannot make two attempts of the same number.
 */
@Injectable()
export class WebhookDeliveryStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** A pending delivery per enabled webhook of each event's account (events from tx_status_events). */
  createForEvents(eventIds: string[], em: EntityManager): Promise<Array<{ id: string; userId: string }>> {
    return this.rows<{ id: string; userId: string }>(
      // event_created_at is the partition key (migration TimePartitions): a delivery lives in its event's month.
      sql`INSERT INTO webhook_deliveries (webhook_id, event_id, event_created_at, tx_id, user_id, status, next_attempt_at)
          SELECT w.id, e.id, e.created_at, e.tx_id, e.user_id, 'pending', now()
            FROM tx_status_events e JOIN webhooks w ON w.user_id = e.user_id AND w.enabled
                 -- A registration's event filter (null: every event).
                 AND (w.events IS NULL OR (e.payload->>'event') = ANY(w.events))
           WHERE e.id = ANY(${eventIds}::bigint[])
           ORDER BY e.id, w.position
          ON CONFLICT (webhook_id, event_id, event_created_at) DO NOTHING
          RETURNING id::text AS id, user_id AS "userId"`,
      em,
    );
  }

  /**
   * Claims attempt number `attemptsMade + 1`: only if the row still has that many attempts, is
   * pending, and is next in its transaction's order. The lease keeps the sweep away while the
   * attempt runs; if the worker dies, the sweep retries once the lease is over.
   */
  async claim(deliveryId: string, attemptsMade: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const claimed = await this.first<ClaimedDelivery>(
      sql`WITH claimed AS (
            UPDATE webhook_deliveries d
               SET attempts = d.attempts + 1, next_attempt_at = now() + ${leaseMs} * interval '1 millisecond', updated_at = now()
             WHERE d.id = ${deliveryId} AND d.status = 'pending' AND d.attempts = ${attemptsMade} AND NOT ${BLOCKED}
             RETURNING d.*
          )
          SELECT c.id::text AS id, c.webhook_id AS "webhookId", c.event_id::text AS "eventId", c.tx_id AS "txId", c.user_id AS "userId",
                 c.attempts, w.url, w.auth_type AS "authType", w.secret_sealed AS "secretSealed", w.api_key_var AS "apiKeyVar",
                 w.enabled, k.secret_sealed AS "signingSealed", e.payload, e.created_at AS "eventCreatedAt"
            FROM claimed c
            JOIN webhooks w ON w.id = c.webhook_id
            JOIN tx_status_events e ON e.id = c.event_id
            LEFT JOIN webhook_signing_keys k ON k.user_id = c.user_id`,
    );
    return claimed ?? null;
  }

  async markDelivered(id: string, statusCode: number): Promise<void> {
    await this.rows(
      sql`UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status_code = ${statusCode}, last_error = NULL, updated_at = now()
           WHERE id = ${id} AND status = 'pending'`,
    );
  }

  async markCancelled(id: string): Promise<void> {
    await this.rows(sql`UPDATE webhook_deliveries SET status = 'cancelled', last_error = 'webhook disabled', updated_at = now() WHERE id = ${id} AND status = 'pending'`);
  }

  /** A failed attempt: schedules the next one after `retryDelayMs`, or dead-letters when there is none. */
  async markFailed(id: string, statusCode: number | null, error: string, retryDelayMs: number | null): Promise<'retry' | 'dead'> {
    const lastError = error.slice(0, 1000);
    if (retryDelayMs === null) {
      await this.rows(
        sql`UPDATE webhook_deliveries SET status = 'dead', dead_at = now(), last_status_code = ${statusCode}, last_error = ${lastError}, updated_at = now()
             WHERE id = ${id} AND status = 'pending'`,
      );
      return 'dead';
    }
    await this.rows(
      sql`UPDATE webhook_deliveries SET next_attempt_at = now() + ${retryDelayMs} * interval '1 millisecond', last_status_code = ${statusCode}, last_error = ${lastError}, updated_at = now()
           WHERE id = ${id} AND status = 'pending'`,
    );
    return 'retry';
  }

  /** The open delivery that is now first in line for this transaction and webhook, if any. */
  async nextInLine(webhookId: string, txId: string | null): Promise<DueDelivery | null> {
    // Account events are not ordered behind one another: nothing waits for them.
    if (txId === null) return null;
    const next = await this.first<DueDelivery>(
      sql`SELECT id::text AS id, attempts, GREATEST(0, EXTRACT(EPOCH FROM (next_attempt_at - now())) * 1000)::int AS "delayMs"
            FROM webhook_deliveries WHERE webhook_id = ${webhookId} AND tx_id = ${txId} AND status = 'pending' ORDER BY event_id LIMIT 1`,
    );
    return next ?? null;
  }

  /** Pending deliveries that are due and first in line: the sweep's safety net for lost jobs. */
  dueHeads(limit: number): Promise<DueHead[]> {
    return this.rows<DueHead>(
      sql`SELECT d.id::text AS id, d.attempts, 0 AS "delayMs", d.user_id AS "userId" FROM webhook_deliveries d
           WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND NOT ${BLOCKED}
           ORDER BY d.next_attempt_at LIMIT ${limit}`,
    );
  }

  /** Dead letters, newest first, of one account or of all (`userId` null); the status comes from the event (tx_status_events). */
  deadLetters(userId: string | null, limit: number): Promise<DeadLetterRow[]> {
    return this.rows<DeadLetterRow>(
      sql`SELECT d.id::text AS id, d.user_id AS "userId", d.webhook_id AS "webhookId", w.url, d.tx_id AS "txId", e.status AS "txStatus",
                 d.attempts, d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.created_at AS "createdAt", d.dead_at AS "deadAt"
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN tx_status_events e ON e.id = d.event_id
           WHERE d.status = 'dead' AND (${userId}::uuid IS NULL OR d.user_id = ${userId})
           ORDER BY d.dead_at DESC, d.id DESC LIMIT ${limit}`,
    );
  }

  /** The account's latest deliveries of every status, newest first (the dashboard's webhook panel). */
  recentOf(userId: string, limit: number): Promise<RecentDeliveryRow[]> {
    return this.rows<RecentDeliveryRow>(
      sql`SELECT d.id::text AS id, d.webhook_id AS "webhookId", w.url, d.tx_id AS "txId", e.status AS "txStatus", d.status,
                 d.attempts, d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.created_at AS "createdAt",
                 d.delivered_at AS "deliveredAt", d.dead_at AS "deadAt"
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN tx_status_events e ON e.id = d.event_id
           WHERE d.user_id = ${userId}
           ORDER BY d.id DESC LIMIT ${limit}`,
    );
  }

  /**
   * A dead letter back to pending with a fresh schedule; false when `id` is no dead letter (of
   * `userId`'s account when given, so a team replays only its own).
   */
  async replay(id: string, userId: string | null = null): Promise<boolean> {
    const replayed = await this.rows<{ id: string }>(
      sql`UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(), dead_at = NULL, updated_at = now()
           WHERE id = ${id} AND status = 'dead' AND (${userId}::uuid IS NULL OR user_id = ${userId}) RETURNING id::text AS id`,
    );
    return replayed.length > 0;
  }
}
