import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { bringUpDevnet } from '../../scripts/devnet';
import { ANVIL_TEST_ACCOUNTS } from '../../scripts/devnet/accounts';
import { startExchangeServer } from '../../scripts/exchange/server';
import { chainsFileFor, EXCHANGE_TESTNET_ID } from '../../scripts/local-stack/chains-config';
import { recreateDatabase } from '../../scripts/local-stack/database';
import { devRelayerAddresses, devTreasuryAddress } from '../../scripts/local-stack/dev-keys';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { prepareSoftHsm } from './softhsm-token';
import { TEST_CHAINS, TEST_CHAINS_FILE, TEST_STATE_DIR, testEnv } from './test-env';

/**
 * Brings up the real parts once for the integration tier: two anvil chains with the local
 * stack's contracts, a fresh database with every migration applied, an empty Redis db.
 */
export default async function globalSetup(): Promise<void> {
  const env = testEnv();
  Object.assign(process.env, env);
  mkdirSync(TEST_STATE_DIR, { recursive: true });
  // The HSM signer's token (SoftHSM2), before any process loads the PKCS#11 library.
  prepareSoftHsm();

  const devnet = await bringUpDevnet({ chains: TEST_CHAINS, stateDir: TEST_STATE_DIR, fund: [...devRelayerAddresses(3, 2), devTreasuryAddress()] });
  // The exchange endpoint knows anvil's test accounts as traders; anyone else is rejected.
  const exchange = await startExchangeServer({ port: 0, chainId: EXCHANGE_TESTNET_ID, traders: ANVIL_TEST_ACCOUNTS.map((a) => a.address) });
  (globalThis as { __STOPS__?: Array<() => Promise<void>> }).__STOPS__ = [() => devnet.stop(), () => exchange.stop()];
  writeFileSync(TEST_CHAINS_FILE, JSON.stringify(chainsFileFor(devnet.chains, exchange.url), null, 2));

  await recreateDatabase(env.DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(env.DATABASE_URL, false));
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();

  const redis = new Redis(env.REDIS_URL);
  await redis.flushdb();
  await redis.quit();
}
