import { sql } from '../../../../database/sql';
import type { ChainRegistry } from '../../../chains';
import type { Consumed, NonceRecord, SignerNonceStore } from '../../store/signer-nonce.store';
import { NonceManager } from './nonce-manager.service';

/**
 * The nonce decisions without a database: a store whose counter other "processes" can move,
 * and a chain whose pending nonce the test sets.
 */
class FakeNonceStore {
  counter = 0n;
  consumed: bigint[] = [];
  gateOpen = true;
  /** Moves the counter before the next compare-and-set, as another process would. */
  stealNext = 0;
  failNext = false;

  reads = 0;
  raises = 0;

  async next(): Promise<bigint | null> {
    this.reads++;
    return this.counter;
  }

  async raiseTo(_chainId: number, _address: string, atLeast: bigint): Promise<bigint> {
    this.raises++;
    if (atLeast > this.counter) this.counter = atLeast;
    return this.counter;
  }

  async consume(_chainId: number, _address: string, nonce: bigint, record: NonceRecord): Promise<Consumed> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection lost');
    }
    if (this.stealNext > 0) {
      this.stealNext--;
      this.counter++;
    }
    if (!this.gateOpen && record.gate) return 'closed';
    if (this.counter !== nonce) return 'lost';
    this.counter++;
    this.consumed.push(nonce);
    return 'claimed';
  }

  transaction<T>(work: (em: never) => Promise<T>): Promise<T> {
    return work(undefined as never);
  }
}

function managerWith(store: FakeNonceStore, chainNonce = 0n) {
  const chains = { provider: () => ({ getTransactionCount: async () => Number(chainNonce) }) } as unknown as ChainRegistry;
  return new NonceManager(store as unknown as SignerNonceStore, chains);
}

describe('NonceManager decisions', () => {
  const signer = '0x00000000000000000000000000000000000000a1';

  it('starts from the chain when the chain is ahead, then counts in the process', async () => {
    const store = new FakeNonceStore();
    const nonces = managerWith(store, 7n);
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(7n);
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(8n);
    expect(store.consumed).toEqual([7n, 8n]);
  });

  it('never moves the counter below nonces already handed out (the chain behind the database)', async () => {
    const store = new FakeNonceStore();
    store.counter = 12n;
    expect((await managerWith(store, 3n).claim(1, signer, async (n) => n)).nonce).toBe(12n);
  });

  it('signs again with the next nonce when another process took the one it signed', async () => {
    const store = new FakeNonceStore();
    const nonces = managerWith(store);
    await nonces.claim(1, signer, async (n) => n);
    store.stealNext = 1;
    const signed: bigint[] = [];
    const claimed = await nonces.claim(1, signer, async (n) => {
      signed.push(n);
      return n;
    });
    expect(signed).toEqual([1n, 2n]);
    expect(claimed.nonce).toBe(2n);
    expect(store.consumed).toEqual([0n, 2n]);
  });

  it('consumes nothing and answers null when the gate is closed (the row was signed already)', async () => {
    const store = new FakeNonceStore();
    store.gateOpen = false;
    const claimed = await managerWith(store).claimIfOpen(1, signer, async (n) => n, () => ({ gate: sql`false` }));
    expect(claimed).toBeNull();
    expect(store.counter).toBe(0n);
  });

  it('after an error it reads the counter again instead of trusting its copy', async () => {
    const store = new FakeNonceStore();
    const nonces = managerWith(store);
    await nonces.claim(1, signer, async (n) => n);
    store.failNext = true;
    await expect(nonces.claim(1, signer, async (n) => n)).rejects.toThrow('connection lost');
    store.counter = 5n; // what the database says now
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(5n);
  });

  it("runs one signer's claims one at a time in the process, so concurrent claims never collide", async () => {
    const store = new FakeNonceStore();
    const nonces = managerWith(store);
    const claims = await Promise.all(Array.from({ length: 20 }, () => nonces.claim(1, signer, async (n) => n)));
    expect(claims.map((c) => c.nonce)).toEqual(Array.from({ length: 20 }, (_, i) => BigInt(i)));
    expect(store.consumed).toHaveLength(20);
  });

  it('a reconcile pass writes the counter only when the chain is ahead, and keeps the process copy unless it may be behind', async () => {
    const store = new FakeNonceStore();
    const nonces = managerWith(store, 0n);
    await nonces.claim(1, signer, async (n) => n);
    const readsAfterFirst = store.reads;
    const raisesAfterFirst = store.raises;
    // In step (the chain behind the counter by what is in flight): nothing written, the next claim reads nothing.
    expect(await nonces.syncWithChain(1, signer, 0n, store.counter)).toBe(1n);
    expect(store.raises).toBe(raisesAfterFirst);
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(1n);
    expect(store.reads).toBe(readsAfterFirst);
    // Another process claimed meanwhile: the copy is dropped and read again.
    store.counter = 5n;
    await nonces.syncWithChain(1, signer, 0n, 5n);
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(5n);
    // The chain ahead (the key used outside the relay): raised to the chain's.
    expect(await nonces.syncWithChain(1, signer, 9n, store.counter)).toBe(9n);
    expect(store.raises).toBe(raisesAfterFirst + 1);
    expect((await nonces.claim(1, signer, async (n) => n)).nonce).toBe(9n);
  });
});
