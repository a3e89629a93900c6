import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../../../config/app-config';
import { REDIS } from '../../../redis/redis.module';
import type { AuthenticatedKey } from './authenticated-key';

/** Bounds memory whatever the number of keys in use; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

/**
 * Authenticated keys by hash for API_KEY_CACHE_MS, so a busy key costs no database read per
 * request. Anything that changes what authentication returns (a revocation, an account's
 * settings) calls `changed()`, which clears this process's copy and, through Redis, every other
 * instance's. A read that started before a change is not cached (generation check), so a change
 * is never undone by a slow lookup.
 */
@Injectable()
export class ApiKeyCache implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeyCache.name);
  private readonly entries = new Map<string, { key: AuthenticatedKey; expiresAt: number }>();
  private generation = 0;
  private subscriber?: Redis;

  constructor(
    private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** The cached key, or the result of `load` (cached when the cache is on and nothing changed meanwhile). */
  async get(hash: string, load: () => Promise<AuthenticatedKey>): Promise<AuthenticatedKey> {
    const ttl = this.config.API_KEY_CACHE_MS;
    if (ttl === 0) return load();
    this.subscribe();
    const hit = this.entries.get(hash);
    if (hit && hit.expiresAt > Date.now()) return hit.key;
    const generation = this.generation;
    const key = await load();
    if (generation === this.generation) {
      this.entries.delete(hash);
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(hash, { key, expiresAt: Date.now() + ttl });
    }
    return key;
  }

  /** After a change to keys or accounts is committed: forget every cached key here and on every instance. */
  async changed(): Promise<void> {
    this.clear();
    try {
      await this.redis.publish(this.channel(), '1');
    } catch (err) {
      this.logger.warn(`could not tell other instances to drop cached API keys (they expire within ${this.config.API_KEY_CACHE_MS} ms): ${(err as Error).message}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Only processes that authenticate listen (the admin CLI publishes and exits). */
  private subscribe(): void {
    if (this.subscriber) return;
    const subscriber = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('message', () => this.clear());
    // A lost subscription could miss changes: drop everything whenever it (re)connects.
    subscriber.on('ready', () => this.clear());
    subscriber.on('error', (err: Error) => this.logger.warn(`API key change subscription: ${err.message}`));
    subscriber.subscribe(this.channel()).catch((err: Error) => this.logger.warn(`API key change subscription: ${err.message}`));
  }

  /** The shared connection adds the key prefix to keys, not to channels: the prefix goes in here. */
  private channel(): string {
    return `${this.config.REDIS_PREFIX}:api-key-changes`;
  }
}
