import { DataSourceOptions } from 'typeorm';
import { dbPoolSize } from '../config/process-env';
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
    extra: { max: dbPoolSize() },
  };
}
