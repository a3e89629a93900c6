import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { Sql } from '../../../database/sql';
import { SqlRunner } from '../../../database/sql-store';
import { AccountCounters } from '../store/account-counters';
import { AccountStore, ReservationRequest } from '../store/account.store';
import { AccountEntity } from '../store/account.entity';
import { LedgerKind } from '../store/ledger-entry.entity';
import { LedgerEntryStore, SpendBucket, SpendRow, StatementRow } from '../store/ledger-entry.store';

export interface Balances {
  availableMicro: bigint;
  pendingMicro: bigint;
}

export interface LedgerAudit extends Balances {
  ledgerAvailableMicro: bigint;
  ledgerPendingMicro: bigint;
  reconciles: boolean;
}

/**
 * The only writer of balances. Every movement locks the account row, appends one ledger row
 * and updates the cached balances in the same database transaction, so concurrent
 * reservations serialise on the row lock and can never overdraw. The relay's one-statement
 * reservation and settlement compose the same moves from the stores' fragments
 * (`reservationCte`, `reserveEntryCte`, `settleEntryCte`, `settleCoveredUpdate`).
 *
 * Methods take an optional EntityManager so a caller can make the movement part of its own
 * transaction (the relay writes the transaction row and its reservation together).
 */
@Injectable()
export class LedgerService {
  private readonly logger = new Logger(LedgerService.name);

  constructor(
    private readonly accounts: AccountStore,
    private readonly entries: LedgerEntryStore,
  ) {}

  /** Charged amounts per hour or day and chain (the dashboard's spend chart). */
  spend(userId: string, bucket: SpendBucket, since: Date, chainOf: (reference: Sql) => Sql): Promise<SpendRow[]> {
    return this.entries.spend(userId, bucket, since, chainOf);
  }

  credit(userId: string, amountMicro: bigint, memo?: string, em?: EntityManager): Promise<Balances> {
    if (amountMicro <= 0n) throw new AppError('VALIDATION_001', 'credit amount must be positive');
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      return this.apply(m, account, 'credit', amountMicro, 0n, null, memo ?? null);
    });
  }

  /**
   * An on-chain deposit credited under its `dep:...` reference, in the caller's transaction (the
   * funding module marks the deposit row credited in the same one). The (kind, reference)
   * unique index makes a second credit of the same transfer fail the whole transaction.
   */
  deposit(userId: string, reference: string, amountMicro: bigint, memo: string, em: EntityManager): Promise<Balances> {
    if (amountMicro <= 0n) throw new AppError('VALIDATION_001', 'deposit amount must be positive');
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      return this.apply(m, account, 'deposit', amountMicro, 0n, reference, memo);
    });
  }

  /** The account's entries in [from, to), oldest first, each with the available balance after it (GET /api/ledger.csv). */
  statement(userId: string, from: Date, to: Date, limit: number): Promise<StatementRow[]> {
    return this.entries.statement(userId, from, to, limit);
  }

  /**
   * A reservation within every limit, with its reserve entry, in one statement (on the pool or
   * in the caller's transaction): the new balances, or null when a limit or the balance refuses it.
   */
  async reserveWithinLimits(runner: SqlRunner, r: ReservationRequest): Promise<Balances | null> {
    if (r.amountMicro < 0n) throw new AppError('VALIDATION_001', 'reservation must not be negative');
    const row = await this.accounts.reserve(r, runner);
    return row ? { availableMicro: BigInt(row.available_micro), pendingMicro: BigInt(row.pending_micro) } : null;
  }

  /**
   * Holds the account's row for the rest of `em`'s transaction, for a caller that then locks
   * another row the account's settlements also lock (a sponsorship policy): account first, as
   * settlement does, so the two never wait on each other in opposite orders.
   */
  async lockAccount(em: EntityManager, userId: string): Promise<void> {
    await this.lock(em, userId);
  }

  /** `counters` alone, for settlements that went through `settle` or `release`. */
  applyCounters(em: EntityManager, userId: string, counters: AccountCounters): Promise<void> {
    return this.accounts.applyCounters(userId, counters, em);
  }

  /**
   * Charges the actual cost of a reservation and releases the rest. A cost above the
   * reservation takes the excess from available, as far as it goes: the relay already
   * spent the gas, so refusing would only lose the record.
   */
  settle(userId: string, reference: string, actualMicro: bigint, em?: EntityManager): Promise<Balances> {
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      if (await this.entries.isClosed(reference, m)) return account;
      const reserved = await this.reservedFor(m, reference);
      const excess = actualMicro > reserved ? actualMicro - reserved : 0n;
      const excessCharged = excess > account.availableMicro ? account.availableMicro : excess;
      if (excessCharged < excess) {
        this.logger.warn(`settle ${reference}: cost exceeds reservation by ${excess} micro-USD, available covers ${excessCharged}`);
      }
      const charged = actualMicro - excess + excessCharged;
      // settle: pending loses the whole reservation; available gets back what was not charged.
      return this.apply(m, account, 'settle', reserved - charged, -reserved, reference, `charged ${charged}`);
    });
  }

  /**
   * Corrects a settled charge by `deltaMicro` (positive: the account owes more; negative: it gets
   * money back) under the settlement's reference. A charge beyond available takes what is there,
   * as `settle` does for a cost above its reservation. Returns the delta actually applied.
   */
  adjust(userId: string, reference: string, deltaMicro: bigint, memo: string, em?: EntityManager): Promise<bigint> {
    return this.inTransaction(em, async (m) => {
      if (deltaMicro === 0n) return 0n;
      const account = await this.lock(m, userId);
      const applied = deltaMicro > account.availableMicro ? account.availableMicro : deltaMicro;
      if (applied < deltaMicro) this.logger.warn(`adjust ${reference}: ${deltaMicro} micro-USD owed, available covers ${applied}`);
      if (applied === 0n) return 0n;
      await this.apply(m, account, 'adjust', -applied, 0n, reference, memo);
      return applied;
    });
  }

  /** Returns a whole reservation to available (the transaction never cost anything). */
  release(userId: string, reference: string, em?: EntityManager): Promise<Balances> {
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      if (await this.entries.isClosed(reference, m)) return account;
      const reserved = await this.reservedFor(m, reference);
      return this.apply(m, account, 'release', reserved, -reserved, reference, null);
    });
  }

  /** Compares the cached balances with the sums of the ledger, both from one snapshot: read apart, a settlement between them would show a gap that is not there. */
  async audit(userId: string): Promise<LedgerAudit> {
    const { account, sums } = await this.accounts.snapshot(async (m) => ({
      account: await this.accounts.findById(userId, m),
      sums: await this.entries.sums(userId, m),
    }));
    if (!account) throw new AppError('USER_001');
    return {
      availableMicro: account.availableMicro,
      pendingMicro: account.pendingMicro,
      ledgerAvailableMicro: sums.availableMicro,
      ledgerPendingMicro: sums.pendingMicro,
      reconciles: sums.availableMicro === account.availableMicro && sums.pendingMicro === account.pendingMicro,
    };
  }

  /** What the ledger holds per reference: the chain audit compares a row's charge with it. */
  referenceSums(references: string[]): Promise<Map<string, { availableMicro: bigint; pendingMicro: bigint }>> {
    return this.entries.sumsByReference(references);
  }

  private async apply(
    m: EntityManager,
    account: AccountEntity,
    kind: LedgerKind,
    availableDelta: bigint,
    pendingDelta: bigint,
    reference: string | null,
    memo: string | null,
  ): Promise<Balances> {
    await this.entries.insert({ userId: account.id, kind, availableDelta, pendingDelta, reference, memo }, m);
    const availableMicro = account.availableMicro + availableDelta;
    const pendingMicro = account.pendingMicro + pendingDelta;
    await this.accounts.setBalances(account.id, availableMicro, pendingMicro, m);
    return { availableMicro, pendingMicro };
  }

  private async lock(m: EntityManager, userId: string): Promise<AccountEntity> {
    const account = await this.accounts.lockBalances(userId, m);
    if (!account) throw new AppError('USER_001');
    return account;
  }

  private async reservedFor(m: EntityManager, reference: string): Promise<bigint> {
    const reserved = await this.entries.reservedFor(reference, m);
    if (reserved === null) throw new AppError('SYSTEM_002', `no reservation ${reference}`);
    return reserved;
  }

  private inTransaction<T>(em: EntityManager | undefined, fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return em ? fn(em) : this.accounts.transaction(fn);
  }
}
