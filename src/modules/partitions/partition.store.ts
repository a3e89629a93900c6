import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SqlStore } from '../../database/sql-store';
import { rawSql, sql } from '../../database/sql';

/** The monthly-partitioned tables (migration TimePartitions1795760000000), parents before children. */
export const PARTITIONED_TABLES = ['relay_transactions', 'relay_broadcasts', 'tx_status_events', 'webhook_deliveries', 'ledger_entries'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/**
 * Storage options of a new month's partition. relay_transactions keeps a quarter of each page
 * free: a row's in-flight moves are HOT updates (migration HotStageMoves1795766000000) only
 * when the new version fits on the row's page.
 */
const PARTITION_OPTIONS: Partial<Record<PartitionedTable, string>> = { relay_transactions: ' WITH (fillfactor = 75)' };

/**
 * The tables the retention job may drop a month of, children first (a delivery's foreign key
 * points at its event's partition). The ledger is not among them: an account's balance is the
 * sum of its entries (LedgerService.audit), so dropping entries would break it.
 */
export const RETAINED_TABLES = ['webhook_deliveries', 'tx_status_events', 'relay_broadcasts', 'relay_transactions'] as const;

/**
 * A transaction that is still changing: in flight, or mined but not yet at its chain's finality
 * depth (the relay's non-final stages; relay/core/stage.ts).
 */
const TX_NOT_FINAL = `t.stage IN ('accepted', 'signed', 'broadcast', 'mined_executed', 'mined_reverted', 'mined_cancelled')`;

/** Per table, rows of one partition `p` that keep it from being dropped. */
const NOT_FINAL: Record<(typeof RETAINED_TABLES)[number], (p: string) => string> = {
  relay_transactions: (p) => `SELECT 1 FROM ${p} t WHERE ${TX_NOT_FINAL}`,
  relay_broadcasts: (p) => `SELECT 1 FROM ${p} b JOIN relay_transactions t ON t.id = b.tx_id WHERE ${TX_NOT_FINAL}`,
  tx_status_events: (p) => `SELECT 1 FROM ${p} e LEFT JOIN relay_transactions t ON t.id = e.tx_id WHERE e.dispatched_at IS NULL OR ${TX_NOT_FINAL}`,
  webhook_deliveries: (p) => `SELECT 1 FROM ${p} d WHERE d.status = 'pending'`,
};

/** `YYYYMM` of the month `offset` months after the month of `at` (UTC). */
export function monthOf(at: Date, offset = 0): { suffix: string; from: string; to: string } {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const suffix = `${start.getUTCFullYear()}${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return { suffix, from: start.toISOString(), to: end.toISOString() };
}

/**
 * The partitions of the time-partitioned tables: months created ahead and, for retention, a
 * month's partitions detached and dropped once every row in them is final. DDL takes a
 * transaction-level advisory lock, so several workers doing this at once do it once.
 */
@Injectable()
export class PartitionStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Months of `table`'s partitions (`YYYYMM`), oldest first; the default partition is not listed. */
  async months(table: PartitionedTable, runner?: EntityManager): Promise<string[]> {
    const rows = await this.rows<{ name: string }>(
      sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ${table}::regclass ORDER BY c.relname`,
      runner,
    );
    return rows.map((r) => /_p(\d{6})$/.exec(r.name)?.[1]).filter((m): m is string => !!m);
  }

  /**
   * Creates the partitions of `month` for every table that lacks them; returns those created.
   * A month whose rows already sit in the default partition cannot be created (PostgreSQL
   * refuses): that table is reported in `blocked` and left as it is.
   */
  async ensureMonth(month: ReturnType<typeof monthOf>): Promise<{ created: string[]; blocked: string[] }> {
    const created: string[] = [];
    const blocked: string[] = [];
    for (const table of PARTITIONED_TABLES) {
      const name = `${table}_p${month.suffix}`;
      try {
        await this.transaction(async (em) => {
          await this.lock(em);
          if (await this.exists(name, em)) return;
          await this.rows(rawSql(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM ('${month.from}') TO ('${month.to}')${PARTITION_OPTIONS[table] ?? ''}`), em);
          created.push(name);
        });
      } catch (err) {
        if (!/default partition/i.test((err as Error).message)) throw err;
        blocked.push(name);
      }
    }
    return { created, blocked };
  }

  /**
   * Drops `month`'s partitions of the retained tables if none of their rows is still changing;
   * all or none, in one transaction (DETACH first: it fails if a row elsewhere still references
   * the partition). Then forgets the month's transaction ids that nothing references any more.
   * Returns the dropped partitions, or the first table whose rows are not all final.
   */
  async dropMonthIfFinal(suffix: string): Promise<{ dropped: string[] } | { keptFor: string }> {
    return this.transaction(async (em) => {
      await this.lock(em);
      const present = [];
      for (const table of RETAINED_TABLES) {
        const name = `${table}_p${suffix}`;
        if (!(await this.exists(name, em))) continue;
        const [busy] = await this.rows(rawSql(`${NOT_FINAL[table](name)} LIMIT 1`), em);
        if (busy) return { keptFor: table };
        present.push({ table, name });
      }
      for (const { table, name } of present) {
        await this.rows(rawSql(`ALTER TABLE ${table} DETACH PARTITION ${name}`), em);
        await this.rows(rawSql(`DROP TABLE ${name}`), em);
      }
      const { to } = monthOf(new Date(Date.UTC(Number(suffix.slice(0, 4)), Number(suffix.slice(4)) - 1, 1)));
      // Ids of the dropped transactions, unless an order or a swap still points at one.
      await this.rows(
        sql`DELETE FROM relay_transaction_ids i
             WHERE i.created_at < ${to}::timestamptz
               AND NOT EXISTS (SELECT 1 FROM relay_transactions t WHERE t.id = i.id)
               AND NOT EXISTS (SELECT 1 FROM vault_orders o WHERE o.relay_tx_id = i.id)
               AND NOT EXISTS (SELECT 1 FROM gasless_swaps g WHERE g.relay_tx_id = i.id)`,
        em,
      );
      return { dropped: present.map((p) => p.name) };
    });
  }

  /**
   * One maintainer at a time, and never a long wait on the tables: creating a partition locks its
   * parent and, through the parent's foreign keys, the referenced tables (accounts), in the
   * opposite order to a request inserting an account and its ledger credit. A lock timeout below
   * PostgreSQL's deadlock_timeout (1 s) makes this side give up first (retried next pass), so a
   * request is never the deadlock's victim and waits at most that long.
   */
  private async lock(em: EntityManager): Promise<void> {
    await this.rows(sql`SELECT pg_advisory_xact_lock(hashtext('relay:partitions'))`, em);
    await this.rows(sql`SET LOCAL lock_timeout = '300ms'`, em);
  }

  private async exists(name: string, em: EntityManager): Promise<boolean> {
    const [row] = await this.rows<{ t: string | null }>(sql`SELECT to_regclass(${name}) AS t`, em);
    return !!row?.t;
  }
}
