import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import { LedgerEntryEntity, LedgerKind } from './ledger-entry.entity';

/** Every statement on `ledger_entries`, and the entry fragments of composed statements. */
@Injectable()
export class LedgerEntryStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async insert(
    entry: { userId: string; kind: LedgerKind; availableDelta: bigint; pendingDelta: bigint; reference: string | null; memo: string | null },
    runner: SqlRunner,
  ): Promise<void> {
    await this.manager(runner).insert(LedgerEntryEntity, entry);
  }

  /** A reservation is settled or released once; a retried job finds it closed and changes nothing. */
  async isClosed(reference: string, runner: SqlRunner): Promise<boolean> {
    const count = await this.manager(runner).count(LedgerEntryEntity, { where: [{ kind: 'settle', reference }, { kind: 'release', reference }] });
    return count > 0;
  }

  /** The amount reserved under `reference` (its reserve entry and every raise of it), or null when there is no reservation. */
  async reservedFor(reference: string, runner: SqlRunner): Promise<bigint | null> {
    const row = await this.first<{ reserved: string | null; reserves: number }>(
      sql`SELECT SUM(pending_delta)::text AS reserved, (COUNT(*) FILTER (WHERE kind = 'reserve'))::int AS reserves
            FROM ledger_entries WHERE reference = ${reference} AND kind IN ('reserve', 'raise')`,
      runner,
    );
    return row && row.reserves > 0 && row.reserved !== null ? BigInt(row.reserved) : null;
  }

  async sums(userId: string, runner?: SqlRunner): Promise<{ availableMicro: bigint; pendingMicro: bigint }> {
    const row = await this.first<{ available: string; pending: string }>(
      sql`SELECT COALESCE(SUM(available_delta), 0)::text AS available, COALESCE(SUM(pending_delta), 0)::text AS pending
            FROM ledger_entries WHERE user_id = ${userId}`,
      runner,
    );
    return { availableMicro: BigInt(row?.available ?? '0'), pendingMicro: BigInt(row?.pending ?? '0') };
  }

  /** Per reference (e.g. `tx:<id>`): the sums of its entries; references without entries are absent. */
  async sumsByReference(references: string[]): Promise<Map<string, { availableMicro: bigint; pendingMicro: bigint }>> {
    if (references.length === 0) return new Map();
    const rows = await this.rows<{ reference: string; available: string; pending: string }>(
      sql`SELECT reference, SUM(available_delta)::text AS available, SUM(pending_delta)::text AS pending
            FROM ledger_entries WHERE reference = ANY(${references}::text[]) GROUP BY reference`,
    );
    return new Map(rows.map((r) => [r.reference, { availableMicro: BigInt(r.available), pendingMicro: BigInt(r.pending) }]));
  }

  /**
   * The account's entries created in [from, to), oldest first, with the running available balance
   * after each (a window sum over every entry since the account began, so the first row of the
   * range already carries what came before it).
   */
  statement(userId: string, from: Date, to: Date, limit: number): Promise<StatementRow[]> {
    return this.rows<StatementRow>(
      sql`SELECT "createdAt", kind, reference, "availableDelta", "balanceAfter" FROM (
            SELECT id, created_at AS "createdAt", kind, reference, available_delta::text AS "availableDelta",
                   (SUM(available_delta) OVER (ORDER BY id))::text AS "balanceAfter"
              FROM ledger_entries WHERE user_id = ${userId} AND created_at < ${to}
          ) s WHERE "createdAt" >= ${from} ORDER BY id LIMIT ${limit}`,
    );
  }

  /**
   * What the account was charged per UTC hour or day since `since`: a settle entry takes its
   * `-(available + pending)` out of the account (what was charged; the rest of the reservation
   * went back), and an adjust entry corrects a charge after a reorg; `count` counts settlements.
   * `chainOf` maps an entry's reference to its chain (a fragment of the relay's store).
   */
  spend(userId: string, bucket: SpendBucket, since: Date, chainOf: (reference: Sql) => Sql): Promise<SpendRow[]> {
    return this.rows<SpendRow>(
      sql`SELECT date_trunc(${bucket}, le.created_at, 'UTC') AS bucket, ${chainOf(sql`le.reference`)} AS "chainId",
                 SUM(-(le.available_delta + le.pending_delta))::text AS "spentMicro", (COUNT(*) FILTER (WHERE le.kind = 'settle'))::int AS count
            FROM ledger_entries le
           WHERE le.user_id = ${userId} AND le.kind IN ('settle', 'adjust') AND le.created_at >= ${since}
           GROUP BY 1, 2 ORDER BY 1, 2`,
    );
  }
}

export type SpendBucket = 'hour' | 'day';

/** One ledger entry of a statement: what moved in available and what available was after it. */
export interface StatementRow {
  createdAt: Date;
  kind: LedgerKind;
  reference: string | null;
  availableDelta: string;
  balanceAfter: string;
}

export interface SpendRow {
  bucket: Date;
  chainId: number | null;
  spentMicro: string;
  count: number;
}

/** The CTE `entry`: the reserve row of the `reservation` CTE (written only with it). */
export function reserveEntryCte(amountMicro: bigint, reference: string): Sql {
  return sql`entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference)
         SELECT id, 'reserve', -(${amountMicro}::bigint), ${amountMicro}::bigint, ${reference}::varchar FROM reservation
       )`;
}

/** The CTE `entry`: the reserve row of each `accepted` reservation (amount_micro, reference, ord), in order, written only with `reservation`. */
export function reserveEntriesCte(): Sql {
  return sql`entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference)
         SELECT r.id, 'reserve', -a.amount_micro, a.amount_micro, a.reference FROM accepted a, reservation r ORDER BY a.ord
       )`;
}

/** The CTE `raise_entry`: the raise row of a fee raise's `reservation` CTE (id, delta_micro), written only with it. */
export function raiseEntryCte(reference: string, memo: string): Sql {
  return sql`raise_entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference, memo)
         SELECT id, 'raise', -delta_micro, delta_micro, ${reference}::varchar, ${memo} FROM reservation
       )`;
}

/** The CTE `settle_entry`: the settle row of each `source` row (user_id, reference, reserved_micro). */
export function settleEntryCte(actualMicro: bigint): Sql {
  return sql`settle_entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference, memo)
         SELECT user_id, 'settle', reserved_micro - ${actualMicro}::bigint, -reserved_micro, reference, ${`charged ${actualMicro}`} FROM source
       )`;
}

/**
 * The CTE `settle_entry` of a batch of settlements: the settle row of each `source` row
 * (user_id, reference, reserved_micro, actual_micro, ord), each charged its own amount, written
 * in the batch's order (`ord`) as one settlement after another would be: the plan's join order
 * does not decide the entries' order.
 */
export function settleEntriesCte(): Sql {
  return sql`settle_entry AS (
         INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference, memo)
         SELECT user_id, 'settle', reserved_micro - actual_micro, -reserved_micro, reference, 'charged ' || actual_micro::text FROM source ORDER BY ord
       )`;
}
