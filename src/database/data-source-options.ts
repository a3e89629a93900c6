import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function dataSourceOptions(url: string, runMigrations: boolean): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: runMigrations,
    migrationsTransactionMode: 'all',
    synchronize: false,
    extra: { max: Number(process.env.DB_POOL_SIZE ?? 20) },
  };
}
