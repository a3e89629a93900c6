import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from '../../../database/returning-rows';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';

/** Statement parts that store what was signed with a claimed nonce (see NonceManager.claim). */
export interface NonceRecord {
  /** CTE definitions; they may read `claimed` (one row when the nonce was claimed, none otherwise). Parameters from $4. */
  ctes?: string;
  params?: unknown[];
  /** A condition (parameters from $4) without which nothing is claimed: `claim` then resolves to null. */
  gate?: string;
}

type Consumed = 'claimed' | 'lost' | 'closed';

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
        const first = await this.consume(this.dataSource, chainId, lower, nonce, record(signed, nonce));
        if (first === 'closed') return null;
        if (first === 'claimed') {
          this.next.set(key, nonce + 1n);
          return { nonce, signed };
        }
        // Another process signed with this key meanwhile: take the row lock, so this one cannot lose again.
        const locked = await this.dataSource.transaction(async (em) => {
          const [row] = returningRows<{ next_nonce: string }>(
            await em.query(`SELECT next_nonce FROM signer_nonces WHERE chain_id = $1 AND address = $2 FOR UPDATE`, [chainId, lower]),
          );
          const nonce = BigInt(row.next_nonce);
          const signed = await sign(nonce);
          const outcome = await this.consume(em, chainId, lower, nonce, record(signed, nonce));
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
    const rows = returningRows<{ next_nonce: string }>(
      await this.dataSource.query(
        `INSERT INTO signer_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3)
       ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = GREATEST(signer_nonces.next_nonce, EXCLUDED.next_nonce),
         updated_at = CASE WHEN EXCLUDED.next_nonce > signer_nonces.next_nonce THEN now() ELSE signer_nonces.updated_at END
       RETURNING next_nonce`,
        [chainId, lower, chainNonce.toString()],
      ),
    );
    this.known.add(`${chainId}:${lower}`);
    // The counter may have moved: the next claim reads it (a stale cache would only cost a retry).
    this.next.delete(`${chainId}:${lower}`);
    const database = BigInt(rows[0].next_nonce);
    if (database > chainNonce) this.logger.log(`signer ${lower} on ${chainId}: ${database - chainNonce} nonce(s) in flight above the chain's ${chainNonce}`);
    return { database, chain: chainNonce };
  }

  private async current(chainId: number, lower: string, key: string): Promise<bigint> {
    const cached = this.next.get(key);
    if (cached !== undefined) return cached;
    if (!this.known.has(key)) {
      const { database } = await this.resync(chainId, lower);
      this.next.set(key, database);
      return database;
    }
    const [row] = returningRows<{ next_nonce: string }>(await this.dataSource.query(`SELECT next_nonce FROM signer_nonces WHERE chain_id = $1 AND address = $2`, [chainId, lower]));
    const value = BigInt(row.next_nonce);
    this.next.set(key, value);
    return value;
  }

  /** The compare-and-set with the caller's writes (all in the statement's one snapshot). */
  private async consume(m: DataSource | EntityManager, chainId: number, lower: string, nonce: bigint, record: NonceRecord): Promise<Consumed> {
    const gate = record.gate ?? 'true';
    const rows = returningRows<{ claimed: number; open: boolean }>(
      await m.query(
        `WITH claimed AS (
           UPDATE signer_nonces SET next_nonce = next_nonce + 1, updated_at = now()
            WHERE chain_id = $1 AND address = $2 AND next_nonce = $3 AND (${gate})
        RETURNING next_nonce
         )${record.ctes ? `,\n${record.ctes}` : ''}
         SELECT (SELECT count(*) FROM claimed)::int AS claimed, (${gate}) AS open`,
        [chainId, lower, nonce.toString(), ...(record.params ?? [])],
      ),
    );
    if (rows[0]?.claimed === 1) return 'claimed';
    return rows[0]?.open === false ? 'closed' : 'lost';
  }
}
