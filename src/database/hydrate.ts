import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * An entity from a row a store's own statement read (`SELECT *`), converted column by column
 * exactly as TypeORM's finders do (the driver's hydration, the column's transformer), so a
 * store can read by a prepared statement and still hand out the entity its callers expect.
 * Columns the row lacks stay unset; columns the entity does not map are ignored.
 */
export function hydrate<T extends ObjectLiteral>(dataSource: DataSource, target: EntityTarget<T>, row: Record<string, unknown>): T {
  const metadata = dataSource.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    if (!(column.databaseName in row)) continue;
    column.setEntityValue(entity, dataSource.driver.prepareHydratedValue(row[column.databaseName], column));
  }
  return entity;
}
