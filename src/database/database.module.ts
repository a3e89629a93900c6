import { Logger, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';
import { migrateUnderLock } from './migrate';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => dataSourceOptions(config.DATABASE_URL, config.DB_RUN_MIGRATIONS),
      // TypeORM's own migrationsRun holds no lock; the app runs them itself under the advisory lock,
      // so replicas starting at once migrate once (DB_RUN_MIGRATIONS=false when a migrate Job does it).
      dataSourceFactory: async (options) => {
        if (!options) throw new Error('no data source options');
        const dataSource = await new DataSource({ ...options, migrationsRun: false }).initialize();
        if (options.migrationsRun) {
          const logger = new Logger('Migrations');
          await migrateUnderLock(dataSource, (line) => logger.log(line));
        }
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
