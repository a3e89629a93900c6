import { DataSource, EntityManager } from 'typeorm';
import { PlanChoice, runStatement } from './prepared-statements';
import { compileSql, Sql } from './sql';

/** Where a statement runs: the pool, or the caller's open transaction. */
export type SqlRunner = DataSource | EntityManager;

/**
 * The base of every table's store (`*.store.ts`): the one place that hands SQL to the driver.
 * A store owns its table's statements; a statement that spans tables is composed from the
 * fragments the owning stores export and run by the store of the table it is about.
 */
export abstract class SqlStore {
  protected constructor(protected readonly dataSource: DataSource) {}

  /** The rows a statement returns (RETURNING included), on `runner` or the pool; prepared (src/database/prepared-statements.ts). */
  protected async rows<T>(query: Sql, runner: SqlRunner = this.dataSource, plan: PlanChoice = 'auto'): Promise<T[]> {
    const { text, values } = compileSql(query);
    return runStatement<T>(runner, text, values, plan);
  }

  protected async first<T>(query: Sql, runner?: SqlRunner, plan: PlanChoice = 'auto'): Promise<T | undefined> {
    return (await this.rows<T>(query, runner, plan))[0];
  }

  /** TypeORM's manager on `runner` or the pool, for the store's simple entity reads and writes. */
  protected manager(runner: SqlRunner = this.dataSource): EntityManager {
    return runner instanceof DataSource ? runner.manager : runner;
  }

  /** One database transaction; stores called with its manager join it. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** A read-only REPEATABLE READ transaction: every statement in `work` sees one snapshot. */
  snapshot<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      await em.query('SET TRANSACTION READ ONLY');
      return work(em);
    });
  }
}
