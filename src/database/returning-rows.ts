/**
 * TypeORM's postgres driver answers `UPDATE/DELETE ... RETURNING` through `query()` as
 * `[rows, affectedCount]` but `INSERT/SELECT` as plain rows; this gives rows either way.
 */
export function returningRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
