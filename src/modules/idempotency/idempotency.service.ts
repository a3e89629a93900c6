import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { IdempotencyKeyStore } from './idempotency-key.store';

/** How long a key is remembered (extensions.md: 24 h). */
export const IDEMPOTENCY_WINDOW_SEC = 24 * 60 * 60;
/** How long a second request waits for the first one with its key to finish before 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
const POLL_MS = 50;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** A finished request's answer, as it was sent. */
export interface StoredAnswer {
  status: number;
  response: unknown;
}

/**
 * The Idempotency-Key protocol: claim the key before doing the work (the primary key lets
 * one of two racing requests win), store the answer after it, and replay it for the same
 * request; a different request under the same key is RESOURCE_004.
 */
@Injectable()
export class IdempotencyService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(IdempotencyService.name);
  private purgeTimer?: NodeJS.Timeout;

  constructor(private readonly store: IdempotencyKeyStore) {}

  onModuleInit(): void {
    this.purgeTimer = setInterval(() => {
      void this.store.purgeExpired().catch((err: Error) => this.logger.warn(`purging expired idempotency keys: ${err.message}`));
    }, PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.purgeTimer);
  }

  /**
   * null when this request owns the key and must do the work; the stored answer when the same
   * request already finished. Waits (bounded) while the same request is still running elsewhere.
   */
  async begin(userId: string, key: string, hash: string, waitMs = IDEMPOTENCY_WAIT_MS): Promise<StoredAnswer | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (await this.store.claim(userId, key, hash, IDEMPOTENCY_WINDOW_SEC)) return null;
      const row = await this.store.find(userId, key);
      if (row) {
        if (row.request_hash !== hash) throw new AppError('RESOURCE_004');
        if (row.status_code !== null) return { status: row.status_code, response: row.response };
      }
      if (Date.now() >= deadline) throw new AppError('RESOURCE_004', 'a request with this Idempotency-Key is still in progress; retry it later');
      // The first request is still running (or just gave the key up): look again shortly.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  complete(userId: string, key: string, hash: string, answer: StoredAnswer): Promise<void> {
    return this.store.complete(userId, key, hash, answer.status, answer.response);
  }

  release(userId: string, key: string, hash: string): Promise<void> {
    return this.store.release(userId, key, hash);
  }
}
