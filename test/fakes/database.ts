import 'reflect-metadata';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { migrateUnderLock } from '../../src/database/migrate';

/**
 * A real PostgreSQL for store-level unit specs, without the integration tier's global setup:
 * the database `<TEST_DATABASE_URL's name>_stores` (default relay_test_stores on
 * postgres://postgres@127.0.0.1:5432), created when absent and migrated under the migration
 * lock, so parallel jest workers and later runs share it and only the first run pays for the
 * migrations. Specs write rows of fresh accounts (random addresses, random ids) and never
 * truncate, so they run side by side and against a database earlier runs left behind.
 */
export function storesDatabaseUrl(): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_test');
  url.pathname = `/${url.pathname.replace(/^\//, '') || 'relay_test'}_stores`;
  return url.toString();
}

async function createIfAbsent(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((err: { code?: string }) => {
      // Another worker created it between the read and the create.
      if (err.code !== '42P04' && err.code !== '23505') throw err;
    });
  } finally {
    await client.end();
  }
}

/** An initialized DataSource on the migrated stores database; `destroy()` it in afterAll. */
export async function storesDatabase(): Promise<DataSource> {
  const url = storesDatabaseUrl();
  await createIfAbsent(url);
  const dataSource = new DataSource({ ...dataSourceOptions(url, false), extra: { max: 4 } });
  await dataSource.initialize();
  await migrateUnderLock(dataSource);
  return dataSource;
}
