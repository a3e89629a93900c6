import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '../../../../redis/redis.module';
import { pickKey } from '../../core/key-choice';

/**
 * Who holds the in-flight slots of every relayer key, for all worker processes together
 * (RELAY_MAX_IN_FLIGHT_PER_KEY is a bound per key, not per process). A slot is a lease: its
 * process renews it while it holds it (`renew`), so the slots of a process that died (SIGKILL,
 * lost host) come back on their own once their lease runs out, within SLOT_LEASE_MS.
 */
export interface SlotLedger {
  /** A slot for `txId` on the least loaded of `keys` under its cap (ties from `start`); its index, or -1 when all are full. The same txId gets its key back. */
  take(keys: readonly string[], caps: readonly number[], txId: string, start: number): Promise<number>;
  /** Frees the transaction's slot, whichever process took it. Idempotent. */
  release(txId: string): Promise<void>;
  /** Extends the leases of the slots this process holds (a slot released meanwhile is not brought back). */
  renew(held: ReadonlyArray<{ key: string; txId: string }>): Promise<void>;
  /** Slots held on `key` by every process. */
  load(key: string): Promise<number>;
}

export const SLOT_LEDGER = Symbol('SLOT_LEDGER');

/** How long a slot outlives its holder's last renewal. */
export const SLOT_LEASE_MS = 5_000;
/** How often a process renews its slots: a few renewals per lease, so a slow event loop never loses one. */
export const SLOT_RENEW_MS = 1_000;

/** One process's ledger (unit specs; the bound is then per process). */
export class LocalSlotLedger implements SlotLedger {
  private readonly slots = new Map<string, Set<string>>();
  private readonly keyOf = new Map<string, string>();

  take(keys: readonly string[], caps: readonly number[], txId: string, start: number): Promise<number> {
    const held = this.keyOf.get(txId);
    if (held !== undefined && keys.includes(held)) return Promise.resolve(keys.indexOf(held));
    const index = pickKey(
      keys.map((k) => this.slots.get(k)?.size ?? 0),
      caps,
      start,
    );
    if (index >= 0) {
      const set = this.slots.get(keys[index]) ?? new Set<string>();
      set.add(txId);
      this.slots.set(keys[index], set);
      this.keyOf.set(txId, keys[index]);
    }
    return Promise.resolve(index);
  }

  release(txId: string): Promise<void> {
    const key = this.keyOf.get(txId);
    if (key !== undefined) {
      this.keyOf.delete(txId);
      this.slots.get(key)?.delete(txId);
    }
    return Promise.resolve();
  }

  renew(): Promise<void> {
    return Promise.resolve();
  }

  load(key: string): Promise<number> {
    return Promise.resolve(this.slots.get(key)?.size ?? 0);
  }
}

/** Milliseconds on Redis's clock, so processes on different hosts agree on when a lease ends. */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
/** Drops a key's expired leases (and their entries in the holders hash). */
const PURGE = `
local function purge(key, now)
  local gone = redis.call('ZRANGEBYSCORE', key, '-inf', now)
  if #gone > 0 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
    redis.call('HDEL', KEYS[1], unpack(gone))
  end
  return redis.call('ZCARD', key)
end`;

/**
 * KEYS[1] the holders hash (txId → slot key), KEYS[2..] the pool's slot keys (sorted sets of
 * txId scored by lease end); ARGV: txId, lease ms, start, then one cap per slot key.
 */
const TAKE = `${NOW}
${PURGE}
local tx, lease, start = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local n = #KEYS - 1
local held = redis.call('HGET', KEYS[1], tx)
if held then
  for i = 1, n do
    if held == KEYS[i + 1] and redis.call('ZSCORE', KEYS[i + 1], tx) then
      redis.call('ZADD', KEYS[i + 1], now + lease, tx)
      return i - 1
    end
  end
  -- Its lease ran out (or its key's set expired): the entry is stale.
  if not redis.call('ZSCORE', held, tx) then redis.call('HDEL', KEYS[1], tx) end
end
local loads = {}
for i = 1, n do loads[i] = purge(KEYS[i + 1], now) end
local best = -1
for j = 0, n - 1 do
  local k = ((start + j) % n) + 1
  if loads[k] < tonumber(ARGV[3 + k]) and (best == -1 or loads[k] < loads[best]) then best = k end
end
if best == -1 then return -1 end
redis.call('ZADD', KEYS[best + 1], now + lease, tx)
redis.call('PEXPIRE', KEYS[best + 1], lease * 20)
redis.call('HSET', KEYS[1], tx, KEYS[best + 1])
return best - 1`;

/** KEYS[1] the holders hash; ARGV[1] txId. */
const RELEASE = `
local key = redis.call('HGET', KEYS[1], ARGV[1])
if key then
  redis.call('ZREM', key, ARGV[1])
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0`;

/** KEYS: slot keys; ARGV[1] lease ms, ARGV[2..] the txId of each key. XX: a released slot stays released. */
const RENEW = `${NOW}
for i = 1, #KEYS do
  if redis.call('ZADD', KEYS[i], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[i + 1]) > 0 then redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[1]) * 20) end
end
return 0`;

const COUNT = `${NOW}
${PURGE}
return purge(KEYS[2], now)`;

/** The shared ledger: Redis sorted sets per key, changed only by atomic scripts. */
@Injectable()
export class RedisSlotLedger implements SlotLedger {
  private static readonly HOLDERS = 'key-slots:holders';

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async take(keys: readonly string[], caps: readonly number[], txId: string, start: number): Promise<number> {
    const args = [txId, String(SLOT_LEASE_MS), String(Math.abs(start) % Math.max(1, keys.length)), ...caps.map(String)];
    return Number(await this.redis.eval(TAKE, keys.length + 1, RedisSlotLedger.HOLDERS, ...keys.map(slotSet), ...args));
  }

  async release(txId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, RedisSlotLedger.HOLDERS, txId);
  }

  async renew(held: ReadonlyArray<{ key: string; txId: string }>): Promise<void> {
    if (held.length === 0) return;
    await this.redis.eval(RENEW, held.length, ...held.map((h) => slotSet(h.key)), String(SLOT_LEASE_MS), ...held.map((h) => h.txId));
  }

  async load(key: string): Promise<number> {
    return Number(await this.redis.eval(COUNT, 2, RedisSlotLedger.HOLDERS, slotSet(key)));
  }
}

const slotSet = (key: string) => `key-slots:${key}`;
