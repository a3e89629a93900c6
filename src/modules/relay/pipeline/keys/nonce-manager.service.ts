import { Injectable, Logger } from '@nestjs/common';
import { NonceRecord, SignerNonceStore } from '../../store/signer-nonce.store';
import { ChainRegistry } from '../../../chains';

/**
 * Nonces per (chain, signer) from a database row, so any number of workers can sign for the
 * same key with many transactions in flight. A nonce is consumed by ONE compare-and-set
 * statement that also stores the transaction signed with it: the counter moves only if it still
 * holds the nonce that was signed, and the signed bytes are written in the same statement, so a
 * crash never burns a nonce and two processes never use one twice. Within a process, claims for
 * one signer run one at a time against a cached counter, so the compare-and-set fails only when
 * another process signed with the key meanwhile; that claim then locks the row (SELECT ... FOR
 * UPDATE in a transaction), signs again and consumes under the lock, so it always makes progress
 * however many processes share a key.
 */
@Injectable()
export class NonceManager {
  private readonly logger = new Logger(NonceManager.name);
  private readonly known = new Set<string>();
  /** The counter as this process last wrote or read it; absent = read it first. */
  private readonly next = new Map<string, bigint>();
  /** Per signer: the tail of the queue of claims, so one signer's claims never overlap here. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: SignerNonceStore,
    private readonly chains: ChainRegistry,
  ) {}

  /**
   * Signs with the signer's next nonce and stores the result in the statement that consumes the
   * nonce. `sign` runs a second time (with a higher nonce) when another process took the nonce
   * first; `record` gets the last signature. Resolves to the nonce used and what `sign` made.
   */
  async claim<T>(chainId: number, address: string, sign: (nonce: bigint) => Promise<T>, record: (signed: T, nonce: bigint) => Omit<NonceRecord, 'gate'> = () => ({})): Promise<{ nonce: bigint; signed: T }> {
    const claimed = await this.claimIfOpen(chainId, address, sign, record);
    if (!claimed) throw new Error('a claim without a gate cannot be refused');
    return claimed;
  }

  /** `claim`, but nothing is consumed, and it resolves to null, when the record's gate is false. */
  claimIfOpen<T>(
    chainId: number,
    address: string,
    sign: (nonce: bigint) => Promise<T>,
    record: (signed: T, nonce: bigint) => NonceRecord,
  ): Promise<{ nonce: bigint; signed: T } | null> {
    const lower = address.toLowerCase();
    const key = `${chainId}:${lower}`;
    const run = async (): Promise<{ nonce: bigint; signed: T } | null> => {
      try {
        // Optimistic: this process's counter, one statement.
        const nonce = await this.current(chainId, lower, key);
        const signed = await sign(nonce);
        const first = await this.store.consume(chainId, lower, nonce, record(signed, nonce));
        if (first === 'closed') return null;
        if (first === 'claimed') {
          this.next.set(key, nonce + 1n);
          return { nonce, signed };
        }
        // Another process signed with this key meanwhile: take the row lock, so this one cannot lose again.
        const locked = await this.store.transaction(async (em) => {
          const nonce = await this.store.next(chainId, lower, em, true);
          if (nonce === null) throw new Error(`no nonce row of ${lower} on ${chainId}`);
          const signed = await sign(nonce);
          const outcome = await this.store.consume(chainId, lower, nonce, record(signed, nonce), em);
          if (outcome === 'lost') throw new Error(`nonce row of ${lower} on ${chainId} changed under its lock`);
          return outcome === 'claimed' ? { nonce, signed } : null;
        });
        this.next.delete(key);
        if (locked) this.next.set(key, locked.nonce + 1n);
        return locked;
      } catch (err) {
        // Unknown whether it committed (a lost connection): read the counter next time.
        this.next.delete(key);
        throw err;
      }
    };
    const result = (this.queues.get(key) ?? Promise.resolve()).then(run, run);
    const tail = result.catch(() => undefined);
    this.queues.set(key, tail);
    // Drop the queue once idle, so the map holds only signers with claims in flight.
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return result;
  }

  /**
   * Moves the counter up to the chain's pending nonce when the chain is ahead (keys used
   * elsewhere, a database restored from backup). Never moves it down: nonces above the chain's
   * belong to signed transactions the reconciler rebroadcasts or fills.
   */
  async resync(chainId: number, address: string): Promise<{ database: bigint; chain: bigint }> {
    const lower = address.toLowerCase();
    const chainNonce = BigInt(await this.chains.provider(chainId).getTransactionCount(lower, 'pending'));
    const database = await this.store.raiseTo(chainId, lower, chainNonce);
    this.known.add(`${chainId}:${lower}`);
    // The counter may have moved: the next claim reads it (a stale cache would only cost a retry).
    this.next.delete(`${chainId}:${lower}`);
    if (database > chainNonce) this.logger.log(`signer ${lower} on ${chainId}: ${database - chainNonce} nonce(s) in flight above the chain's ${chainNonce}`);
    return { database, chain: chainNonce };
  }

  /**
   * `resync` with the chain's pending nonce and the database counter already read (a reconcile
   * pass reads every counter of a chain at once): the counter is written only when the chain is
   * ahead, and this process's copy is dropped only when it may be behind the database's, so a
   * pass costs the next claim of each key no extra read. The counter after.
   */
  async syncWithChain(chainId: number, address: string, chainNonce: bigint, database: bigint | null): Promise<bigint> {
    const lower = address.toLowerCase();
    const key = `${chainId}:${lower}`;
    let counter = database;
    if (counter === null || chainNonce > counter) {
      counter = await this.store.raiseTo(chainId, lower, chainNonce);
      this.next.delete(key);
    } else {
      const cached = this.next.get(key);
      // Another process claimed meanwhile: read the counter next time (a stale copy would only cost a retry).
      if (cached !== undefined && cached < counter) this.next.delete(key);
    }
    this.known.add(key);
    if (counter > chainNonce) this.logger.debug(`signer ${lower} on ${chainId}: ${counter - chainNonce} nonce(s) in flight above the chain's ${chainNonce}`);
    return counter;
  }

  private async current(chainId: number, lower: string, key: string): Promise<bigint> {
    const cached = this.next.get(key);
    if (cached !== undefined) return cached;
    if (!this.known.has(key)) {
      const { database } = await this.resync(chainId, lower);
      this.next.set(key, database);
      return database;
    }
    const value = await this.store.next(chainId, lower);
    if (value === null) throw new Error(`no nonce row of ${lower} on ${chainId}`);
    this.next.set(key, value);
    return value;
  }
}
