import { DataSource, MigrationExecutor } from 'typeorm';
import { dataSourceOptions } from './data-source-options';

/**
 * The PostgreSQL advisory lock every migration run holds (one bigint for the whole schema):
 * replicas, the migration Job and `npm start` may all start at once; only one migrates at a time
 * and the others find nothing pending when they get the lock.
 */
export const MIGRATION_LOCK_KEY = '7201626011000000032';

/**
 * Applies the pending migrations on one connection that holds the advisory lock for the whole
 * run (all migrations in one transaction). Returns the names it applied: empty when another
 * process had already applied them. The lock is a session lock, so a process that dies
 * mid-run releases it with its connection.
 */
export async function migrateUnderLock(dataSource: DataSource, log: (line: string) => void = () => undefined): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY])) as Array<{ locked: boolean }>;
    if (!locked) {
      log('another process is migrating; waiting for the migration lock');
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    }
    try {
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'all';
      const applied = (await executor.executePendingMigrations()).map((m) => m.name);
      log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'schema up to date (no pending migrations)');
      return applied;
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/** One migration run against `url` with its own short-lived connection (the migrate command, tests). */
export async function migrateDatabase(url: string, log?: (line: string) => void): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, false), extra: { max: 1 } });
  await dataSource.initialize();
  try {
    return await migrateUnderLock(dataSource, log);
  } finally {
    await dataSource.destroy();
  }
}
