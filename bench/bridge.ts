/**
 * `npm run bench:bridge`: the time from a deposit's source confirmation to its destination fill
 * on the two local chains (extensions.md, "Cross-chain swaps").
 *
 * Brings up its own stack (anvil 31337 and 84532 on BENCH_BRIDGE_PORT and +1, database
 * `relay_bench_bridge` recreated, Redis under the `bridge-bench` prefix, the app in process with
 * APP_ROLE=all so its worker runs the filler on its schedule), then sends BENCH_BRIDGE_N quoted
 * USDC 31337 → USDC 84532 deposits (GET /build-best-path, the user's own transaction), one after
 * another, and measures for each: from the moment the deposit is `confirmations` deep on the
 * source (the local chains: 0, so its receipt) to the moment the destination spoke shows it
 * filled (`filled(fillKey)` polled every 10 ms). Prints p50/p95/max and one JSON line.
 *
 * Settings: BENCH_BRIDGE_N [30], BENCH_BRIDGE_PORT [28645], BRIDGE_WATCH_INTERVAL_MS [the app's
 * default, 2000], BENCH_DATABASE_URL [postgres://postgres@127.0.0.1:5432/relay_bench_bridge],
 * BENCH_REDIS_URL [redis://127.0.0.1:6379/13], BENCH_LOGS=1 (the app's logs).
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AbiCoder, Contract, Interface, JsonRpcProvider, keccak256, MaxUint256, parseEther, parseUnits, Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { bringUpDevnet } from '../scripts/devnet';
import { chainsFileFor } from '../scripts/local-stack/chains-config';
import { recreateDatabase } from '../scripts/local-stack/database';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, devRelayerAddresses } from '../scripts/local-stack/dev-keys';

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : Number(raw);
};
const ROOT = join(__dirname, '..');
const STATE_DIR = join(ROOT, '.local', 'bench-bridge');
const SETTINGS = {
  n: int('BENCH_BRIDGE_N', 30),
  port: int('BENCH_BRIDGE_PORT', 28645),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_bench_bridge',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13',
  redisPrefix: 'bridge-bench',
  logs: process.env.BENCH_LOGS === '1',
};
const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;
const erc20 = new Interface(['function mint(address to, uint256 amount)', 'function approve(address, uint256) returns (bool)']);
const spokeAbi = new Interface([
  'function filled(bytes32) view returns (bool)',
  'event Deposited(bytes32 indexed depositId, address indexed depositor, address inputToken, uint256 inputAmount, uint256 destinationChainId, address outputToken, uint256 outputAmount, address recipient, uint64 fillDeadline, bytes32 ref)',
]);
const log = (line: string) => console.log(`[bench] ${line}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

class QuietLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context = '', logLevel: LogLevel = 'log', writeStreamType?: 'stdout' | 'stderr'): void {
    if (SETTINGS.logs || logLevel === 'error' || logLevel === 'fatal') super.printMessages(messages, context, logLevel, writeStreamType);
  }
}

async function main(): Promise<void> {
  mkdirSync(STATE_DIR, { recursive: true });
  const devnet = await bringUpDevnet({
    chains: [
      { chainId: 31337, name: 'Devnet', port: SETTINGS.port },
      { chainId: 84532, name: 'Base Sepolia (local)', port: SETTINGS.port + 1 },
    ],
    stateDir: STATE_DIR,
    fund: devRelayerAddresses(3, 8),
    log: (line) => log(`devnet: ${line}`),
  });
  let app: NestExpressApplication | undefined;
  try {
    const chainsFile = join(STATE_DIR, 'chains.json');
    writeFileSync(chainsFile, JSON.stringify(chainsFileFor(devnet.chains), null, 2));
    await recreateDatabase(SETTINGS.databaseUrl);
    const redis = new Redis(SETTINGS.redisUrl);
    const keys = await redis.keys(`${SETTINGS.redisPrefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    const bridgeAccount = Wallet.createRandom().address;
    Object.assign(process.env, {
      NODE_ENV: 'test',
      DATABASE_URL: SETTINGS.databaseUrl,
      REDIS_URL: SETTINGS.redisUrl,
      REDIS_PREFIX: SETTINGS.redisPrefix,
      CHAINS_FILE: chainsFile,
      ADMIN_TOKEN,
      APP_ROLE: 'all',
      PORT: '0',
      DB_RUN_MIGRATIONS: 'false',
      ACCESS_LOG: 'false',
      LOG_FORMAT: 'text',
      RELAYER_MNEMONIC: DEV_RELAYER_MNEMONIC,
      AUTH_MNEMONIC: DEV_AUTH_MNEMONIC,
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef012345',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RELAYER_KEYS_PER_REGION: '8',
      BRIDGE_ACCOUNT: bridgeAccount,
    });
    const { dataSourceOptions } = await import('../src/database/data-source-options');
    const ds = new DataSource(dataSourceOptions(SETTINGS.databaseUrl, false));
    await ds.initialize();
    await ds.runMigrations();
    await ds.destroy();
    const { AppModule } = await import('../src/app.module');
    const { configureApp } = await import('../src/bootstrap/configure-app');
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRole('all'), { bodyParser: false, logger: new QuietLogger(), abortOnError: false });
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    const http = async (method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Record<string, any>> => { // eslint-disable-line @typescript-eslint/no-explicit-any
      const res = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    await http('POST', '/admin/accounts', admin, { address: bridgeAccount, creditUsd: 10_000 });
    const team = (await http('POST', '/admin/accounts', admin, { address: Wallet.createRandom().address, creditUsd: 100 })).data;

    const [src, dest] = devnet.chains;
    const srcRpc = new JsonRpcProvider(src.rpcUrl, src.chainId, { staticNetwork: true, cacheTimeout: -1 });
    const destRpc = new JsonRpcProvider(dest.rpcUrl, dest.chainId, { staticNetwork: true, cacheTimeout: -1 });
    const usdc = (c: typeof src): string => c.tokens.find((t) => t.symbol === 'USDC')!.address;
    const destSpoke = new Contract(dest.contracts.bridgeSpoke, spokeAbi, destRpc);
    const user = Wallet.createRandom().connect(srcRpc);
    await srcRpc.send('anvil_setBalance', [user.address, '0x' + parseEther('100').toString(16)]);
    const amount = parseUnits('100', 6);
    await (await user.sendTransaction({ to: usdc(src), data: erc20.encodeFunctionData('mint', [user.address, amount * BigInt(SETTINGS.n + 1)]) })).wait();
    await (await user.sendTransaction({ to: usdc(src), data: erc20.encodeFunctionData('approve', [src.contracts.bridgeSpoke, MaxUint256]) })).wait();

    const samples: number[] = [];
    log(`${SETTINGS.n} deposits of 100 USDC, 31337 → 84532 (filler pass every ${process.env.BRIDGE_WATCH_INTERVAL_MS ?? '2000'} ms)`);
    for (let i = 0; i < SETTINGS.n; i++) {
      const q = new URLSearchParams({ fromChain: '31337', toChain: '84532', fromToken: usdc(src), toToken: usdc(dest), amount: amount.toString(), sender: user.address });
      const built = (await http('GET', `/build-best-path?${q}`, { 'api-key': team.apiKey })).data;
      const sent = await user.sendTransaction({ to: built.Tx.to, data: built.Tx.data, gasLimit: BigInt(built.Tx.gasLimit) });
      const receipt = await sent.wait();
      // Local chains: confirmations 0, so the receipt is the source confirmation.
      const confirmedAt = performance.now();
      const depositLog = receipt!.logs.find((l) => l.address.toLowerCase() === src.contracts.bridgeSpoke.toLowerCase());
      const depositId = spokeAbi.parseLog(depositLog!)!.args.depositId as string;
      const fillKey = keccak256(AbiCoder.defaultAbiCoder().encode(['uint256', 'bytes32'], [31337, depositId]));
      const until = Date.now() + 60_000;
      while (!(await destSpoke.filled(fillKey))) {
        if (Date.now() > until) throw new Error(`deposit ${depositId} not filled within 60 s`);
        await sleep(10);
      }
      samples.push(performance.now() - confirmedAt);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    const result = {
      n: samples.length,
      p50Ms: Math.round(pct(sorted, 50)),
      p95Ms: Math.round(pct(sorted, 95)),
      maxMs: Math.round(sorted[sorted.length - 1]),
      passIntervalMs: Number(process.env.BRIDGE_WATCH_INTERVAL_MS ?? 2000),
      cpus: cpus().length,
      loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    };
    console.log(`\nsource confirmation → destination fill, ${result.n} deposits: p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, max ${result.maxMs} ms (load ${result.loadavg.join(' ')} on ${result.cpus} cpus)`);
    console.log(JSON.stringify(result));
  } finally {
    await app?.close();
    await devnet.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    console.error(`[bench] failed: ${err.message}`);
    process.exit(1);
  },
);
