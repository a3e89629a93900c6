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
  /** Frees the transactions' slots, whichever process took them. Idempotent. */
  release(...txIds: string[]): Promise<void>;
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

  release(...txIds: string[]): Promise<void> {
    for (const txId of txIds) {
      const key = this.keyOf.get(txId);
      if (key === undefined) continue;
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

/** Expired leases dropped by one purge at most: the cost of a purge stays bounded, the rest goes at the next one. */
export const PURGE_BATCH = 100;

/**
 * The ledger's three keys, changed together and only by the scripts below:
 *   KEYS[1] leases: sorted set of txId scored by lease end (the expiry index of every slot);
 *   KEYS[2] holders: hash txId → slot key (which key's slot the transaction holds);
 *   KEYS[3] loads: hash slot key → slots held on it (the count of its leases, kept by every change).
 * `unload` takes slots off a key's count; `purge` drops up to PURGE_BATCH expired leases (the
 * lowest scores, so only the due prefix is read) and their holders and counts.
 */
const COMMON = `${NOW}
local function unload(key, n)
  if redis.call('HINCRBY', KEYS[3], key, -n) < 0 then redis.call('HSET', KEYS[3], key, 0) end
end
local function purge()
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, ${PURGE_BATCH})
  if #due == 0 then return 0 end
  local keys = redis.call('HMGET', KEYS[2], unpack(due))
  redis.call('ZREM', KEYS[1], unpack(due))
  redis.call('HDEL', KEYS[2], unpack(due))
  local order, gone = {}, {}
  for i = 1, #due do
    local k = keys[i]
    if k then
      if not gone[k] then gone[k] = 0 order[#order + 1] = k end
      gone[k] = gone[k] + 1
    end
  end
  for _, k in ipairs(order) do unload(k, gone[k]) end
  return #due
end`;

/**
 * ARGV: txId, lease ms, start, n, the pool's n slot keys, one cap per key. The counts of the
 * pool's keys come in one HMGET, whatever the pool's size; expired leases are purged first only
 * when the pool looks full (they can only make it look fuller than it is, never let a key past
 * its cap), otherwise by `renew` and `load`. ZADD NX tells a new transaction from one that holds
 * a slot already, so a first take costs no holder lookup.
 */
const TAKE = `${COMMON}
local tx, lease, start, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local function pick()
  local loads = redis.call('HMGET', KEYS[3], unpack(ARGV, 5, 4 + n))
  local best, least = -1, 0
  for j = 0, n - 1 do
    local k = ((start + j) % n) + 1
    local load = tonumber(loads[k]) or 0
    if load < tonumber(ARGV[4 + n + k]) and (best == -1 or load < least) then best, least = k, load end
  end
  return best
end
local function hold(k)
  redis.call('ZADD', KEYS[1], now + lease, tx)
  redis.call('HSET', KEYS[2], tx, ARGV[4 + k])
  redis.call('HINCRBY', KEYS[3], ARGV[4 + k], 1)
  return k - 1
end
local best = pick()
if best == -1 and purge() > 0 then best = pick() end
if best ~= -1 and redis.call('ZADD', KEYS[1], 'NX', now + lease, tx) == 1 then
  redis.call('HSET', KEYS[2], tx, ARGV[4 + best])
  redis.call('HINCRBY', KEYS[3], ARGV[4 + best], 1)
  return best - 1
end
-- It holds a slot already (or the pool is full): its own key if that is one of the pool's.
local held = redis.call('HGET', KEYS[2], tx)
if held then
  for i = 1, n do
    if ARGV[4 + i] == held then
      redis.call('ZADD', KEYS[1], now + lease, tx)
      return i - 1
    end
  end
  -- A slot on a key outside this pool: given back before one is taken here (the pool's counts
  -- did not include it, so best stands).
  redis.call('ZREM', KEYS[1], tx)
  redis.call('HDEL', KEYS[2], tx)
  unload(held, 1)
end
if best == -1 then return -1 end
return hold(best)`;

/** ARGV: txIds (the slots freed together: a block's receipts). */
const RELEASE = `
for i = 1, #ARGV do
  local key = redis.call('HGET', KEYS[2], ARGV[i])
  if key then
    redis.call('HDEL', KEYS[2], ARGV[i])
    if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
      if redis.call('HINCRBY', KEYS[3], key, -1) < 0 then redis.call('HSET', KEYS[3], key, 0) end
    end
  end
end
return 0`;

/**
 * ARGV: lease ms, then (slot key, txId) pairs. A lease is extended only while the transaction
 * still holds that key's slot (a released slot stays released); one HMGET and one ZADD for all.
 * Also the periodic purge of expired leases (every process renews every SLOT_RENEW_MS).
 */
const RENEW = `${COMMON}
purge()
local m = (#ARGV - 1) / 2
if m == 0 then return 0 end
local txs = {}
for i = 1, m do txs[i] = ARGV[1 + 2 * i] end
local holders = redis.call('HMGET', KEYS[2], unpack(txs))
local until_ = now + tonumber(ARGV[1])
local args = {}
for i = 1, m do
  if holders[i] == ARGV[2 * i] then
    args[#args + 1] = until_
    args[#args + 1] = txs[i]
  end
end
if #args > 0 then redis.call('ZADD', KEYS[1], 'XX', unpack(args)) end
return 0`;

/** ARGV[1] slot key: its count, after the due expired leases are purged. */
const LOAD = `${COMMON}
purge()
return tonumber(redis.call('HGET', KEYS[3], ARGV[1])) or 0`;

/** Renewals or releases per script call (Lua's unpack has a bounded stack). */
const RENEW_CHUNK = 500;

type LedgerScript = (leases: string, holders: string, loads: string, ...args: string[]) => Promise<number>;
interface LedgerCommands {
  slotTake: LedgerScript;
  slotRelease: LedgerScript;
  slotRenew: LedgerScript;
  slotLoad: LedgerScript;
}

/**
 * The shared ledger in Redis (layout in docs/decisions.md, "Slot ledger"): a take or release costs
 * a handful of commands whatever the size of the pool. The scripts are defined once on the
 * connection and run by EVALSHA (ioredis loads them again after a SCRIPT FLUSH or a restart).
 */
@Injectable()
export class RedisSlotLedger implements SlotLedger {
  static readonly LEASES = 'key-slots:leases';
  static readonly HOLDERS = 'key-slots:held-by';
  static readonly LOADS = 'key-slots:loads';
  /** How long a slot outlives its holder's last renewal (shorter in specs). */
  protected readonly leaseMs: number = SLOT_LEASE_MS;
  private readonly scripts: LedgerCommands;

  constructor(@Inject(REDIS) redis: Redis) {
    const defined = redis as unknown as Partial<LedgerCommands>;
    if (!defined.slotTake) {
      redis.defineCommand('slotTake', { numberOfKeys: 3, lua: TAKE });
      redis.defineCommand('slotRelease', { numberOfKeys: 3, lua: RELEASE });
      redis.defineCommand('slotRenew', { numberOfKeys: 3, lua: RENEW });
      redis.defineCommand('slotLoad', { numberOfKeys: 3, lua: LOAD });
    }
    this.scripts = redis as unknown as LedgerCommands;
  }

  async take(keys: readonly string[], caps: readonly number[], txId: string, start: number): Promise<number> {
    if (keys.length === 0) return -1;
    const n = keys.length;
    return Number(await this.scripts.slotTake(...LEDGER, txId, String(this.leaseMs), String(Math.abs(start) % n), String(n), ...keys, ...caps.map(String)));
  }

  async release(...txIds: string[]): Promise<void> {
    // The first chunk's command is written before this returns: a take sent after it runs after it.
    for (let i = 0; i < txIds.length; i += RENEW_CHUNK) await this.scripts.slotRelease(...LEDGER, ...txIds.slice(i, i + RENEW_CHUNK));
  }

  async renew(held: ReadonlyArray<{ key: string; txId: string }>): Promise<void> {
    if (held.length === 0) {
      await this.scripts.slotRenew(...LEDGER, String(this.leaseMs));
      return;
    }
    for (let i = 0; i < held.length; i += RENEW_CHUNK) {
      await this.scripts.slotRenew(...LEDGER, String(this.leaseMs), ...held.slice(i, i + RENEW_CHUNK).flatMap((h) => [h.key, h.txId]));
    }
  }

  async load(key: string): Promise<number> {
    return Number(await this.scripts.slotLoad(...LEDGER, key));
  }
}

const LEDGER = [RedisSlotLedger.LEASES, RedisSlotLedger.HOLDERS, RedisSlotLedger.LOADS] as const;
