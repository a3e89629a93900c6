import { createHash } from 'node:crypto';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import { dbPreparedStatements } from '../config/process-env';
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

/** The rows of `text` (RETURNING included) on `runner`'s transaction or the pool. */
export async function runStatement<T>(runner: DataSource | EntityManager, text: string, values: unknown[]): Promise<T[]> {
  const name = dbPreparedStatements() ? nameOf(text) : undefined;
  if (name === undefined) return returningRows<T>(await runner.query(text, values));
  const target: Pool | PoolClient = (await transactionClient(runner)) ?? poolOf(runner);
  try {
    const result: QueryResult = await target.query({ name, text, values });
    return result.rows as T[];
  } catch (err) {
    if ((err as { code?: string }).code === PLAN_CHANGED) {
      // This shape runs unnamed from now on. Outside a transaction it can run again at once; inside
      // one the error has aborted the transaction, and its caller's retry takes the unnamed path.
      names.set(text, null);
      if (target !== poolOf(runner)) throw new QueryFailedError(text, values, err as Error);
      return returningRows<T>(await runner.query(text, values));
    }
    // What the stores and the error mapping expect from TypeORM: the driver's error inside.
    throw new QueryFailedError(text, values, err as Error);
  }
}
