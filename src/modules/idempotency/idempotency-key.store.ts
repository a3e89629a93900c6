import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../database/sql';
import { SqlStore } from '../../database/sql-store';

export interface IdempotencyRow {
  request_hash: string;
  status_code: number | null;
  response: unknown;
}

/** Every statement on `idempotency_keys`: one row per (account, key) for its window. */
@Injectable()
export class IdempotencyKeyStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Claims the key for this request, or takes over an expired claim; true when this request
   * owns it. The primary key decides a race: exactly one of two concurrent claims gets a row.
   */
  async claim(userId: string, key: string, hash: string, windowSec: number): Promise<boolean> {
    const rows = await this.rows(sql`
      INSERT INTO idempotency_keys (user_id, key, request_hash, expires_at)
      VALUES (${userId}::uuid, ${key}, ${hash}, now() + make_interval(secs => ${windowSec}))
      ON CONFLICT (user_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, status_code = NULL, response = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= now()
      RETURNING 1`);
    return rows.length > 0;
  }

  /** The live row of a key (expired ones count as absent). */
  find(userId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.first<IdempotencyRow>(sql`SELECT request_hash, status_code, response FROM idempotency_keys
       WHERE user_id = ${userId}::uuid AND key = ${key} AND expires_at > now()`);
  }

  async complete(userId: string, key: string, hash: string, status: number, response: unknown): Promise<void> {
    await this.rows(sql`UPDATE idempotency_keys SET status_code = ${status}, response = ${JSON.stringify(response ?? null)}::jsonb
       WHERE user_id = ${userId}::uuid AND key = ${key} AND request_hash = ${hash} AND status_code IS NULL`);
  }

  /** Gives an unfinished claim up (the request failed before creating anything). */
  async release(userId: string, key: string, hash: string): Promise<void> {
    await this.rows(sql`DELETE FROM idempotency_keys WHERE user_id = ${userId}::uuid AND key = ${key} AND request_hash = ${hash} AND status_code IS NULL`);
  }

  async purgeExpired(): Promise<number> {
    return (await this.rows(sql`DELETE FROM idempotency_keys WHERE expires_at <= now() RETURNING 1`)).length;
  }
}
