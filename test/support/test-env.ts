import { join } from 'node:path';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, DEV_TREASURY_PATH, devTreasuryKey } from '../../scripts/local-stack/dev-keys';

/** Where the integration tier keeps its chains and state; separate from `npm start`'s ports and database. */
export const TEST_STATE_DIR = join(__dirname, '..', '..', '.local', 'test');
export const TEST_CHAINS_FILE = join(TEST_STATE_DIR, 'chains.json');
export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
/** Fixed so specs can sign their own (expired, foreign) tokens. */
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef0123456789';
/** AES-256-GCM key of webhook secrets at rest (64 hex digits). */
export const TEST_WEBHOOK_ENCRYPTION_KEY = '6a1f0e3c9b2d4f5e8a7c6b5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f';
export const TEST_CHAINS = [
  { chainId: 31337, name: 'Devnet', port: Number(process.env.TEST_CHAIN_31337_PORT ?? 18545) },
  { chainId: 84532, name: 'Base Sepolia (local)', port: Number(process.env.TEST_CHAIN_84532_PORT ?? 18546) },
];

export function testEnv(): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_test',
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15',
    REDIS_PREFIX: 'relay-test',
    CHAINS_FILE: TEST_CHAINS_FILE,
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    JWT_SECRET: TEST_JWT_SECRET,
    DB_RUN_MIGRATIONS: 'false',
    ACCESS_LOG: 'true',
    RELAYER_MNEMONIC: DEV_RELAYER_MNEMONIC,
    RELAYER_TREASURY_PATH: DEV_TREASURY_PATH,
    AUTH_MNEMONIC: DEV_AUTH_MNEMONIC,
    RELAY_RECEIPT_POLL_MS: '50',
    RELAY_RECONCILE_INTERVAL_MS: '1000',
    WEBHOOK_ENCRYPTION_KEY: TEST_WEBHOOK_ENCRYPTION_KEY,
    // The specs' receivers listen on 127.0.0.1; the refusal is tested with this off.
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE_MS: '100,150,200,250,300,350',
    WEBHOOK_SWEEP_INTERVAL_MS: '500',
    WEBHOOK_TIMEOUT_MS: '2000',
    // An open circuit waits a cool-down before its trial; the test schedule is in hundreds of ms.
    WEBHOOK_CIRCUIT_COOLDOWN_MS: '300',
    // Every spec logs in from 127.0.0.1; the per-IP limit itself is tested with a low value.
    LOGIN_RATE_LIMIT_PER_MINUTE: '100000',
    // The same for the public reads (specs poll GET /api/tx) and the admin API (every spec creates accounts).
    PUBLIC_RATE_LIMIT_PER_MINUTE: '100000',
    ADMIN_RATE_LIMIT_PER_MINUTE: '100000',
  };
}

/**
 * What a test app needs on top of testEnv() to start as production: a public origin for wallet
 * login and the treasury as a key of its own (a path on the relayer mnemonic is refused there).
 */
export function productionEnv(): Record<string, string> {
  return { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://relay.example.com', RELAYER_TREASURY_PATH: '', RELAYER_TREASURY_KEY: devTreasuryKey() };
}
