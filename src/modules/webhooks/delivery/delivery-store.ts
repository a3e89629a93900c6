import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { returningRows } from '../../../database/returning-rows';
import type { WebhookAuthType } from '../entities/webhook.entity';

/** A delivery claimed for one attempt, with everything the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  txId: string;
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

/** An earlier delivery of the same transaction to the same webhook is still open, or an earlier event is not dispatched yet. */
const BLOCKED = `(
  EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.webhook_id = d.webhook_id AND p.tx_id = d.tx_id AND p.event_id < d.event_id AND p.status = 'pending')
  OR EXISTS (SELECT 1 FROM tx_status_events e WHERE e.tx_id = d.tx_id AND e.id < d.event_id AND e.dispatched_at IS NULL)
)`;

/**
 * The SQL behind delivery: turning outbox events into delivery rows, claiming an attempt,
 * recording its outcome. Every state change is a conditional UPDATE, so duplicate jobs and
 * several workers cannot make two attempts of the same number.
 */
@Injectable()
export class DeliveryStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes a batch of undispatched events (rows locked, other dispatchers skip them), creates a
   * delivery per enabled webhook of the event's account, and moves the cursor, in one
   * transaction. Returns the new deliveries and how many events were taken.
   */
  async dispatchBatch(limit: number): Promise<{ events: number; deliveries: Array<{ id: string }> }> {
    return this.dataSource.transaction(async (em) => {
      const events: Array<{ id: string }> = await em.query(
        `SELECT id FROM tx_status_events WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (events.length === 0) return { events: 0, deliveries: [] };
      const ids = events.map((e) => e.id);
      const deliveries = returningRows<{ id: string }>(await em.query(
        `INSERT INTO webhook_deliveries (webhook_id, event_id, tx_id, user_id, status, next_attempt_at)
         SELECT w.id, e.id, e.tx_id, e.user_id, 'pending', now()
           FROM tx_status_events e JOIN webhooks w ON w.user_id = e.user_id AND w.enabled
          WHERE e.id = ANY($1::bigint[])
          ORDER BY e.id, w.position
         ON CONFLICT (webhook_id, event_id) DO NOTHING
         RETURNING id::text AS id`,
        [ids],
      ));
      await em.query(`UPDATE tx_status_events SET dispatched_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
      return { events: ids.length, deliveries };
    });
  }

  /**
   * Claims attempt number `attemptsMade + 1`: only if the row still has that many attempts, is
   * pending, and is next in its transaction's order. The lease keeps the sweep away while the
   * attempt runs; if the worker dies, the sweep retries once the lease is over.
   */
  async claim(deliveryId: string, attemptsMade: number, leaseMs: number): Promise<ClaimedDelivery | null> {
    const rows = returningRows<ClaimedDelivery>(await this.dataSource.query(
      `WITH claimed AS (
         UPDATE webhook_deliveries d
            SET attempts = d.attempts + 1, next_attempt_at = now() + $3 * interval '1 millisecond', updated_at = now()
          WHERE d.id = $1 AND d.status = 'pending' AND d.attempts = $2 AND NOT ${BLOCKED}
          RETURNING d.*
       )
       SELECT c.id::text AS id, c.webhook_id AS "webhookId", c.event_id::text AS "eventId", c.tx_id AS "txId", c.user_id AS "userId",
              c.attempts, w.url, w.auth_type AS "authType", w.secret_sealed AS "secretSealed", w.api_key_var AS "apiKeyVar",
              w.enabled, k.secret_sealed AS "signingSealed", e.payload, e.created_at AS "eventCreatedAt"
         FROM claimed c
         JOIN webhooks w ON w.id = c.webhook_id
         JOIN tx_status_events e ON e.id = c.event_id
         LEFT JOIN webhook_signing_keys k ON k.user_id = c.user_id`,
      [deliveryId, attemptsMade, leaseMs],
    ));
    return rows[0] ?? null;
  }

  async markDelivered(id: string, statusCode: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = now(), last_status_code = $2, last_error = NULL, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [id, statusCode],
    );
  }

  async markCancelled(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE webhook_deliveries SET status = 'cancelled', last_error = 'webhook disabled', updated_at = now() WHERE id = $1 AND status = 'pending'`, [id]);
  }

  /** A failed attempt: schedules the next one after `retryDelayMs`, or dead-letters when there is none. */
  async markFailed(id: string, statusCode: number | null, error: string, retryDelayMs: number | null): Promise<'retry' | 'dead'> {
    if (retryDelayMs === null) {
      await this.dataSource.query(
        `UPDATE webhook_deliveries SET status = 'dead', dead_at = now(), last_status_code = $2, last_error = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`,
        [id, statusCode, error.slice(0, 1000)],
      );
      return 'dead';
    }
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET next_attempt_at = now() + $4 * interval '1 millisecond', last_status_code = $2, last_error = $3, updated_at = now() WHERE id = $1 AND status = 'pending'`,
      [id, statusCode, error.slice(0, 1000), retryDelayMs],
    );
    return 'retry';
  }

  /** The open delivery that is now first in line for this transaction and webhook, if any. */
  async nextInLine(webhookId: string, txId: string): Promise<DueDelivery | null> {
    const rows = await this.dataSource.query(
      `SELECT id::text AS id, attempts, GREATEST(0, EXTRACT(EPOCH FROM (next_attempt_at - now())) * 1000)::int AS "delayMs"
         FROM webhook_deliveries WHERE webhook_id = $1 AND tx_id = $2 AND status = 'pending' ORDER BY event_id LIMIT 1`,
      [webhookId, txId],
    );
    return (rows[0] as DueDelivery | undefined) ?? null;
  }

  /** Pending deliveries that are due and first in line: the sweep's safety net for lost jobs. */
  async dueHeads(limit: number): Promise<DueDelivery[]> {
    return this.dataSource.query(
      `SELECT d.id::text AS id, d.attempts, 0 AS "delayMs" FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND NOT ${BLOCKED}
        ORDER BY d.next_attempt_at LIMIT $1`,
      [limit],
    );
  }
}
