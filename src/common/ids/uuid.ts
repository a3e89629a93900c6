/** A UUID as PostgreSQL's `uuid` type accepts it (any version, either case): checked before a lookup, so a malformed id is "not found", not a database error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
