import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { returningRows } from '../../../database/returning-rows';
import { AccountEntity } from '../entities/account.entity';
import { AccountCounters, countersSet } from './account-counters';
import { LedgerEntryEntity, LedgerKind } from '../entities/ledger-entry.entity';

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
 * reservations serialise on the row lock and can never overdraw.
 *
 * Methods take an optional EntityManager so a caller can make the movement part of its own
 * transaction (the relay writes the transaction row and its reservation together).
 */
@Injectable()
export class LedgerService {
  private readonly logger = new Logger(LedgerService.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  credit(userId: string, amountMicro: bigint, memo?: string, em?: EntityManager): Promise<Balances> {
    if (amountMicro <= 0n) throw new AppError('VALIDATION_001', 'credit amount must be positive');
    return this.move(em, userId, 'credit', amountMicro, 0n, null, memo);
  }

  /**
   * A reservation whose limit checks and balance move are ONE conditional account UPDATE (the
   * CTE `reservation`: a row only when available, the per-tx limit, the daily limit of the window
   * starting `dayStart`, the chain and the breaker all allow it), with its reserve entry, in one
   * statement: the account row is locked only while it runs (or from there to the caller's
   * commit inside a transaction). `dependent.ctes` (parameters numbered from $7) may read
   * `reservation`, so nothing of the caller's is written when the reservation is refused;
   * `dependent.select` is the final SELECT (default: the new balances). Null when refused: the
   * caller reads the account to say which limit.
   */
  async reserveWithinLimits<T = { available_micro: string; pending_micro: string }>(
    m: EntityManager | DataSource,
    r: { userId: string; amountMicro: bigint; reference: string; chainId: number; now: Date; dayStart: Date },
    dependent: { ctes?: string; params?: unknown[]; select?: string } = {},
  ): Promise<T | null> {
    if (r.amountMicro < 0n) throw new AppError('VALIDATION_001', 'reservation must not be negative');
    const consumedToday = `(CASE WHEN daily_updated_at < $3 THEN 0 ELSE daily_consumed_micro END)`;
    const ctes = [
      `reservation AS (
         UPDATE accounts
            SET available_micro = available_micro - $2, pending_micro = pending_micro + $2,
                daily_consumed_micro = ${consumedToday} + $2, daily_updated_at = $4
          WHERE id = $1 AND available_micro >= $2 AND per_tx_limit_micro >= $2
            AND ${consumedToday} + $2 <= daily_limit_micro
            AND NOT ($5 = ANY (disabled_chain_ids))
            AND NOT (circuit_breaker_enabled AND failure_streak >= failure_streak_limit)
      RETURNING id, available_micro, pending_micro
       )`,
      `entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference)
         SELECT id, 'reserve', -($2::bigint), $2::bigint, $6::varchar FROM reservation
       )`,
      ...(dependent.ctes ? [dependent.ctes] : []),
    ];
    const rows = returningRows<T>(
      await m.query(`WITH ${ctes.join(',\n')}\n${dependent.select ?? 'SELECT available_micro, pending_micro FROM reservation'}`, [
        r.userId,
        r.amountMicro.toString(),
        r.dayStart,
        r.now,
        r.chainId,
        r.reference,
        ...(dependent.params ?? []),
      ]),
    );
    return rows[0] ?? null;
  }

  /**
   * Settlement of a reservation that covers the cost (the usual case: the estimate is a worst
   * case) as ONE statement together with the caller's own change: `source.ctes`
   * are the caller's CTE definitions (parameters from $1; data-modifying ones allowed, as
   * PostgreSQL wants them at the top level) and must define `source`, returning `user_id`,
   * `reference` and `reserved_micro` for the reservation to settle, or no row when there is
   * nothing to settle. The ledger row and the balances follow from it in the same statement, so
   * the whole settlement is one round trip and the account row is locked only while it runs.
   * Returns whether a row was settled. The caller guarantees reserved_micro >= actualMicro.
   */
  async settleCoveredWith(
    m: EntityManager | DataSource,
    source: { ctes: string; params: unknown[] },
    actualMicro: bigint,
    counters: AccountCounters,
  ): Promise<boolean> {
    const n = source.params.length;
    const actual = `$${n + 1}`;
    const c = countersSet(counters, n + 3);
    const rows = returningRows<{ user_id: string }>(
      await m.query(
        `WITH ${source.ctes},
              entry AS (
                INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference, memo)
                SELECT user_id, 'settle', reserved_micro - ${actual}, -reserved_micro, reference, $${n + 2} FROM source
              )
         UPDATE accounts a
            SET available_micro = a.available_micro + source.reserved_micro - ${actual},
                pending_micro = a.pending_micro - source.reserved_micro,
                ${c.set}
           FROM source
          WHERE a.id = source.user_id
      RETURNING a.id AS user_id`,
        [...source.params, actualMicro.toString(), `charged ${actualMicro}`, ...c.params],
      ),
    );
    return rows.length > 0;
  }

  /** `counters` alone, for settlements that went through `settle` or `release`. */
  async applyCounters(m: EntityManager, userId: string, counters: AccountCounters): Promise<void> {
    const c = countersSet(counters, 2);
    await m.query(`UPDATE accounts SET ${c.set} WHERE id = $1`, [userId, ...c.params]);
  }

  /**
   * Charges the actual cost of a reservation and releases the rest. A cost above the
   * reservation takes the excess from available, as far as it goes: the relay already
   * spent the gas, so refusing would only lose the record.
   */
  settle(userId: string, reference: string, actualMicro: bigint, em?: EntityManager): Promise<Balances> {
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      if (await this.isClosed(m, reference)) return account;
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

  /** Returns a whole reservation to available (the transaction never cost anything). */
  release(userId: string, reference: string, em?: EntityManager): Promise<Balances> {
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      if (await this.isClosed(m, reference)) return account;
      const reserved = await this.reservedFor(m, reference);
      return this.apply(m, account, 'release', reserved, -reserved, reference, null);
    });
  }

  /** Compares the cached balances with the sums of the ledger. */
  async audit(userId: string): Promise<LedgerAudit> {
    const account = await this.dataSource.getRepository(AccountEntity).findOneByOrFail({ id: userId });
    const row = await this.dataSource.query(
      `SELECT COALESCE(SUM(available_delta), 0)::text AS available, COALESCE(SUM(pending_delta), 0)::text AS pending
         FROM ledger_entries WHERE user_id = $1`,
      [userId],
    );
    const ledgerAvailableMicro = BigInt(row[0].available);
    const ledgerPendingMicro = BigInt(row[0].pending);
    return {
      availableMicro: account.availableMicro,
      pendingMicro: account.pendingMicro,
      ledgerAvailableMicro,
      ledgerPendingMicro,
      reconciles: ledgerAvailableMicro === account.availableMicro && ledgerPendingMicro === account.pendingMicro,
    };
  }

  private move(
    em: EntityManager | undefined,
    userId: string,
    kind: LedgerKind,
    availableDelta: bigint,
    pendingDelta: bigint,
    reference: string | null,
    memo: string | null | undefined,
  ): Promise<Balances> {
    return this.inTransaction(em, async (m) => {
      const account = await this.lock(m, userId);
      if (account.availableMicro + availableDelta < 0n) {
        throw new AppError('TRANSACTION_002', 'insufficient balance');
      }
      return this.apply(m, account, kind, availableDelta, pendingDelta, reference, memo ?? null);
    });
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
    await m.insert(LedgerEntryEntity, { userId: account.id, kind, availableDelta, pendingDelta, reference, memo });
    const availableMicro = account.availableMicro + availableDelta;
    const pendingMicro = account.pendingMicro + pendingDelta;
    await m.update(AccountEntity, { id: account.id }, { availableMicro, pendingMicro });
    return { availableMicro, pendingMicro };
  }

  /**
   * FOR NO KEY UPDATE, not FOR UPDATE: rows referencing the account (transactions, ledger
   * entries) take KEY SHARE on it, which FOR UPDATE would conflict with (a deadlock between two
   * submissions that inserted their rows first); balances are never part of the key.
   */
  private async lock(m: EntityManager, userId: string): Promise<AccountEntity> {
    const account = await m.findOne(AccountEntity, { where: { id: userId }, lock: { mode: 'for_no_key_update' } });
    if (!account) throw new AppError('USER_001');
    return account;
  }

  /** A reservation is settled or released once; a retried job finds it closed and changes nothing. */
  private async isClosed(m: EntityManager, reference: string): Promise<boolean> {
    const count = await m.count(LedgerEntryEntity, { where: [{ kind: 'settle', reference }, { kind: 'release', reference }] });
    return count > 0;
  }

  private async reservedFor(m: EntityManager, reference: string): Promise<bigint> {
    const reservation = await m.findOne(LedgerEntryEntity, { where: { kind: 'reserve', reference } });
    if (!reservation) throw new AppError('SYSTEM_002', `no reservation ${reference}`);
    return reservation.pendingDelta;
  }

  private inTransaction<T>(em: EntityManager | undefined, fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return em ? fn(em) : this.dataSource.transaction(fn);
  }
}
