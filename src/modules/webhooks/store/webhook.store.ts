import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import { WebhookEntity } from '../entities/webhook.entity';

export interface CircuitGate {
  open: boolean;
  openUntil: Date | null;
  trial: boolean;
  /** Failed attempts in a row, and the last one's error (for the short-circuited attempt's record). */
  failures: number;
  lastFailure: string | null;
}

/** The `webhooks` table: each account's registered set, in position order. */
@Injectable()
export class WebhookStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * The circuit of the webhook a delivery goes to, asked before an attempt. `open`: attempts are
   * short-circuited until `openUntil`. Once that time has passed the first asker takes the trial
   * (`trial`: the open time moves forward by `trialLeaseMs`, so every other asker still sees it
   * open while the trial runs, and a trial whose worker died frees itself).
   */
  async circuitGate(deliveryId: string, trialLeaseMs: number): Promise<CircuitGate> {
    // One statement: the SELECT sees the row as it was before the trial's UPDATE.
    const row = await this.first<CircuitGate>(
      sql`WITH trial AS (
            UPDATE webhooks w SET circuit_open_until = now() + ${trialLeaseMs} * interval '1 millisecond'
              FROM webhook_deliveries d
             WHERE d.id = ${deliveryId} AND w.id = d.webhook_id AND w.circuit_open_until <= now()
            RETURNING w.id
          )
          SELECT COALESCE(w.circuit_open_until > now(), false) AS open, w.circuit_open_until AS "openUntil", EXISTS (SELECT 1 FROM trial) AS trial,
                 w.consecutive_failures AS failures, w.last_failure AS "lastFailure"
            FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id = ${deliveryId}`,
    );
    return row ?? { open: false, openUntil: null, trial: false, failures: 0, lastFailure: null };
  }

  /** A trial that sent nothing (its delivery was not claimable): the next attempt may take it at once. */
  async releaseTrial(deliveryId: string): Promise<void> {
    await this.rows(
      sql`UPDATE webhooks w SET circuit_open_until = now() FROM webhook_deliveries d
           WHERE d.id = ${deliveryId} AND w.id = d.webhook_id AND w.circuit_open_until > now()`,
    );
  }

  /**
   * A real attempt's outcome: a success closes the circuit; a failure counts, and the
   * `failuresToOpen`-th in a row (or a failed trial) opens it for `cooldownMs`.
   */
  async recordAttempt(webhookId: string, error: string | null, failuresToOpen: number, cooldownMs: number): Promise<{ opened: boolean }> {
    const ok = error === null;
    if (ok) {
      await this.rows(sql`UPDATE webhooks SET consecutive_failures = 0, circuit_open_until = NULL WHERE id = ${webhookId} AND (consecutive_failures > 0 OR circuit_open_until IS NOT NULL)`);
      return { opened: false };
    }
    const row = await this.first<{ opened: boolean }>(
      sql`UPDATE webhooks SET consecutive_failures = consecutive_failures + 1, last_failure = ${error?.slice(0, 500) ?? null},
                 circuit_open_until = CASE WHEN consecutive_failures + 1 >= ${failuresToOpen} THEN now() + ${cooldownMs} * interval '1 millisecond' ELSE circuit_open_until END
           WHERE id = ${webhookId}
          RETURNING consecutive_failures >= ${failuresToOpen} AS opened`,
    );
    return { opened: row?.opened ?? false };
  }

  /** Serialises registrations of one account without touching the account row the relay locks. */
  async lockSetOf(userId: string, em: EntityManager): Promise<void> {
    await this.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${userId}`}))`, em);
  }

  listOf(userId: string, em?: EntityManager): Promise<WebhookEntity[]> {
    em ??= this.manager();
    return em.getRepository(WebhookEntity).find({ where: { userId }, order: { position: 'ASC' } });
  }

  /** An unsaved row (no statement runs). */
  build(fields: DeepPartial<WebhookEntity>): WebhookEntity {
    return this.manager().create(WebhookEntity, fields);
  }

  async remove(ids: string[], em: EntityManager): Promise<void> {
    if (ids.length) await em.getRepository(WebhookEntity).delete(ids);
  }

  async saveAll(rows: WebhookEntity[], em: EntityManager): Promise<void> {
    if (rows.length) await em.getRepository(WebhookEntity).save(rows);
  }
}
