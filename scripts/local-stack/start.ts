/**
 * `npm start`: the whole local stack on one machine with Node, PostgreSQL and Redis.
 * Starts two anvil chains with the project's contracts, creates the database (recreated with
 * fresh chains only if the local stack created it), runs the API
 * (migrations run on its start), seeds a demo account and writes `.local/devnet.json`.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { bringUpDevnet, isRpcUp } from '../devnet';
import { ANVIL_TEST_ACCOUNTS } from '../devnet/accounts';
import { startExchangeServer } from '../exchange/server';
import { APP_NODE_OPTIONS } from './app-node-options';
import { chainsFileFor, EXCHANGE_TESTNET_ID, settlementDelegateEnv } from './chains-config';
import { DatabaseNotOwnedError, ensureDatabase } from './database';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, devRelayerAddresses, devTreasuryAddress, devTreasuryKey } from './dev-keys';
import { writeSecretFile } from './secret-file';
import { DEMO_ADDRESS, seedDemoAccount } from './demo-account';
import { progress } from './progress';
import { buildDashboard } from '../dashboard/build';
import { startFeedKeeper } from './feed-keeper';
import { startHeartbeat } from './heartbeat';
import { redactUrl } from '../../src/common/evm/provider-url';

/** Seconds between the heartbeat's empty blocks (LOCAL_BLOCK_HEARTBEAT_SEC, 0 = off). */
const HEARTBEAT_SEC = Number(process.env.LOCAL_BLOCK_HEARTBEAT_SEC ?? 2);

const ROOT = join(__dirname, '..', '..');
const STATE = join(ROOT, '.local');


function readOr(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = make();
  writeSecretFile(path, value);
  return value;
}

async function checkRedis(url: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`Redis is not reachable at ${url} (${(err as Error).message}). Start it, e.g.: redis-server --daemonize yes`);
  } finally {
    redis.disconnect();
  }
}

async function waitForHealth(apiUrl: string, app: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.exitCode !== null) throw new Error(`the API exited with code ${app.exitCode}`);
    try {
      const res = await fetch(`${apiUrl}/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the API did not become healthy within ${timeoutMs / 1000}s`);
}

/** `nest build` of the API (dist/main.js), as its own step so its time shows. */
function buildApi(): Promise<void> {
  return new Promise((resolve, reject) => {
    const nest = spawn(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    nest.on('error', reject);
    nest.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`nest build exited with code ${code}`))));
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  const steps = progress();
  mkdirSync(STATE, { recursive: true, mode: 0o700 });
  const port = Number(process.env.PORT ?? 3000);
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const adminToken = process.env.ADMIN_TOKEN ?? readOr(join(STATE, 'admin-token'), () => randomBytes(24).toString('hex'));
  // Kept across restarts so wallet-login tokens stay valid when only the API restarts.
  const jwtSecret = process.env.JWT_SECRET ?? readOr(join(STATE, 'jwt-secret'), () => randomBytes(32).toString('hex'));
  // Kept across restarts: webhook secrets sealed with it must stay readable.
  const webhookKey = process.env.WEBHOOK_ENCRYPTION_KEY ?? readOr(join(STATE, 'webhook-encryption-key'), () => randomBytes(32).toString('hex'));
  const apiUrl = `http://localhost:${port}`;

  if (process.env.LOCAL_SKIP_BUILD !== 'true') {
    await steps.step('building the API (nest build)', () => buildApi());
    // After nest build, which empties dist/; served at /dashboard.
    await steps.step('building the dashboard (esbuild)', () => buildDashboard());
  }
  await steps.step(`checking Redis at ${redisUrl}`, () => checkRedis(redisUrl));
  // More keys per region spread a burst over more senders (each holds at most RELAY_MAX_IN_FLIGHT_PER_KEY in flight).
  const relayerKeys = Number(process.env.RELAYER_KEYS_PER_REGION ?? 4);
  const chainPorts = [Number(process.env.CHAIN_31337_PORT ?? 8545), Number(process.env.CHAIN_84532_PORT ?? 8546)];
  // Anvil keeps no state across restarts: fresh chains make every nonce, hash and pending
  // transaction in the database meaningless, so the database starts fresh with them.
  const chainsAlive = (await Promise.all([isRpcUp(`http://127.0.0.1:${chainPorts[0]}`, 31337), isRpcUp(`http://127.0.0.1:${chainPorts[1]}`, 84532)])).every(Boolean);
  await steps.step(`database ${databaseUrl.replace(/\/\/[^@]*@/, '//')}${chainsAlive ? '' : ' (fresh, with fresh chains)'}`, () =>
    ensureDatabase(databaseUrl, { recreate: !chainsAlive }).catch((err: Error) => {
      if (err instanceof DatabaseNotOwnedError) throw err;
      throw new Error(`PostgreSQL is not reachable at ${databaseUrl} (${err.message}).`);
    }),
  );
  if (!chainsAlive && existsSync(join(STATE, 'demo.json'))) writeSecretFile(join(STATE, 'demo.json'), '{}');

  const devnet = await steps.step('chains and contracts (anvil; solc compile on a first run; deploy)', (note) =>
    bringUpDevnet({
      chains: [
        { chainId: 31337, name: 'Devnet', port: chainPorts[0] },
        { chainId: 84532, name: 'Base Sepolia (local)', port: chainPorts[1] },
      ],
      // The relayer pools pay for gas; on the local chains they start rich (every key the app will use).
      fund: [...devRelayerAddresses(3, relayerKeys), devTreasuryAddress()],
      extraPools: Number(process.env.LOCAL_EXTRA_POOLS ?? 0),
      stateDir: STATE,
      log: note,
    }),
  );
  // The project's own exchange endpoint for the exchange-action testnet; anvil's test accounts are its traders.
  const exchange = await steps.step('exchange endpoint', async () => startExchangeServer({
    port: Number(process.env.EXCHANGE_PORT ?? 8547),
    host: process.env.LOCAL_BIND_HOST,
    chainId: EXCHANGE_TESTNET_ID,
    traders: ANVIL_TEST_ACCOUNTS.map((a) => a.address),
  }));
  const chainsFile = join(STATE, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(chainsFileFor(devnet.chains, exchange.url), null, 2));

  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    CHAINS_FILE: chainsFile,
    ADMIN_TOKEN: adminToken,
    JWT_SECRET: jwtSecret,
    // The image runs this with NODE_ENV=production, where the origin must be named.
    PUBLIC_ORIGIN: process.env.PUBLIC_ORIGIN ?? apiUrl,
    WEBHOOK_ENCRYPTION_KEY: webhookKey,
    // Local receivers (localhost, LAN) are the point of a local stack.
    WEBHOOK_ALLOW_PRIVATE: process.env.WEBHOOK_ALLOW_PRIVATE ?? 'true',
    PORT: String(port),
    RELAYER_MNEMONIC: process.env.RELAYER_MNEMONIC ?? DEV_RELAYER_MNEMONIC,
    // The dev treasury as its own key (same address as DEV_TREASURY_PATH): the image runs with NODE_ENV=production, where a treasury path on the relayer mnemonic is refused.
    ...(process.env.RELAYER_TREASURY_PATH || process.env.RELAYER_TREASURY_KEY ? {} : { RELAYER_TREASURY_KEY: devTreasuryKey() }),
    AUTH_MNEMONIC: process.env.AUTH_MNEMONIC ?? DEV_AUTH_MNEMONIC,
    RELAYER_KEYS_PER_REGION: String(relayerKeys),
    ...settlementDelegateEnv(devnet.chains),
    // The bridge filler's fills, repayments and refunds are charged to the demo account (seeded below).
    BRIDGE_ACCOUNT: process.env.BRIDGE_ACCOUNT ?? DEMO_ADDRESS,
    // Sample often and accept a short span so vault APYs exist within seconds of starting (the heartbeat moves block time).
    VAULT_SAMPLE_INTERVAL_MS: process.env.VAULT_SAMPLE_INTERVAL_MS ?? '5000',
    VAULT_APY_MIN_SPAN_SECONDS: process.env.VAULT_APY_MIN_SPAN_SECONDS ?? '10',
  };
  // The admin CLI (npm run admin) reads this file, so it talks to the same database.
  writeSecretFile(join(STATE, 'local.env'), Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');

  console.log(`starting the API: node ${APP_NODE_OPTIONS.join(' ')} dist/main.js (its log follows)`);
  const app = spawn(process.execPath, [...APP_NODE_OPTIONS, join(ROOT, 'dist', 'main.js')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
  const heartbeat = startHeartbeat(devnet.chains.map((c) => c.rpcUrl), HEARTBEAT_SEC);
  const feedKeeper = startFeedKeeper(devnet.chains);
  const shutdown = async (code: number) => {
    clearInterval(heartbeat);
    clearInterval(feedKeeper);
    app.kill('SIGTERM');
    await Promise.all([devnet.stop(), exchange.stop()]);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  app.on('exit', (code) => {
    if (code !== 0 && code !== null) void shutdown(code);
  });

  try {
    await steps.step(`API on ${apiUrl} (migrations run on its start)`, () => waitForHealth(apiUrl, app));
    const demo = await steps.step('demo account', () => seedDemoAccount(apiUrl, adminToken, join(STATE, 'demo.json')));
    const manifest = { apiUrl, adminToken, chains: devnet.chains, demo, treasury: devTreasuryAddress() };
    writeSecretFile(join(STATE, 'devnet.json'), JSON.stringify(manifest, null, 2));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      [
        '',
        `Local stack up in ${seconds}s`,
        `  API      ${apiUrl}   (Swagger: ${apiUrl}/docs)`,
        ...devnet.chains.map((c) => `  chain    ${c.chainId} ${c.name} at ${redactUrl(c.rpcUrl)}`),
        `  chain    ${EXCHANGE_TESTNET_ID} exchange testnet at ${exchange.url}/exchange`,
        `  demo     address ${demo.address}`,
        `           api-key ${demo.apiKey}`,
        `  details  .local/devnet.json (admin token, contracts, tokens)`,
        '',
      ].join('\n'),
    );
  } catch (err) {
    console.error((err as Error).message);
    await shutdown(1);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
