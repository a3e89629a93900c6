import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { testEnv } from '../../../../../test/support/test-env';
import { PURGE_BATCH, RedisSlotLedger } from './slot-ledger';

/** Leases short enough to watch them run out. */
class ShortLeases extends RedisSlotLedger {
  protected override readonly leaseMs = 400;
}

/**
 * The shared slot ledger against the test stack's Redis, each spec under a key prefix of its own.
 * Two connections stand for two worker processes.
 */
describe('RedisSlotLedger (Redis)', () => {
  const url = testEnv().REDIS_URL;
  const db = String(Number(new URL(url).pathname.slice(1) || 0));
  let prefix: string;
  let a: Redis;
  let b: Redis;

  beforeEach(() => {
    prefix = `relay-test-slots-${randomUUID()}:`;
    a = new Redis(url, { keyPrefix: prefix });
    b = new Redis(url, { keyPrefix: prefix });
  });
  afterEach(async () => {
    const keys = await a.keys(`${prefix}*`);
    if (keys.length > 0) await a.del(...keys.map((k) => k.slice(prefix.length)));
    await Promise.all([a.quit(), b.quit()]);
  });

  const pool = (n: number) => Array.from({ length: n }, (_, i) => `31337:0x${i.toString(16).padStart(40, '0')}`);

  it('holds the cap per key across processes: least loaded key first, ties from `start`, the same txId gets its key back', async () => {
    const one = new RedisSlotLedger(a);
    const two = new RedisSlotLedger(b);
    const keys = pool(3);
    const caps = [2, 2, 2];
    expect(await one.take(keys, caps, 't0', 1)).toBe(1);
    expect(await two.take(keys, caps, 't1', 1)).toBe(2);
    expect(await one.take(keys, caps, 't2', 1)).toBe(0);
    // All at one: ties start from `start`.
    expect(await two.take(keys, caps, 't3', 2)).toBe(2);
    expect(await one.take(keys, caps, 't4', 0)).toBe(0);
    expect(await two.take(keys, caps, 't5', 0)).toBe(1);
    // Full everywhere, from either process.
    expect(await one.take(keys, caps, 't6', 0)).toBe(-1);
    expect(await two.take(keys, caps, 't6', 1)).toBe(-1);
    // A transaction holding a slot gets its key back, full or not, and is counted once.
    expect(await two.take(keys, caps, 't3', 0)).toBe(2);
    expect(await one.take([keys[2], keys[0]], [2, 2], 't3', 0)).toBe(0);
    expect(await Promise.all(keys.map((k) => one.load(k)))).toEqual([2, 2, 2]);
    // A key's own cap (a node's refusal lowered it) is honoured.
    await one.release('t4');
    expect(await one.take(keys, [1, 2, 2], 't7', 0)).toBe(-1);
    expect(await one.take(keys, [2, 2, 2], 't7', 1)).toBe(0);
  });

  it('release frees the slot whichever process took it, once (idempotent)', async () => {
    const one = new RedisSlotLedger(a);
    const two = new RedisSlotLedger(b);
    const keys = pool(2);
    expect(await one.take(keys, [1, 1], 'x', 0)).toBe(0);
    expect(await one.take(keys, [1, 1], 'y', 0)).toBe(1);
    await two.release('x');
    await two.release('x');
    await one.release('never-taken');
    expect(await one.load(keys[0])).toBe(0);
    expect(await one.load(keys[1])).toBe(1);
    expect(await two.take(keys, [1, 1], 'z', 1)).toBe(0);
    expect(await two.take(keys, [1, 1], 'w', 1)).toBe(-1);
    // Several in one call (a block's receipts): each freed once, unknown ones ignored.
    await two.release('y', 'never-taken', 'z', 'y');
    expect(await Promise.all(keys.map((k) => one.load(k)))).toEqual([0, 0]);
    expect(await one.take(keys, [1, 1], 'w', 0)).toBe(0);
  });

  it('a transaction moving to another pool gives its old slot back', async () => {
    const ledger = new RedisSlotLedger(a);
    const [k0, k1] = pool(2);
    expect(await ledger.take([k0], [4], 'm', 0)).toBe(0);
    expect(await ledger.take([k1], [4], 'm', 0)).toBe(0);
    expect(await ledger.load(k0)).toBe(0);
    expect(await ledger.load(k1)).toBe(1);
    await ledger.release('m');
    expect(await ledger.load(k1)).toBe(0);
  });

  it("a dead process's slots come back when their leases run out; renewed ones stay, released ones are not brought back", async () => {
    const alive = new ShortLeases(a);
    const dead = new ShortLeases(b);
    const keys = pool(2);
    expect(await dead.take(keys, [2, 2], 'd1', 0)).toBe(0);
    expect(await dead.take(keys, [2, 2], 'd2', 0)).toBe(1);
    expect(await alive.take(keys, [2, 2], 'a1', 0)).toBe(0);
    expect(await alive.take(keys, [2, 2], 'a2', 0)).toBe(1);
    await alive.release('a2');
    for (let i = 0; i < 5; i++) {
      await sleep(150);
      // a2 was released: renewing it (a stale list) must not bring it back.
      await alive.renew([
        { key: keys[0], txId: 'a1' },
        { key: keys[1], txId: 'a2' },
      ]);
    }
    // d1 and d2 ran out (purged by the renewals); a1 lives on.
    expect(await alive.take(keys, [1, 1], 'n1', 0)).toBe(1);
    expect(await alive.load(keys[0])).toBe(1);
    expect(await alive.load(keys[1])).toBe(1);
    expect(await a.zcard(RedisSlotLedger.LEASES)).toBe(2);
    expect(await a.hlen(RedisSlotLedger.HOLDERS)).toBe(2);
  });

  it('purges expired leases in bounded batches, each lease once', async () => {
    const ledger = new ShortLeases(a);
    const keys = pool(4);
    const many = PURGE_BATCH + 20;
    for (let i = 0; i < many; i++) expect(await ledger.take(keys, [many, many, many, many], `e${i}`, i)).toBe(i % 4);
    await sleep(500);
    await ledger.renew([]);
    expect(await a.zcard(RedisSlotLedger.LEASES)).toBe(20);
    expect(await ledger.load(keys[0])).toBe(0);
    expect(await a.zcard(RedisSlotLedger.LEASES)).toBe(0);
    expect(await a.hlen(RedisSlotLedger.HOLDERS)).toBe(0);
    expect(await Promise.all(keys.map((k) => ledger.load(k)))).toEqual([0, 0, 0, 0]);
  });

  it('keeps the bound under concurrent takes from two processes', async () => {
    const one = new RedisSlotLedger(a);
    const two = new RedisSlotLedger(b);
    const keys = pool(3);
    const got = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? one : two).take(keys, [4, 4, 4], `c${i}`, i)));
    expect(got.filter((i) => i >= 0)).toHaveLength(12);
    for (let k = 0; k < 3; k++) expect(got.filter((i) => i === k)).toHaveLength(4);
    expect(await Promise.all(keys.map((k) => one.load(k)))).toEqual([4, 4, 4]);
  });

  /**
   * Every command Redis runs for one call of `fn` on connection `a` (the script's own commands
   * included, as MONITOR shows them), in this spec's database.
   */
  async function commandsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const info = String(await a.call('CLIENT', 'INFO'));
    const addr = /addr=(\S+)/.exec(info)![1];
    const source = new Redis(url);
    const monitor = await source.monitor();
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string, database: string) => {
      if (database === db && (source === addr || source === 'lua')) seen.push(args[0].toLowerCase());
    });
    try {
      await sleep(50);
      await fn();
      // A marker after the call: everything before it has been seen once it arrives.
      await a.call('ECHO', 'slot-ledger-spec-done');
      for (let i = 0; i < 500 && !seen.includes('echo'); i++) await sleep(10);
      if (!seen.includes('echo')) throw new Error('MONITOR did not show the marker within 5 s');
      return seen.slice(0, seen.indexOf('echo'));
    } finally {
      monitor.disconnect();
      source.disconnect();
    }
  }

  it('a take costs a handful of Redis commands, the same for a pool of 2 keys and of 24 (EVALSHA, not the script text)', async () => {
    const ledger = new RedisSlotLedger(a);
    const small = pool(2);
    const large = pool(24);
    // Loads the scripts on the connection (its first call of each sends the text) and puts some slots on the keys.
    for (let i = 0; i < 30; i++) await ledger.take(large, Array(24).fill(16), `w${i}`, i);
    await ledger.take(small, [16, 16], 'w-small', 0);
    await ledger.release('w-small');
    await ledger.renew([]);

    const onLarge = await commandsOf(() => ledger.take(large, Array(24).fill(16), 'big', 5));
    const onSmall = await commandsOf(() => ledger.take(small, [16, 16], 'little', 1));
    expect([...onLarge].sort()).toEqual([...onSmall].sort());
    expect(onLarge.filter((c) => c === 'evalsha')).toHaveLength(1);
    expect(onLarge).not.toContain('eval');
    expect(onLarge.length).toBeLessThanOrEqual(7);

    const release = await commandsOf(() => ledger.release('big'));
    expect(release.filter((c) => c === 'evalsha')).toHaveLength(1);
    expect(release.length).toBeLessThanOrEqual(5);

    // Renewing all of a process's slots is one call, whatever their number.
    const held = Array.from({ length: 30 }, (_, i) => ({ key: large[i % 24], txId: `w${i}` }));
    const renew = await commandsOf(() => ledger.renew(held));
    expect(renew.length).toBeLessThanOrEqual(6);
  });
});
