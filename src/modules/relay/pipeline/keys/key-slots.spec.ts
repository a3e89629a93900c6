import { AppConfig } from '../../../../config/app-config';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { KeySlots } from './key-slots.service';
import { LocalSlotLedger } from './slot-ledger';

/** Lets the ledger's promises settle (taking a slot is asynchronous: the ledger is shared). */
const settle = () => new Promise((r) => setImmediate(r));

describe('KeySlots: the in-flight bound per relayer key', () => {
  const keys = [{ address: '0xAAA' }, { address: '0xBBB' }];
  let slots: KeySlots;
  const make = (bound: number) => new KeySlots({ RELAY_MAX_IN_FLIGHT_PER_KEY: bound } as AppConfig, { stillSent: async () => new Set<string>() } as unknown as RelayTransactionStore, new LocalSlotLedger());
  afterEach(() => slots.onModuleDestroy());

  it('spreads a burst over every key and never goes past the bound', async () => {
    slots = make(3);
    const got = await Promise.all(Array.from({ length: 6 }, (_, i) => slots.acquire(1, keys, `t${i}`, 0)));
    expect(got.every(Boolean)).toBe(true);
    expect(slots.inFlight(1, '0xaaa')).toBe(3);
    expect(slots.inFlight(1, '0xbbb')).toBe(3);
    expect(await slots.acquire(1, keys, 't6', 0)).toBeNull();
    // Another chain's slots are separate.
    expect(await slots.acquire(2, keys, 't7', 0)).not.toBeNull();
  });

  it("the releases of one turn reach the ledger as one call, before a take made after them", async () => {
    const ledger = new LocalSlotLedger();
    const calls: string[] = [];
    const release = ledger.release.bind(ledger);
    const take = ledger.take.bind(ledger);
    ledger.release = (...ids: string[]) => (calls.push(`release ${ids.join(',')}`), release(...ids));
    ledger.take = (k, c, txId, start) => (calls.push(`take ${txId}`), take(k, c, txId, start));
    slots = new KeySlots({ RELAY_MAX_IN_FLIGHT_PER_KEY: 2 } as AppConfig, { stillSent: async () => new Set<string>() } as unknown as RelayTransactionStore, ledger);
    for (const id of ['a', 'b', 'c', 'd']) await slots.acquire(1, keys, id, 0);
    calls.length = 0;
    // A block's receipts: released in one loop.
    for (const id of ['a', 'b', 'c']) slots.release(id);
    await settle();
    expect(calls).toEqual(['release a,b,c']);
    expect(slots.inFlight(1, '0xaaa') + slots.inFlight(1, '0xbbb')).toBe(1);
    // Released, then taken again in the same turn: the ledger hears of the release first.
    calls.length = 0;
    slots.release('d');
    const again = slots.acquire(1, keys, 'd', 0);
    expect(await again).not.toBeNull();
    expect(calls).toEqual(['release d', 'take d']);
    expect(slots.inFlight(1, '0xaaa') + slots.inFlight(1, '0xbbb')).toBe(1);
  });

  it('a waiting send gets the first slot that frees, first come first served, and waits no longer', async () => {
    slots = make(1);
    await slots.acquire(1, keys, 'a', 0);
    await slots.acquire(1, keys, 'b', 0);
    const first = slots.acquire(1, keys, 'c', 5_000);
    const second = slots.acquire(1, keys, 'd', 5_000);
    await settle();
    expect(slots.waiting()).toBe(2);
    const started = Date.now();
    slots.release('b');
    expect((await first)?.address).toBe('0xBBB');
    expect(Date.now() - started).toBeLessThan(100);
    expect(slots.waiting()).toBe(1);
    slots.release('a');
    expect((await second)?.address).toBe('0xAAA');
  });

  it('a full pool\'s waiters do not hold up a waiter of another pool that has room', async () => {
    slots = make(1);
    const other = [{ address: '0xCCC' }];
    await slots.acquire(1, keys, 'a', 0);
    await slots.acquire(1, keys, 'b', 0);
    await slots.acquire(1, other, 'c', 0);
    // Two waiters on the full pool (separate arrays of the same keys, as each send builds its own), then one on the other pool.
    const full1 = slots.acquire(1, [...keys], 'd', 5_000);
    const full2 = slots.acquire(1, [...keys], 'e', 5_000);
    const elsewhere = slots.acquire(1, [...other], 'f', 5_000);
    await settle();
    expect(slots.waiting()).toBe(3);
    const started = Date.now();
    slots.release('c');
    expect((await elsewhere)?.address).toBe('0xCCC');
    expect(slots.waiting()).toBe(2);
    slots.release('a');
    expect((await full1)?.address).toBe('0xAAA');
    slots.release('b');
    expect((await full2)?.address).toBe('0xBBB');
    // Each release woke its waiter at once: none was left for the poller (POLL_WAITERS_MS), as a
    // release that came while the previous wake was ending once was.
    expect(Date.now() - started).toBeLessThan(50);
  });

  it('a release hands its slot to the first waiter with one ledger call, not a second one that finds the pool full', async () => {
    const ledger = new LocalSlotLedger();
    const take = jest.spyOn(ledger, 'take');
    slots = new KeySlots({ RELAY_MAX_IN_FLIGHT_PER_KEY: 1 } as AppConfig, { stillSent: async () => new Set<string>() } as unknown as RelayTransactionStore, ledger);
    await slots.acquire(1, keys, 'a', 0);
    await slots.acquire(1, keys, 'b', 0);
    const first = slots.acquire(1, keys, 'c', 5_000);
    const second = slots.acquire(1, keys, 'd', 5_000);
    await settle();
    take.mockClear();
    slots.release('a');
    expect((await first)?.address).toBe('0xAAA');
    await settle();
    expect(take).toHaveBeenCalledTimes(1);
    // The next release: the waiter left gets it, again with one call.
    slots.release('b');
    expect((await second)?.address).toBe('0xBBB');
    await settle();
    expect(take).toHaveBeenCalledTimes(2);
  });

  it('a slot freed in another process (the shared ledger) reaches a waiter at the next poll', async () => {
    const ledger = new LocalSlotLedger();
    slots = new KeySlots({ RELAY_MAX_IN_FLIGHT_PER_KEY: 1 } as AppConfig, { stillSent: async () => new Set<string>() } as unknown as RelayTransactionStore, ledger);
    await slots.acquire(1, keys, 'a', 0);
    await slots.acquire(1, keys, 'b', 0);
    const waiting = slots.acquire(1, keys, 'c', 5_000);
    await settle();
    // Released straight in the ledger, as another process's release would be: no local wake.
    await ledger.release('b');
    const started = Date.now();
    expect((await waiting)?.address).toBe('0xBBB');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('gives up after the wait with null, and release is idempotent', async () => {
    slots = make(1);
    await slots.acquire(1, keys, 'a', 0);
    await slots.acquire(1, keys, 'b', 0);
    expect(await slots.acquire(1, keys, 'c', 30)).toBeNull();
    expect(slots.waiting()).toBe(0);
    slots.release('a');
    slots.release('a');
    await settle();
    expect(slots.inFlight(1, '0xaaa')).toBe(0);
    expect(slots.inFlight(1, '0xbbb')).toBe(1);
  });

  it('a transaction that holds a slot gets the same key again, not a second slot', async () => {
    slots = make(4);
    const first = await slots.acquire(1, keys, 'a', 0);
    const again = await slots.acquire(1, keys, 'a', 0);
    expect(again?.address).toBe(first?.address);
    expect(slots.inFlight(1, first!.address)).toBe(1);
  });

  it("a node's txpool-full refusal stops new work on that key until it holds fewer", async () => {
    slots = make(16);
    for (let i = 0; i < 8; i++) await slots.acquire(1, keys, `t${i}`, 0);
    slots.refused(1, '0xAAA', 't0', 5n); // held 4, cap now 3
    for (let i = 8; i < 12; i++) expect((await slots.acquire(1, keys, `t${i}`, 0))?.address).toBe('0xBBB');
    expect(slots.inFlight(1, '0xaaa')).toBe(4);
  });

  it('holds back higher nonces of a key while a lower one waits after a pool-full refusal, until the node takes it or the row leaves flight', async () => {
    slots = make(16);
    expect(slots.behindRefused(1, '0xAAA', 11n)).toBe(false);
    slots.refused(1, '0xAAA', 'low', 10n);
    expect(slots.behindRefused(1, '0xaaa', 11n)).toBe(true);
    // Its own nonce and lower ones go; another key and another chain are not held.
    expect(slots.behindRefused(1, '0xAAA', 10n)).toBe(false);
    expect(slots.behindRefused(1, '0xAAA', 9n)).toBe(false);
    expect(slots.behindRefused(1, '0xBBB', 11n)).toBe(false);
    expect(slots.behindRefused(2, '0xAAA', 11n)).toBe(false);
    slots.taken('low');
    expect(slots.behindRefused(1, '0xAAA', 11n)).toBe(false);
    slots.refused(1, '0xAAA', 'low', 10n);
    slots.release('low');
    expect(slots.behindRefused(1, '0xAAA', 11n)).toBe(false);
  });

  it('frees slots of rows that left the in-flight stages elsewhere (sweep against the database)', async () => {
    jest.useFakeTimers();
    try {
      slots = new KeySlots({ RELAY_MAX_IN_FLIGHT_PER_KEY: 1 } as AppConfig, { stillSent: async () => new Set(['b']) } as unknown as RelayTransactionStore, new LocalSlotLedger());
      await slots.acquire(1, keys, 'a', 0);
      await slots.acquire(1, keys, 'b', 0);
      jest.advanceTimersByTime(15_000);
      await jest.runAllTicks();
      await Promise.resolve();
      await Promise.resolve();
      expect(slots.inFlight(1, '0xaaa') + slots.inFlight(1, '0xbbb')).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
