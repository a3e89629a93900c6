import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from './sql';
import { SqlStore } from './sql-store';

/**
 * One sender at a time per (chain, address), across every process, for the senders that take an
 * address's next nonce from the chain (`eth_getTransactionCount(address, 'pending')`) instead of
 * from signer_nonces: the treasury's gas for deposit sweeps and its relayer top-ups. Two of them
 * reading at once got the same nonce, and the second transaction was refused. The lock (a
 * transaction-scoped PostgreSQL advisory lock) is held from the read until the node took the
 * transaction, so the next reader counts it; the wait for its receipt is outside it.
 */
@Injectable()
export class SenderLocks extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Runs `send` holding the address's lock; waits at most LOCK_WAIT for it (then throws: the caller's next pass retries). */
  hold<T>(chainId: number, address: string, send: () => Promise<T>): Promise<T> {
    return this.transaction(async (em) => {
      await this.rows(sql`SELECT set_config('lock_timeout', ${LOCK_WAIT}, true)`, em);
      await this.rows(sql`SELECT pg_advisory_xact_lock(hashtext(${`sender:${chainId}:${address.toLowerCase()}`}))`, em);
      return send();
    });
  }
}

/** Longer than a send's node calls take; a holder stuck past it makes the others give up, not pile up on connections. */
const LOCK_WAIT = '10s';
