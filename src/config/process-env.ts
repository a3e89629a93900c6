/**
 * The environment reads that are not fields of AppConfig, in the one folder that reads
 * process.env (docs/module-skeleton.md, "Configuration"). Everything else takes AppConfig or
 * one of these.
 */

/** The whole environment: CHAINS_FILE's `${VAR}` provider placeholders may name any variable; the tracing bootstrap reads the standard OTEL_* ones. */
export function environment(): Readonly<NodeJS.ProcessEnv> {
  return process.env;
}

/**
 * `EXCHANGE_API_URL_<chainId>`, which overrides a chain's exchangeApiUrl. Read at each call, not
 * at startup: an operator (and the edge-upstream spec) can repoint an exchange without a restart.
 */
export function exchangeApiUrlOverride(chainId: number): string | undefined {
  return process.env[`EXCHANGE_API_URL_${chainId}`];
}

/** PostgreSQL connections per process (DB_POOL_SIZE, 20); the CLI's migrate reads it too, before any AppConfig exists. */
export function dbPoolSize(): number {
  return Number(process.env.DB_POOL_SIZE ?? 20);
}

/** DB_PREPARED_STATEMENTS (true): the stores' statements as named prepared statements (src/database/prepared-statements.ts). */
export function dbPreparedStatements(): boolean {
  return (preparedStatements ??= process.env.DB_PREPARED_STATEMENTS !== 'false');
}
let preparedStatements: boolean | undefined;

/** DB_GENERIC_PLANS (true): the hot statements on sessions that keep one generic plan (src/database/prepared-statements.ts). */
export function dbGenericPlans(): boolean {
  return (genericPlans ??= process.env.DB_GENERIC_PLANS !== 'false');
}
let genericPlans: boolean | undefined;

/** BUILD_COMMIT, set by the image build: the build-info metric's label. */
export function buildCommit(): string | undefined {
  return process.env.BUILD_COMMIT;
}

/** LOG_FORMAT for the logger, which exists before AppConfig is validated. */
export function logFormat(): string | undefined {
  return process.env.LOG_FORMAT;
}
