import { Inject, Injectable, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { REDIS } from '../../redis/redis.module';
import { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './sliding-window.script';

/** Overrides the one-minute window (tests use a short one instead of sleeping a minute). */
export const RATE_LIMIT_WINDOW_MS = Symbol('RATE_LIMIT_WINDOW_MS');
const ONE_MINUTE_MS = 60_000;

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window, i.e. until a slot frees up. */
  resetSeconds: number;
  /** Only when denied. */
  retryAfterSeconds?: number;
}

/** Per-key sliding window shared by every API instance through Redis. */
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Optional() @Inject(RATE_LIMIT_WINDOW_MS) private readonly windowMs: number = ONE_MINUTE_MS,
  ) {}

  /**
   * Counts one request against `keyId` if it fits in `limitPerMinute` (per window, when the
   * window was overridden). Rejects when Redis fails; whether that blocks the request is the
   * caller's decision.
   */
  async consume(keyId: string, limitPerMinute: number): Promise<RateLimitResult> {
    const reply = await this.runScript(`rate-limit:${keyId}`, [limitPerMinute, this.windowMs, randomUUID()]);
    const [allowed, count, resetMs] = parseReply(reply);
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    return {
      allowed: allowed === 1,
      limit: limitPerMinute,
      remaining: Math.max(0, limitPerMinute - count),
      resetSeconds,
      ...(allowed === 1 ? {} : { retryAfterSeconds: resetSeconds }),
    };
  }

  // EVALSHA saves sending the script on every request; Redis forgets scripts on restart or
  // SCRIPT FLUSH, so a NOSCRIPT answer falls back to EVAL (which caches it again).
  private async runScript(key: string, args: Array<string | number>): Promise<unknown> {
    try {
      return await this.redis.evalsha(SLIDING_WINDOW_SHA, 1, key, ...args);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('NOSCRIPT')) return this.redis.eval(SLIDING_WINDOW_SCRIPT, 1, key, ...args);
      throw err;
    }
  }
}

function parseReply(reply: unknown): [number, number, number] {
  if (Array.isArray(reply) && reply.length === 3 && reply.every((v) => typeof v === 'number')) return [reply[0], reply[1], reply[2]];
  throw new Error(`unexpected rate-limit script reply: ${JSON.stringify(reply)}`);
}
