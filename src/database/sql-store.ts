import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from './returning-rows';
import { compileSql, Sql } from './sql';

/**
 * `prepared`: for a hot statement of a fixed shape (its text depends only on which fragments were
 * chosen, never on values), sent as a named prepared statement: each connection parses and plans
 * it once, then every call sends only the values. The name is the text's hash, so two shapes never
 * share a name (pg refuses a name reused for another text) and the same shape always reuses it.
 */
export interface StatementOptions {
  prepared?: boolean;
}

const preparedName = (text: string): string => `q_${createHash('sha1').update(text).digest('hex')}`;

/** Where a statement runs: the pool, or the caller's open transaction. */
export type SqlRunner = DataSource | EntityManager;

/**
 * The base of every table's store (`*.store.ts`): the one place that hands SQL to the driver.
 * A store owns its table's statements; a statement that spans tables is composed from the
 * fragments the owning stores export and run by the store of the table it is about.
 */
export abstract class SqlStore {
  protected constructor(protected readonly dataSource: DataSource) {}

  /** The rows a statement returns (RETURNING included), on `runner` or the pool. */
  protected async rows<T>(query: Sql, runner: SqlRunner = this.dataSource, options?: StatementOptions): Promise<T[]> {
    const { text, values } = compileSql(query);
    // pg's query config: a named statement is parsed and planned once per connection, then only bound.
    const statement = options?.prepared ? ({ name: preparedName(text), text } as unknown as string) : text;
    return returningRows<T>(await runner.query(statement, values));
  }

  protected async first<T>(query: Sql, runner?: SqlRunner, options?: StatementOptions): Promise<T | undefined> {
    return (await this.rows<T>(query, runner, options))[0];
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
