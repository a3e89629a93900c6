import { createHash } from 'node:crypto';
import { Pool } from 'pg';
import type { PoolClient, PoolConfig, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { dbGenericPlans, dbPreparedStatements } from '../config/process-env';
import { returningRows } from './returning-rows';

/**
 * Runs the stores' statements as named prepared statements, so PostgreSQL plans each statement
 * shape once per connection instead of at every execution. The hot statements are CTEs over
 * partitioned tables: planning one took 5 to 25 times as long as running it (the nonce claim:
 * 12 ms planning, 0.5 ms execution, measured on the bench database), and planning grows with the
 * partitions a table has. With prepared statements PostgreSQL moves to a generic plan after five
 * executions when it costs no more than the custom ones (plan_cache_mode auto), and prunes
 * partitions at execution time.
 *
 * The name is a digest of the text: values are always parameters, so the shapes are the code's
 * own. MAX_SHAPES bounds them per process (each connection keeps its prepared statements); past
 * it, statements run unnamed as before. DB_PREPARED_STATEMENTS=false turns it off for a pooler
 * that cannot keep them (PgBouncer in transaction mode before 1.21).
 */
const MAX_SHAPES = 2000;
const names = new Map<string, string | null>();

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known ?? undefined;
  if (names.size >= MAX_SHAPES) return undefined;
  const name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  names.set(text, name);
  return name;
}

/** "cached plan must not change result type": a table under a prepared `SELECT *` changed columns (a migration ran beside this process). */
const PLAN_CHANGED = '0A000';

/** The pg client of an open TypeORM transaction, or undefined when `runner` is not one. */
async function transactionClient(runner: DataSource | EntityManager): Promise<PoolClient | undefined> {
  if (runner instanceof DataSource) return undefined;
  const queryRunner = runner.queryRunner as PostgresQueryRunner | undefined;
  if (!queryRunner || queryRunner.isReleased) return undefined;
  return (await queryRunner.connect()) as PoolClient;
}

function poolOf(runner: DataSource | EntityManager): Pool {
  const dataSource = runner instanceof DataSource ? runner : runner.connection;
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * How a statement is planned. `auto`: PostgreSQL's choice (plan_cache_mode auto). `generic`: one
 * plan per connection, kept (the pool beside the main one, below), for the hot statements
 * whose custom plans cost more than running them.
 */
export type PlanChoice = 'auto' | 'generic';

/**
 * Outside a transaction, a `generic` statement runs on a second pool whose sessions plan with
 * plan_cache_mode=force_generic_plan. PostgreSQL's auto mode kept choosing custom plans for
 * the CTEs over partitioned tables (the nonce claim's generic plan is costed above its custom
 * ones), so it planned them at every execution: on the bench database the claim spent 1.0 ms
 * planning to 1.2 ms running, the batched settlement 4.6 ms to 4.5 ms. Only statements whose
 * generic plan was read are marked: a generic plan cannot use a partial index whose predicate
 * a parameter decides (the pending scan's), so a setting for every session would slow those.
 * Inside a transaction the statement runs on its connection, planned as usual.
 *
 * The pool's sessions also plan with enable_seqscan=off. A generic plan is made once, from the
 * table sizes of that moment, and kept until an ANALYZE of a table it reads: one made while a
 * partition was small (a new month's, a fresh database) scanned the whole partition for every
 * id it looked up, and went on doing so as the partition grew. On the bench database the
 * batched settlement's plan read every row of the month three times per call, 5 ms of
 * PostgreSQL CPU per call of about two transactions. Every statement on this pool looks rows up
 * by a key with an index (ids, hashes, a signer's nonce row), so an index scan is right at any
 * size; a table without a usable index is still scanned (the setting only prices scans up).
 * DB_GENERIC_PLANS=false keeps every statement on the main pool (behind PgBouncer, which refuses
 * the startup parameter that sets the mode).
 */
const genericPools = new WeakMap<Pool, Pool>();

function genericPoolOf(main: Pool): Pool {
  const known = genericPools.get(main);
  if (known) return known;
  const config = (main as Pool & { options: PoolConfig }).options;
  const pool = new Pool({
    ...config,
    max: Math.max(2, Math.ceil((config.max ?? 10) / 4)),
    // A startup parameter: a SET on connect would be a second query on a client the pool has
    // already handed out (pg warns on that). PgBouncer refuses the parameter: DB_GENERIC_PLANS=false there.
    options: [config.options, '-c plan_cache_mode=force_generic_plan -c enable_seqscan=off'].filter(Boolean).join(' '),
    // Idle connections never keep a process alive; the main pool's end ends this one (below).
    allowExitOnIdle: true,
  });
  // An idle connection the server closed: the pool drops it, the next statement opens another.
  pool.on('error', () => undefined);
  genericPools.set(main, pool);
  // TypeORM ends its pool with a callback (PostgresDriver.closePool); this one ends first.
  const end = main.end.bind(main) as (cb?: (err?: Error) => void) => Promise<void> | void;
  (main as unknown as { end: (cb?: (err?: Error) => void) => Promise<void> | void }).end = (cb) => {
    genericPools.delete(main);
    const ended = pool.end().catch(() => undefined);
    if (cb) {
      void ended.then(() => end(cb));
      return;
    }
    return ended.then(() => end());
  };
  return pool;
}

/** The rows of `text` (RETURNING included) on `runner`'s transaction or the pool. */
export async function runStatement<T>(runner: DataSource | EntityManager, text: string, values: unknown[], plan: PlanChoice = 'auto'): Promise<T[]> {
  const name = dbPreparedStatements() ? nameOf(text) : undefined;
  if (name === undefined) return returningRows<T>(await runner.query(text, values));
  const transaction = await transactionClient(runner);
  const target: Pool | PoolClient = transaction ?? (plan === 'generic' && dbGenericPlans() ? genericPoolOf(poolOf(runner)) : poolOf(runner));
  try {
    const result: QueryResult = await target.query({ name, text, values });
    return result.rows as T[];
  } catch (err) {
    if ((err as { code?: string }).code === PLAN_CHANGED) {
      // This shape runs unnamed from now on. Outside a transaction it can run again at once; inside
      // one the error has aborted the transaction, and its caller's retry takes the unnamed path.
      names.set(text, null);
      if (transaction) throw new QueryFailedError(text, values, err as Error);
      return returningRows<T>(await runner.query(text, values));
    }
    // What the stores and the error mapping expect from TypeORM: the driver's error inside.
    throw new QueryFailedError(text, values, err as Error);
  }
}
