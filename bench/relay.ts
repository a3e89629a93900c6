/**
 * `npm run bench:relay`: throughput and latency of the relay against a direct ethers client.
 *
 * Brings up its own stack (anvil 31337 on BENCH_CHAIN_PORT=28545, database `relay_bench`
 * recreated, Redis db 14 under the `relay-bench` prefix, the API in process on a free port) so it
 * runs beside `npm start` and the tests, then measures over real HTTP:
 *   1. accepted submissions per second (POST /api/submit-tx, bounded concurrency);
 *   2. end-to-end throughput, submission to EXECUTED, against ethers sending the same mint calls
 *      straight to anvil from 8 funded wallets (explicit nonces), as a ratio relay/direct;
 *   3. latency overhead of POST /api/submit-tx-sync over a sequential ethers send + wait;
 *   4. the chain switched to 1 s blocks (interval mining): a paced load and a burst, relay vs a
 *      direct ethers client side by side: inclusion latency in blocks, fee paid per gas, and the
 *      delay from a block's arrival to the final status being visible (bench/relay-blocks.ts).
 * First it times 1,000 local signatures (bench/sign-speed.ts): the machine's speed, printed and in
 * the JSON's `machine`, since these machines differ by several times.
 * Prints a table and, last, one JSON line. Exits 1 with a message if the run could not complete
 * (non-201 answers, transactions that fail or stay PENDING, timeouts).
 *
 * Settings (environment, defaults in brackets):
 *   BENCH_SUBMIT_N [500], BENCH_SUBMIT_WARMUP [2000], BENCH_N [2000], BENCH_SYNC_M [200], BENCH_CONCURRENCY [32],
 *   BENCH_WALLETS [8] (direct baseline), BENCH_ACCOUNTS [1] (relay accounts the submissions rotate over),
 *   BENCH_APP [process]: where the app runs. `process`: a child process of its own (src/main.ts), so the relay's
 *   CPU is read from /proc apart from the bench's HTTP client; `inline`: in this process (the default
 *   with BENCH_PROFILE, which profiles this process),
 *   BENCH_WORKERS [0] (worker processes beside the API, as deployed: APP_ROLE api + worker;
 *   0 = one APP_ROLE=all process),
 *   BENCH_CHAIN_PORT [28545], BENCH_DATABASE_URL [postgres://postgres@127.0.0.1:5432/relay_bench],
 *   BENCH_REDIS_URL [redis://127.0.0.1:6379/14], BENCH_PHASE_TIMEOUT_MS [60000] (per phase; phase 3
 *   gives each side half), BENCH_MAX_RUNTIME_MS [300000], BENCH_LOGS=1 (print the app's logs),
 *   BENCH_ENFORCE=1 (also exit 1 when a target is missed), BENCH_APP_NODE_ARGS (node options of each app process; default the shipped ones, APP_NODE_OPTIONS),
 *   BENCH_INTAKE_ONLY=1 (phase 1 against an APP_ROLE=api process, no worker: the intake's own cost; set BENCH_N=0 BENCH_SYNC_M=0
 *   BENCH_BLOCK_SECONDS=0), BENCH_PROFILE_SUBMIT=<file> (a V8 CPU profile of phase 1),
 *   BENCH_PROFILE=<file> (a V8 CPU profile of this process during the relay half of phase 2, for
 *   Chrome DevTools or speedscope).
 *   BENCH_RPC_MAX_BATCH [20] (the anvil provider's `maxBatch`; 1 sends single calls only),
 *   BENCH_COSTS=1 (phase 2 also prints the relay's CPU, PostgreSQL statements, Redis commands and node calls per
 *   transaction, bench/relay-costs.ts; give it a Redis of its own, and QUEUE_REDIS_CLUSTER_NODES to put the queues on a cluster).
 *   BENCH_BLOCK_SECONDS [1] (phase 4's block time; 0 skips it), BENCH_BLOCK_PACED_N [200], BENCH_BLOCK_RATE [20] (paced
 *   sends per second, each side), BENCH_BLOCK_BURST_N [300],
 *   RELAY_*, RELAYER_KEYS_PER_REGION [24: a 300 burst fits under 16 in flight per key in one block; phases 2-3 use as many
 *   direct wallets as BENCH_WALLETS],
 *   DB_POOL_SIZE and RATE_LIMIT_PER_MINUTE are passed to the app.
 *   RELAYER_SIGNER [local]: `pkcs11` signs with keys in a SoftHSM2 token the bench makes for the run
 *   in .local/bench/softhsm (label relay-bench; `relayer-<region>-<i>` secp256k1 keys generated in the
 *   token for every region of RELAY_REGIONS, RELAYER_KEYS_PER_REGION each, funded on the bench's chain;
 *   no treasury, as with `local`), SOFTHSM2_MODULE [/usr/lib/softhsm/libsofthsm2.so].
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { ConsoleLogger, INestApplication, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { HDNodeWallet, Interface, JsonRpcProvider, Mnemonic, Wallet } from 'ethers';
import Redis from 'ioredis';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { bringUpDevnet, type Devnet } from '../scripts/devnet';
import { localSigningMedianUs } from './sign-speed';
import { ANVIL_MNEMONIC } from '../scripts/devnet/accounts';
import { APP_NODE_OPTIONS } from '../scripts/local-stack/app-node-options';
import { chainsFileFor } from '../scripts/local-stack/chains-config';
import { recreateDatabase } from '../scripts/local-stack/database';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, devRelayerAddresses } from '../scripts/local-stack/dev-keys';
import { BlocksResults, blocksRows, phaseBlocks } from './relay-blocks';
import { costMeter, Costs, countPgStatements } from './relay-costs';
import { cpuPhase, type CpuReading } from './relay-cpu';

// ---------------------------------------------------------------- settings

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
};

const ROOT = join(__dirname, '..');
const STATE_DIR = join(ROOT, '.local', 'bench');
const CHAIN_ID = 31337;
const SETTINGS = {
  submitN: int('BENCH_SUBMIT_N', 500),
  /**
   * BENCH_SUBMIT_WARMUP [2000]: transactions relayed end to end before phase 1's measured ones
   * (drained first), so phases 1 and 2 measure the steady state: the app's first requests pay
   * its connections, and V8 keeps compiling the relay's hot paths for its first two thousand or
   * so transactions (after 600, TurboFan still took 13 % of the app's CPU in phase 2;
   * docs/benchmarks.md, "JIT warm-up").
   */
  submitWarmup: int('BENCH_SUBMIT_WARMUP', 2000),
  n: int('BENCH_N', 2000),
  syncM: int('BENCH_SYNC_M', 200),
  concurrency: Math.max(1, int('BENCH_CONCURRENCY', 32)),
  wallets: Math.max(1, int('BENCH_WALLETS', 8)),
  accounts: Math.max(1, int('BENCH_ACCOUNTS', 1)),
  chainPort: int('BENCH_CHAIN_PORT', 28545),
  databaseUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_bench',
  redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14',
  redisPrefix: 'relay-bench',
  phaseTimeoutMs: int('BENCH_PHASE_TIMEOUT_MS', 60_000),
  maxRuntimeMs: int('BENCH_MAX_RUNTIME_MS', 300_000),
  httpTimeoutMs: 35_000,
  pollMs: 50,
  warmup: 10,
  logs: process.env.BENCH_LOGS === '1',
  /** Worker processes beside the in-process API (APP_ROLE api + worker, the production shape); 0 runs one APP_ROLE=all process. */
  workers: int('BENCH_WORKERS', 0),
  /** The API in a child process (its CPU apart from the bench client's), or in this process (needed for BENCH_PROFILE and BENCH_PROFILE_SUBMIT). */
  app: (process.env.BENCH_APP ?? (process.env.BENCH_PROFILE || process.env.BENCH_PROFILE_SUBMIT ? 'inline' : 'process')) === 'inline' ? ('inline' as const) : ('process' as const),
  /** BENCH_INTAKE_ONLY=1: phase 1 alone against an APP_ROLE=api process and no worker (what the HTTP intake costs; nothing is sent). */
  intakeOnly: process.env.BENCH_INTAKE_ONLY === '1',
  enforce: process.env.BENCH_ENFORCE === '1',
  profile: process.env.BENCH_PROFILE,
  /** BENCH_PROFILE_SUBMIT=<file>: a V8 CPU profile of phase 1 (submissions only). */
  submitProfile: process.env.BENCH_PROFILE_SUBMIT,
  costs: process.env.BENCH_COSTS === '1',
  /** BENCH_RPC_MAX_BATCH [20]: the bench's anvil as a provider taking JSON-RPC batches of up to this many calls (1: single calls only). */
  rpcMaxBatch: int('BENCH_RPC_MAX_BATCH', 20),
  blockSeconds: int('BENCH_BLOCK_SECONDS', 1),
  blockPacedN: int('BENCH_BLOCK_PACED_N', 200),
  blockRate: Math.max(1, int('BENCH_BLOCK_RATE', 20)),
  blockBurstN: int('BENCH_BLOCK_BURST_N', 300),
  relayerKeys: int('RELAYER_KEYS_PER_REGION', 24),
  signer: process.env.RELAYER_SIGNER === 'pkcs11' ? ('pkcs11' as const) : ('local' as const),
  regions: (process.env.RELAY_REGIONS ?? 'us-east,eu-west,ap-south').split(',').map((r) => r.trim()),
};
/** Issue 31's targets (quiet machine). */
const TARGETS = { ratio: 1.0, overheadP50Ms: 8, relayCpuMsPerTx: 3, submitPerSec: 250, burstBlocks: 2, visibleP50Ms: 20 };
const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;

const erc20 = new Interface(['function mint(address to, uint256 amount)']);
/**
 * mint(<recipient>, 1000) on USDC, recipients cycling through a fixed set. Not a fresh address per
 * call: anvil recomputes the whole state root for every block, so its cost per block grows with
 * every new account, and whichever side ran second would pay more per transaction (measured here:
 * anvil's CPU per transaction about doubled over 3,000 new accounts). A fixed set keeps the chain
 * the same size for both sides. Random bytes, not Wallet.createRandom(): that costs ~13 ms of CPU.
 */
const RECIPIENTS = Array.from({ length: 256 }, () => `0x${randomBytes(20).toString('hex')}`);
let nextRecipient = 0;
const mintCall = (): string => erc20.encodeFunctionData('mint', [RECIPIENTS[nextRecipient++ % RECIPIENTS.length], 1_000n]);
const mintCalls = (count: number): string[] => Array.from({ length: count }, mintCall);

class BenchError extends Error {}

// ---------------------------------------------------------------- small helpers

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const now = () => performance.now();
const log = (line: string) => console.log(`[bench] ${line}`);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}
const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** CPU of this process (the app and the bench client) since the call, as % of one core. */
function cpuMeter(): () => string {
  const cpu = process.cpuUsage();
  const wall = now();
  return () => {
    const used = process.cpuUsage(cpu);
    return `${(((used.user + used.system) / 1000 / (now() - wall)) * 100).toFixed(0)}% CPU (node)`;
  };
}
const round = (x: number, digits = 1) => (Number.isFinite(x) ? Number(x.toFixed(digits)) : null);

/** Runs `count` tasks with at most `limit` in flight; results in task order. */
async function pool<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

interface AppProblems {
  readonly problems: string[];
  problemCount: number;
}

/** The tail of the app's warnings and errors, kept for the report (printed live only with BENCH_LOGS=1). */
class BenchLogger extends ConsoleLogger implements AppProblems {
  readonly problems: string[] = [];
  problemCount = 0;

  protected override printMessages(messages: unknown[], context = '', logLevel: LogLevel = 'log', writeStreamType?: 'stdout' | 'stderr'): void {
    if (logLevel === 'warn' || logLevel === 'error' || logLevel === 'fatal') {
      this.problemCount++;
      if (this.problems.length < 20) this.problems.push(`${logLevel} [${context}] ${messages.map((m) => (m instanceof Error ? m.message : String(m))).join(' ').slice(0, 400)}`);
    }
    if (SETTINGS.logs) super.printMessages(messages, context, logLevel, writeStreamType);
  }
}

// ---------------------------------------------------------------- HTTP client

interface HttpResult {
  status: number;
  body: { data?: Record<string, unknown>; error?: { code?: string; message?: string } } | undefined;
  ms: number;
}

class Api {
  private keys: string[] = [];

  constructor(readonly baseUrl: string) {}

  setKeys(keys: string[]): void {
    this.keys = keys;
  }

  /** `keyIndex` picks one of the bench accounts' keys (round robin over BENCH_ACCOUNTS). */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, keyIndex = 0): Promise<HttpResult> {
    const apiKey = this.keys.length > 0 ? this.keys[keyIndex % this.keys.length] : undefined;
    const started = now();
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(apiKey ? { 'api-key': apiKey } : {}), ...headers },
      body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(SETTINGS.httpTimeoutMs),
    });
    const text = await res.text();
    const ms = now() - started;
    let parsed: HttpResult['body'];
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = { error: { message: text.slice(0, 200) } };
    }
    return { status: res.status, body: parsed, ms };
  }
}

const describe = (r: HttpResult) => `${r.status} ${r.body?.error?.code ?? ''} ${r.body?.error?.message ?? JSON.stringify(r.body).slice(0, 200)}`.trim();

// ---------------------------------------------------------------- the stack

interface Stack {
  devnet: Devnet;
  app?: INestApplication;
  /** The API's child process (BENCH_APP=process). */
  appProcess?: ChildProcess;
  logger: AppProblems;
  api: Api;
  db: Client;
  usdc: string;
  provider: JsonRpcProvider;
  extraProviders?: JsonRpcProvider[];
  workers?: ChildProcess[];
}

async function cleanRedis(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    let cursor = '0';
    let rounds = 0;
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = nextCursor;
    } while (cursor !== '0' && ++rounds < 100_000);
  } catch (err) {
    throw new BenchError(`Redis is not reachable at ${url} (${(err as Error).message})`);
  } finally {
    redis.disconnect();
  }
}

async function bringUp(stackRef: { stack?: Partial<Stack> }): Promise<Stack> {
  mkdirSync(STATE_DIR, { recursive: true });
  const t0 = now();
  // Enough keys that a burst fits under the in-flight bound per key (RELAY_MAX_IN_FLIGHT_PER_KEY) in one block.
  const keysPerRegion = SETTINGS.relayerKeys;
  const token = SETTINGS.signer === 'pkcs11' ? await benchToken(keysPerRegion) : undefined;
  const devnet = await bringUpDevnet({
    chains: [{ chainId: CHAIN_ID, name: 'Devnet', port: SETTINGS.chainPort }],
    stateDir: STATE_DIR,
    fund: token ? token.addresses : devRelayerAddresses(SETTINGS.regions.length, keysPerRegion),
    log: (line) => log(`devnet: ${line}`),
  });
  stackRef.stack = { devnet };
  const chain = devnet.chains[0];
  const usdc = chain.tokens.find((t) => t.symbol === 'USDC')?.address;
  if (!usdc) throw new BenchError('the devnet has no USDC token');
  const chainsFile = join(STATE_DIR, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(withBatches(chainsFileFor(devnet.chains), SETTINGS.rpcMaxBatch), null, 2));
  log(`chain ready (${(now() - t0).toFixed(0)} ms)`);

  await recreateDatabase(SETTINGS.databaseUrl).catch((err: Error) => {
    throw new BenchError(`PostgreSQL is not reachable at ${SETTINGS.databaseUrl} (${err.message})`);
  });
  await cleanRedis(SETTINGS.redisUrl, SETTINGS.redisPrefix);

  // Every setting the app reads, before the first import of src/.
  const passthrough = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(RELAY_|RELAYER_KEYS_PER_REGION$|DB_POOL_SIZE$|RATE_LIMIT_PER_MINUTE$|QUEUE_REDIS_CLUSTER_NODES$)/.test(k)));
  Object.assign(process.env, {
    NODE_ENV: 'test', // read no .env / .local/local.env of a developer
    DATABASE_URL: SETTINGS.databaseUrl,
    REDIS_URL: SETTINGS.redisUrl,
    REDIS_PREFIX: SETTINGS.redisPrefix,
    CHAINS_FILE: chainsFile,
    ADMIN_TOKEN,
    APP_ROLE: SETTINGS.workers > 0 || SETTINGS.intakeOnly ? 'api' : 'all',
    PORT: '0',
    DB_RUN_MIGRATIONS: 'false',
    ACCESS_LOG: 'false',
    LOG_FORMAT: 'text',
    RELAYER_MNEMONIC: DEV_RELAYER_MNEMONIC,
    AUTH_MNEMONIC: DEV_AUTH_MNEMONIC,
    // Wallet login is not benchmarked, but the app will not start without a secret.
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef012345',
    RATE_LIMIT_PER_MINUTE: '1000000',
    // Phase 4 polls GET /api/tx (public, limited per IP) every 10 ms per sampled transaction: a 429 there would read as "not final yet".
    PUBLIC_RATE_LIMIT_PER_MINUTE: '1000000',
    RELAYER_KEYS_PER_REGION: String(keysPerRegion),
    ...passthrough,
    ...(token?.env ?? {}),
  });

  const { dataSourceOptions } = await import('../src/database/data-source-options');
  const dataSource = new DataSource(dataSourceOptions(SETTINGS.databaseUrl, false));
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();

  stackRef.stack.workers = [];
  for (let i = 0; i < SETTINGS.workers; i++) stackRef.stack.workers.push((await startAppProcess('worker', `worker ${i}`, childProblems)).child);

  const role = SETTINGS.workers > 0 || SETTINGS.intakeOnly ? 'api' : 'all';
  let app: INestApplication | undefined;
  let appProcess: ChildProcess | undefined;
  let port: number;
  let logger: AppProblems;
  if (SETTINGS.app === 'process') {
    const started = await startAppProcess(role, 'app', childProblems);
    appProcess = started.child;
    stackRef.stack.appProcess = appProcess;
    port = started.port!;
    logger = childProblems;
  } else {
    const { AppModule } = await import('../src/app.module');
    const { configureApp } = await import('../src/bootstrap/configure-app');
    const benchLogger = new BenchLogger();
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRole(role), { bodyParser: false, logger: benchLogger, abortOnError: false });
    stackRef.stack.app = app;
    configureApp(app);
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    logger = benchLogger;
  }
  const api = new Api(`http://127.0.0.1:${port}`);
  log(`API on ${api.baseUrl}, ${SETTINGS.app === 'process' ? `in process ${appProcess!.pid}` : 'in this process'} (stack up in ${((now() - t0) / 1000).toFixed(1)} s)`);

  const db = new Client({ connectionString: SETTINGS.databaseUrl });
  await db.connect();
  stackRef.stack.db = db;
  // The direct client batches as the relay does (BENCH_RPC_MAX_BATCH): ethers sends the calls of one
  // turn (stall 0) together, so the node sees both sides' sends arrive the same way.
  const provider = new JsonRpcProvider(chain.rpcUrl, CHAIN_ID, { staticNetwork: true, batchMaxCount: Math.max(1, SETTINGS.rpcMaxBatch), batchStallTime: 0 });
  stackRef.stack.provider = provider;
  const stack: Stack = { devnet, app, appProcess, logger, api, db, usdc, provider, workers: stackRef.stack.workers };
  stackRef.stack = stack;
  return stack;
}

/**
 * RELAYER_SIGNER=pkcs11: a fresh SoftHSM2 token of the bench's own (.local/bench/softhsm; the
 * specs' token under .local/test is removed and made again by every test run), its relayer keys
 * generated inside it, and the app's PKCS11_* settings. Before the app loads: SoftHSM reads
 * SOFTHSM2_CONF once, at the process's first C_Initialize (the app's then finds it done).
 */
async function benchToken(keysPerRegion: number): Promise<{ env: Record<string, string>; addresses: string[] }> {
  const { initSoftHsmToken, openSoftHsm } = await import('../scripts/softhsm/token');
  const spec = { dir: join(STATE_DIR, 'softhsm'), label: 'relay-bench', pin: '246810', soPin: '13579111' };
  const t0 = now();
  initSoftHsmToken(spec);
  const hsm = openSoftHsm(spec.label, spec.pin);
  const addresses = SETTINGS.regions.flatMap((region) => Array.from({ length: keysPerRegion }, (_, i) => hsm.generate(`relayer-${region}-${i}`).address));
  hsm.lib.C_CloseSession(hsm.session);
  log(`SoftHSM2 token ${spec.label} in ${spec.dir}: ${addresses.length} secp256k1 keys generated in ${(now() - t0).toFixed(0)} ms`);
  // No treasury, as in the local run: the bench never tops keys up.
  const { RELAYER_TREASURY_PATH: _path, RELAYER_TREASURY_KEY: _key, ...env } = hsm.env;
  return { env, addresses };
}

/** Warnings and errors of the app's child processes (JSON log lines), for the report. */
const childProblems: AppProblems = { problems: [], problemCount: 0 };
const PROBLEM_LEVEL = /"level":("warn"|"error"|"fatal"|40|50|60)\b/;

/**
 * The app as deployed: src/main.ts in a process of its own (`APP_ROLE` `role`) on the same
 * database, Redis and chain, JSON logs; resolves once it started, with the API's port.
 */
function startAppProcess(role: 'all' | 'api' | 'worker', label: string, problems: AppProblems): Promise<{ child: ChildProcess; port?: number }> {
  return new Promise((resolve, reject) => {
    // BENCH_APP_PROFILE=<dir>: each app process writes a V8 CPU profile of its whole run there when it exits.
    const profile = process.env.BENCH_APP_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_APP_PROFILE}`] : [];
    // BENCH_APP_NODE_ARGS: node options for each app process instead of the shipped ones (APP_NODE_OPTIONS; '' for none).
    const nodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? APP_NODE_OPTIONS.join(' ')).split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, ...profile, '-r', 'ts-node/register/transpile-only', join(ROOT, 'src', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, APP_ROLE: role, PORT: '0', LOG_FORMAT: 'json', TS_NODE_TRANSPILE_ONLY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let ready = false;
    let partial = '';
    const timer = setTimeout(() => reject(new BenchError(`${label} did not start within 60 s:\n${output.slice(-2000)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (SETTINGS.logs) process.stdout.write(`[${label}] ${text}`);
      else output = (output + text).slice(-20_000);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (ready && PROBLEM_LEVEL.test(line)) {
          problems.problemCount++;
          if (problems.problems.length < 20) problems.problems.push(`[${label}] ${line.slice(0, 400)}`);
        }
        const listening = /API listening on http:\/\/localhost:(\d+)/.exec(line);
        if (!ready && (listening || line.includes('worker started'))) {
          ready = true;
          clearTimeout(timer);
          log(`${label} started (pid ${child.pid}, APP_ROLE=${role})`);
          resolve({ child, port: listening ? Number(listening[1]) : undefined });
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new BenchError(`${label} exited with ${code}:\n${output.slice(-2000)}`));
    });
  });
}

async function createBenchAccount(api: Api): Promise<string> {
  const address = Wallet.createRandom().address;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const created = await api.call('POST', '/admin/accounts', { address, creditUsd: 1_000_000 }, admin);
  if (created.status !== 201 || typeof created.body?.data?.apiKey !== 'string') throw new BenchError(`creating the bench account: ${describe(created)}`);
  const limits = await api.call('PATCH', `/admin/accounts/${address}/limits`, { perTxLimit: 1_000_000, dailyLimit: 1_000_000_000 }, admin);
  if (limits.status !== 200) throw new BenchError(`raising the bench account's limits: ${describe(limits)}`);
  return created.body.data.apiKey;
}

/** Starts a V8 CPU profile of this process (app and bench client); the returned function writes it. */
async function startProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    log(`CPU profile written to ${file}`);
  };
}

// ---------------------------------------------------------------- node calls

/** The app's own /metrics, read once for every figure taken from it at one moment. */
async function appMetrics(api: Api): Promise<string[]> {
  const res = await fetch(`${api.baseUrl}/metrics`, { signal: AbortSignal.timeout(SETTINGS.httpTimeoutMs) });
  return (await res.text()).split('\n');
}

/** The app's JSON-RPC calls so far, by method. */
function appRpcCalls(metrics: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of metrics) {
    const m = /^chain_rpc_requests_total\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const method = /method="([^"]+)"/.exec(m[1])?.[1] ?? '?';
    counts.set(method, (counts.get(method) ?? 0) + Number(m[2]));
  }
  return counts;
}

/** The chains file with each chain's one URL as a provider taking batches of up to `maxBatch` calls (anvil takes any). */
function withBatches(file: { chains: unknown[] }, maxBatch: number): { chains: unknown[] } {
  if (maxBatch <= 1) return file;
  return {
    ...file,
    chains: file.chains.map((c) => {
      const { rpcUrl, ...rest } = c as { rpcUrl?: string };
      return rpcUrl === undefined ? c : { ...rest, rpcUrls: [{ url: rpcUrl, maxBatch }] };
    }),
  };
}

/** Seconds the app's process spent in garbage collection so far, by kind (prom-client's nodejs_gc_duration_seconds). */
function appGc(metrics: string[]): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const line of metrics) {
    const m = /^nodejs_gc_duration_seconds_sum\{([^}]*)\} (\S+)$/.exec(line);
    if (m) kinds.set(/kind="([^"]+)"/.exec(m[1])?.[1] ?? '?', Number(m[2]));
  }
  return kinds;
}

/** GC ms per transaction between two readings, in all and by kind: `0.31 ms (minor 0.25, major 0.06)`. */
function gcPerTx(before: Map<string, number>, after: Map<string, number>, n: number): string {
  const parts: string[] = [];
  let all = 0;
  for (const [kind, sum] of after) {
    const ms = ((sum - (before.get(kind) ?? 0)) * 1000) / Math.max(n, 1);
    all += ms;
    if (ms >= 0.005) parts.push(`${kind} ${ms.toFixed(2)}`);
  }
  return `${all.toFixed(2)} ms (${parts.join(', ')})`;
}

/** relay_stage_duration_seconds sum and count by stage (the app's pipeline stages). */
function appStages(metrics: string[]): Map<string, { sum: number; count: number }> {
  const stages = new Map<string, { sum: number; count: number }>();
  for (const line of metrics) {
    const m = /^relay_stage_duration_seconds_(sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const stage = /stage="([^"]+)"/.exec(m[2])?.[1] ?? '?';
    const seen = stages.get(stage) ?? { sum: 0, count: 0 };
    seen[m[1] as 'sum' | 'count'] += Number(m[3]);
    stages.set(stage, seen);
  }
  return stages;
}

/** Mean ms per stage between two readings: `queue_dwell 12.3 ms (2000), ...`. */
function stageMeans(before: Map<string, { sum: number; count: number }>, after: Map<string, { sum: number; count: number }>): string {
  const parts: string[] = [];
  for (const [stage, a] of after) {
    const b = before.get(stage) ?? { sum: 0, count: 0 };
    const n = a.count - b.count;
    if (n > 0) parts.push(`${stage} ${(((a.sum - b.sum) / n) * 1000).toFixed(1)} ms (${n})`);
  }
  return parts.join(', ');
}

/** Calls per transaction by method between two readings, largest first: `eth_call 1.00, ...`. */
function perTx(before: Map<string, number>, after: Map<string, number>, txs: number): { total: number; text: string } {
  const rows = [...after].map(([method, n]) => [method, n - (before.get(method) ?? 0)] as const).filter(([, n]) => n > 0);
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, n]) => sum + n, 0) / Math.max(txs, 1);
  return { total, text: rows.map(([method, n]) => `${method} ${(n / Math.max(txs, 1)).toFixed(2)}`).join(', ') };
}

// ---------------------------------------------------------------- relay measurements

interface SubmitOutcome {
  txIds: string[];
  latencies: number[];
  errors: string[];
  elapsedMs: number;
}

/** `count` submissions, `concurrency` in flight; none is started after `deadline` (those count as not sent). */
async function submitMany(stack: Stack, count: number, deadline: number, onAccepted?: (id: string) => void): Promise<SubmitOutcome & { notSent: number }> {
  let notSent = 0;
  const txIds: string[] = [];
  const latencies: number[] = [];
  const errors: string[] = [];
  const bodies = mintCalls(count).map((callData) => JSON.stringify({ chainId: CHAIN_ID, to: stack.usdc, callData, label: 'bench' }));
  const started = now();
  await pool(count, SETTINGS.concurrency, async (i) => {
    if (now() > deadline) {
      notSent++;
      return;
    }
    try {
      const r = await stack.api.call('POST', '/api/submit-tx', bodies[i], {}, i);
      const id = r.body?.data?.txId;
      if (r.status === 201 && typeof id === 'string') {
        txIds.push(id);
        latencies.push(r.ms);
        onAccepted?.(id);
      } else errors.push(describe(r));
    } catch (err) {
      errors.push((err as Error).message);
    }
  });
  return { txIds, latencies, errors, elapsedMs: now() - started, notSent };
}

interface StatusCounts {
  pending: number;
  executed: number;
  failed: number;
}

/** Final statuses already seen: a poll asks only for the ids still pending. */
const finalStatus = new Map<string, string>();

/**
 * Where `ids` stand. Cheap for the database the relay shares this machine with: only the ids not
 * final yet are asked for, through a join on `unnest` (`id = ANY($1)` with thousands of ids took
 * 15-75 ms to plan on the partitioned table, every 50 ms).
 */
async function countStatuses(db: Client, ids: string[]): Promise<StatusCounts> {
  const open = ids.filter((id) => !finalStatus.has(id));
  if (open.length > 0) {
    const res = await db.query<{ id: string; status: string }>(
      "SELECT t.id, t.status FROM unnest($1::uuid[]) AS u(id) JOIN relay_transactions t ON t.id = u.id WHERE t.status <> 'PENDING'",
      [open],
    );
    for (const row of res.rows) finalStatus.set(row.id, row.status);
  }
  // ids the database does not know yet count as pending
  const counts: StatusCounts = { pending: 0, executed: 0, failed: 0 };
  for (const id of ids) {
    const status = finalStatus.get(id);
    if (status === undefined) counts.pending++;
    else if (status === 'EXECUTED') counts.executed++;
    else counts.failed++;
  }
  return counts;
}

/** Rows created since `since` and still PENDING: an index-only count on the partial pending index. */
async function pendingSince(db: Client, since: Date): Promise<number> {
  const res = await db.query<{ n: number }>({
    name: 'bench-pending-since',
    text: "SELECT count(*)::int AS n FROM relay_transactions WHERE status = 'PENDING' AND created_at >= $1",
    values: [since],
  });
  return res.rows[0].n;
}

/** Polls until none of `ids` is PENDING, or the deadline. */
async function waitTerminal(db: Client, ids: string[], deadline: number): Promise<StatusCounts> {
  for (;;) {
    const counts = await countStatuses(db, ids);
    if (counts.pending === 0 || now() > deadline) return counts;
    await sleep(SETTINGS.pollMs);
  }
}

async function failureReasons(db: Client, ids: string[]): Promise<string[]> {
  const res = await db.query<{ status: string; reason: string | null; n: string }>(
    `SELECT t.status, left(coalesce(to_jsonb(t) ->> 'error', to_jsonb(t) ->> 'revert_reason'), 200) AS reason, count(*) AS n FROM relay_transactions t
      WHERE t.id = ANY($1::uuid[]) AND t.status <> 'EXECUTED' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`,
    [ids],
  );
  return res.rows.map((r) => `${r.n}× ${r.status}${r.reason ? `: ${r.reason}` : ''}`);
}

// ---------------------------------------------------------------- direct ethers baseline

function anvilWallets(count: number, provider: JsonRpcProvider): Wallet[] {
  const mnemonic = Mnemonic.fromPhrase(ANVIL_MNEMONIC);
  // anvil's default mnemonic; only accounts 0..9 are funded at genesis, so main() sets every balance.
  return Array.from({ length: count }, (_, i) => new Wallet(HDNodeWallet.fromMnemonic(mnemonic, `m/44'/60'/0'/0/${i}`).privateKey, provider));
}

/** The direct client's node calls (the relay's are read from its /metrics). */
const directCalls = new Map<string, number>();
const countDirect = (method: string) => directCalls.set(method, (directCalls.get(method) ?? 0) + 1);

async function receiptOf(provider: JsonRpcProvider, hash: string, deadline: number, intervalMs = 10): Promise<{ status: string } | null> {
  for (;;) {
    countDirect('eth_getTransactionReceipt');
    const receipt = (await provider.send('eth_getTransactionReceipt', [hash])) as { status: string } | null;
    if (receipt || now() > deadline) return receipt;
    await sleep(intervalMs);
  }
}

/** `count` mint calls from `wallets` with explicit nonces and fixed gas/fees, `concurrency` in flight, each until its receipt. */
async function directThroughput(stack: Stack, wallets: Wallet[], count: number): Promise<{ elapsedMs: number; ok: number; errors: string[] }> {
  const provider = stack.provider;
  const nonces = await Promise.all(wallets.map((w) => provider.getTransactionCount(w.address, 'pending')));
  const gas = await provider.estimateGas({ from: wallets[0].address, to: stack.usdc, data: mintCall() });
  const fee = await provider.getFeeData();
  const fees = { maxFeePerGas: (fee.maxFeePerGas ?? 10n ** 10n) * 2n, maxPriorityFeePerGas: fee.maxPriorityFeePerGas ?? 10n ** 9n };
  const calls = mintCalls(count);
  const errors: string[] = [];
  let ok = 0;
  const deadline = now() + SETTINGS.phaseTimeoutMs;
  const started = now();
  await pool(count, SETTINGS.concurrency, async (i) => {
    const w = i % wallets.length;
    const nonce = nonces[w]++;
    try {
      // Signed here, as a client would (the relay signs too); ~2 ms of CPU each.
      const raw = await wallets[w].signTransaction({ type: 2, chainId: CHAIN_ID, nonce, to: stack.usdc, data: calls[i], gasLimit: (gas * 12n) / 10n, ...fees });
      countDirect('eth_sendRawTransaction');
      const hash = (await provider.send('eth_sendRawTransaction', [raw])) as string;
      const receipt = await receiptOf(provider, hash, deadline);
      if (receipt?.status === '0x1') ok++;
      else errors.push(receipt ? `tx ${hash} reverted` : `tx ${hash} not mined before the deadline`);
    } catch (err) {
      errors.push((err as Error).message.split('\n')[0].slice(0, 200));
    }
  });
  if (ok < count) {
    // Why transactions were left unmined: the pool's view and each wallet's nonces.
    const pool = await provider.send('txpool_status', []).catch((err: Error) => err.message);
    const mined = await Promise.all(wallets.map((w) => provider.getTransactionCount(w.address, 'latest')));
    errors.push(`txpool_status ${JSON.stringify(pool)}; wallet nonces mined/signed: ${wallets.map((_, w) => `${mined[w]}/${nonces[w]}`).join(' ')}`);
  }
  return { elapsedMs: now() - started, ok, errors };
}

// ---------------------------------------------------------------- phases

/** The relay's own processes: the API child and the workers (none when the app runs in this process). */
const relayPids = (stack: Stack): number[] => [stack.appProcess?.pid, ...(stack.workers ?? []).map((w) => w.pid)].filter((pid): pid is number => pid !== undefined);

/** CPU ms per transaction of the relay (its processes, or this whole process when inline), of this process, and of PostgreSQL. */
interface CpuPerTx {
  relay: number;
  /** The relay figure includes the bench's HTTP client (BENCH_APP=inline). */
  relayIncludesClient: boolean;
  bench: number;
  postgres?: number;
  /** The chain's node (anvil), when the bench started it. */
  node?: number;
}
const cpuPerTx = (r: CpuReading, txs: number): CpuPerTx => {
  const per = (ms: number) => ms / Math.max(txs, 1);
  return {
    relay: per(r.relayMs ?? r.benchMs),
    relayIncludesClient: r.relayMs === undefined,
    bench: per(r.benchMs),
    ...(r.postgresMs === undefined ? {} : { postgres: per(r.postgresMs) }),
    ...(r.nodeMs === undefined ? {} : { node: per(r.nodeMs) }),
  };
};
const cpuText = (c: CpuPerTx) =>
  `CPU per tx: relay ${c.relay.toFixed(2)} ms${c.relayIncludesClient ? ' (app + bench client, one process)' : ''}, PostgreSQL ${c.postgres === undefined ? 'n/a' : `${c.postgres.toFixed(2)} ms`}`;

interface Results {
  submit: { n: number; accepted: number; perSec: number; p50Ms: number; p99Ms: number; drainMs: number; cpu: CpuPerTx };
  e2e: {
    n: number;
    relayTps: number;
    relayMs: number;
    executed: number;
    directTps: number;
    directMs: number;
    ratio: number;
    submitPerSec: number;
    /** Node calls per transaction, all methods, and the breakdown. */
    relayRpc: { total: number; text: string };
    directRpc: { total: number; text: string };
    relayCpu: CpuPerTx;
    /** CPU ms per transaction of this process while only the direct client ran. */
    directCpuMsPerTx: number;
    /** anvil's CPU per transaction while only the direct client runs (both halves). */
    directNodeCpuMsPerTx: number;
    costs?: Costs;
  };
  blocks: BlocksResults;
  sync: { m: number; relayP50: number; relayP99: number; directP50: number; directP99: number; overheadP50: number; overheadP99: number };
}

/** BENCH_GET_N [2000] GETs of `path` with the bench key, concurrency 8: process CPU and latency per request (intake-only runs). */
async function getCost(stack: Stack, label: string, path: string): Promise<void> {
  const n = int('BENCH_GET_N', 2000);
  await pool(100, 8, () => stack.api.call('GET', path));
  const readCpu = await cpuPhase(relayPids(stack), stack.db);
  const started = now();
  const statuses = new Map<number, number>();
  const latencies = await pool(n, 8, async () => {
    const r = await stack.api.call('GET', path);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    return r.ms;
  });
  const used = cpuPerTx(await readCpu(), n);
  const lat = sortNum(latencies);
  log(`  ${label}: ${n} in ${(now() - started).toFixed(0)} ms, API CPU ${used.relay.toFixed(3)} ms per request${used.relayIncludesClient ? ' (bench client included)' : ''}, p50 ${percentile(lat, 50).toFixed(2)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
}

async function phaseSubmit(stack: Stack, problems: string[]): Promise<Results['submit']> {
  log(`phase 1: ${SETTINGS.submitN} × POST /api/submit-tx, concurrency ${SETTINGS.concurrency}, after ${SETTINGS.submitWarmup} warm-up`);
  if (SETTINGS.submitWarmup > 0) {
    const warmStart = now();
    const warm = await submitMany(stack, SETTINGS.submitWarmup, now() + SETTINGS.phaseTimeoutMs);
    if (warm.errors.length > 0) problems.push(`phase 1 warm-up: ${warm.errors.length} of ${SETTINGS.submitWarmup} not accepted, first: ${warm.errors[0]}`);
    if (!SETTINGS.intakeOnly) {
      const left = await waitTerminal(stack.db, warm.txIds, now() + SETTINGS.phaseTimeoutMs);
      // Phase 1 would otherwise measure beside the warm-up's backlog (a slow signer: lower BENCH_SUBMIT_WARMUP).
      if (left.pending > 0) problems.push(`phase 1 warm-up: ${left.pending} of ${warm.txIds.length} still PENDING after BENCH_PHASE_TIMEOUT_MS=${SETTINGS.phaseTimeoutMs} ms`);
    }
    log(`  warm-up: ${warm.txIds.length} ${SETTINGS.intakeOnly ? 'accepted' : 'relayed end to end'} in ${((now() - warmStart) / 1000).toFixed(1)} s`);
  }
  const stopProfile = await startProfile(SETTINGS.submitProfile);
  if (SETTINGS.costs) countPgStatements(stack.db);
  const costs = SETTINGS.costs ? await costMeter({ db: stack.db, redisUrl: SETTINGS.redisUrl, clusterNodes: process.env.QUEUE_REDIS_CLUSTER_NODES }) : undefined;
  const cpu = cpuMeter();
  const phaseCpu = await cpuPhase(relayPids(stack), stack.db);
  const intakeCpu = await cpuPhase(relayPids(stack), stack.db);
  const out = await submitMany(stack, SETTINGS.submitN, now() + SETTINGS.phaseTimeoutMs);
  const submitCpu = cpu();
  // Read at once: what the relay spends after acceptance (sending, tracking) would count too if read after the drain.
  const intakePer = cpuPerTx(await intakeCpu(), out.txIds.length);
  await stopProfile();
  log(`  over the submissions only, ${cpuText(intakePer)} per accepted submission`);
  const c = await costs?.(out.txIds.length);
  if (c) {
    log(
      `  intake costs per accepted submission: ${SETTINGS.app === 'inline' ? `${c.pgStatementsPerTx.toFixed(2)} SQL statements from this process` : 'SQL statements n/a (BENCH_APP=inline counts them)'}; database: ${c.pg.xact_commit.toFixed(2)} commits, ${c.pg.tup_inserted.toFixed(2)} rows inserted, ${c.pg.tup_updated.toFixed(2)} updated`,
    );
    log(`  intake costs per accepted submission: Redis commands ${c.redisCommandsPerTx.app.toFixed(2)} on the app's Redis (${c.redisCommandsPerTx.appTop})`);
  }
  const lat = sortNum(out.latencies);
  if (out.errors.length > 0) problems.push(`phase 1: ${out.errors.length} of ${SETTINGS.submitN} submissions not accepted, first: ${out.errors[0]}`);
  if (out.notSent > 0) problems.push(`phase 1: ${out.notSent} of ${SETTINGS.submitN} submissions not sent within BENCH_PHASE_TIMEOUT_MS=${SETTINGS.phaseTimeoutMs} ms`);
  if (SETTINGS.intakeOnly) {
    log(`  ${out.txIds.length} accepted in ${out.elapsedMs.toFixed(0)} ms (${submitCpu}); intake only: nothing sent`);
    if (out.txIds.length > 0) {
      await getCost(stack, 'GET /api/tx?id= (public, per-IP limit)', `/api/tx?id=${out.txIds[0]}`);
      await getCost(stack, 'GET /api/txs?limit=1 (api-key, per-key limit)', '/api/txs?limit=1');
    }
    return { n: SETTINGS.submitN, accepted: out.txIds.length, perSec: (out.txIds.length / out.elapsedMs) * 1000, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99), drainMs: 0, cpu: intakePer };
  }
  const drainStart = now();
  const counts = await waitTerminal(stack.db, out.txIds, now() + SETTINGS.phaseTimeoutMs);
  const drainMs = now() - drainStart;
  const cpuPer = cpuPerTx(await phaseCpu(), out.txIds.length);
  if (counts.pending > 0) problems.push(`phase 1: ${counts.pending} of ${out.txIds.length} still PENDING ${(drainMs / 1000).toFixed(0)} s after the last submission`);
  if (counts.failed > 0) problems.push(`phase 1: ${counts.failed} FAILED (${(await failureReasons(stack.db, out.txIds)).join('; ')})`);
  log(`  ${out.txIds.length} accepted in ${out.elapsedMs.toFixed(0)} ms (${submitCpu}); executed ${counts.executed}, failed ${counts.failed}, pending ${counts.pending} after a ${drainMs.toFixed(0)} ms drain`);
  log(`  submission to EXECUTED, ${cpuText(cpuPer)}`);
  return { n: SETTINGS.submitN, accepted: out.txIds.length, perSec: (out.txIds.length / out.elapsedMs) * 1000, p50Ms: percentile(lat, 50), p99Ms: percentile(lat, 99), drainMs, cpu: cpuPer };
}

/**
 * Phase 2 runs the direct baseline in two halves around the relay (ABBA): anvil's cost per block
 * grows with the chain's length (measured here: about 1 ms of CPU per transaction on a new chain,
 * 7 ms after 3,200 blocks), and machines drift, so a side that always ran second would be
 * measured on a slower chain. Around the relay, both sides see the same chain length on average.
 */
async function phaseThroughput(stack: Stack, wallets: Wallet[], problems: string[]): Promise<Results['e2e']> {
  const n = SETTINGS.n;
  const halves = [Math.ceil(n / 2), Math.floor(n / 2)];
  const direct = { ok: 0, elapsedMs: 0, blocks: 0, cpuMs: 0, nodeCpuMs: 0 };
  const directBefore = new Map(directCalls);
  const directHalf = async (count: number, which: string) => {
    if (count === 0) return;
    log(`phase 2: ${count} mint calls direct, ${which} half (ethers, ${wallets.length} wallets, concurrency ${SETTINGS.concurrency})`);
    const cpu = cpuMeter();
    const phaseCpu = await cpuPhase([], stack.db, stack.devnet.pids);
    const firstBlock = await stack.provider.getBlockNumber();
    const run = await directThroughput(stack, wallets, count);
    const used = await phaseCpu();
    direct.cpuMs += used.benchMs;
    direct.nodeCpuMs += used.nodeMs ?? NaN;
    const blocks = (await stack.provider.getBlockNumber()) - firstBlock;
    if (run.errors.length > 0) problems.push(`phase 2 direct baseline (${which} half): ${run.errors.length - (run.ok < count ? 1 : 0)} errors, first: ${run.errors[0]}${run.ok < count ? `; ${run.errors.at(-1)}` : ''}`);
    log(`  direct: ${run.ok}/${count} mined in ${run.elapsedMs.toFixed(0)} ms (${((run.ok / run.elapsedMs) * 1000).toFixed(1)} tx/s, ${cpu()}) in ${blocks} blocks`);
    direct.ok += run.ok;
    direct.elapsedMs += run.elapsedMs;
    direct.blocks += blocks;
  };
  await directHalf(halves[0], 'first');

  log(`phase 2: ${n} mint calls through the relay (submit-tx, concurrency ${SETTINGS.concurrency}, until EXECUTED)`);
  const ids: string[] = [];
  let submitting = true;
  const metricsBefore = await appMetrics(stack.api);
  const relayBefore = appRpcCalls(metricsBefore);
  const stagesBefore = appStages(metricsBefore);
  const relayFirstBlock = await stack.provider.getBlockNumber();
  const stopProfile = await startProfile(SETTINGS.profile);
  if (SETTINGS.costs) countPgStatements(stack.db);
  const costs = SETTINGS.costs
    ? await costMeter({ db: stack.db, redisUrl: SETTINGS.redisUrl, clusterNodes: process.env.QUEUE_REDIS_CLUSTER_NODES })
    : undefined;
  const cpu = cpuMeter();
  const phaseCpu = await cpuPhase(relayPids(stack), stack.db, stack.devnet.pids);
  const started = now();
  const deadline = started + SETTINGS.phaseTimeoutMs;
  let doneAt = 0;
  let last: StatusCounts = { pending: 0, executed: 0, failed: 0 };
  // Completion watcher: every 50 ms, how many of the phase's rows are still PENDING (the partial
  // pending index); the accepted ids' statuses are read once that reaches 0. Asking for the ids'
  // statuses every 50 ms cost the database about 1.2 ms of CPU per transaction (planning and
  // joining up to 2,000 ids), on the relay's side of the comparison only.
  const phaseSince = new Date(Date.now() - 1_000);
  const watcher = (async () => {
    while (now() < deadline) {
      await sleep(SETTINGS.pollMs);
      if (ids.length === 0) {
        if (submitting) continue;
        return;
      }
      const snapshot = [...ids];
      if (submitting || (await pendingSince(stack.db, phaseSince)) > 0) continue;
      const zeroAt = now();
      last = await countStatuses(stack.db, snapshot);
      if (snapshot.length === ids.length && last.pending === 0) {
        doneAt = zeroAt;
        return;
      }
    }
  })();
  const submitted = await submitMany(stack, n, deadline, (id) => ids.push(id));
  submitting = false;
  const submitMs = now() - started;
  await watcher;
  const relayMs = (doneAt || now()) - started;
  if (submitted.errors.length > 0) problems.push(`phase 2 relay: ${submitted.errors.length} of ${n} submissions not accepted, first: ${submitted.errors[0]}`);
  if (doneAt && submitted.notSent > 0) problems.push(`phase 2 relay: ${submitted.notSent} of ${n} submissions not sent within BENCH_PHASE_TIMEOUT_MS=${SETTINGS.phaseTimeoutMs} ms`);
  if (!doneAt && ids.length > 0) {
    last = await countStatuses(stack.db, ids);
    // Slow or stuck? Look whether executions still progress.
    await sleep(2_000);
    const later = await countStatuses(stack.db, ids);
    const progress = later.executed + later.failed - (last.executed + last.failed);
    problems.push(
      `phase 2 relay: not done within BENCH_PHASE_TIMEOUT_MS=${SETTINGS.phaseTimeoutMs} ms: of ${n}, ${last.executed} EXECUTED, ${last.failed} FAILED, ` +
        `${last.pending} accepted but still PENDING, ${submitted.notSent} not submitted yet; ${progress > 0 ? `still progressing (${progress} more in the next 2 s): a backlog, not stuck` : 'no progress in the next 2 s: looks STUCK'}`,
    );
  }
  if (last.failed > 0) problems.push(`phase 2 relay: ${last.failed} FAILED (${(await failureReasons(stack.db, ids)).join('; ')})`);
  const relayTps = (last.executed / relayMs) * 1000;
  const relayCpu = cpu();
  const relayCpuPer = cpuPerTx(await phaseCpu(), last.executed);
  await stopProfile();
  const metricsAfter = await appMetrics(stack.api);
  const relayRpc = perTx(relayBefore, appRpcCalls(metricsAfter), last.executed);
  const costsPerTx = await costs?.(last.executed);
  if (costsPerTx) {
    const c = costsPerTx;
    log(`  costs per tx: ${SETTINGS.app === 'inline' ? `${c.pgStatementsPerTx.toFixed(1)} SQL statements from this process` : 'SQL statements n/a (the app runs in a child process; BENCH_APP=inline counts them)'}; database: ${c.pg.xact_commit.toFixed(1)} commits, ${c.pg.tup_inserted.toFixed(1)} rows inserted, ${c.pg.tup_updated.toFixed(1)} updated, ${c.pg.tup_deleted.toFixed(1)} deleted`);
    log(`  costs per tx: Redis commands ${c.redisCommandsPerTx.app.toFixed(1)} on the app's Redis (${c.redisCommandsPerTx.appTop})`);
    log(`  costs per tx: Redis commands ${c.redisCommandsPerTx.queues.toFixed(1)} on the queue cluster (${c.redisCommandsPerTx.queuesTop}), Lua-called commands included`);
  }
  log(`  relay: ${last.executed}/${n} executed in ${relayMs.toFixed(0)} ms (${relayTps.toFixed(1)} tx/s; submissions took ${submitMs.toFixed(0)} ms, ${relayCpu})`);
  log(`  relay: ${cpuText(relayCpuPer)}; the bench process ${relayCpuPer.bench.toFixed(2)} ms; anvil ${relayCpuPer.node?.toFixed(2) ?? 'n/a'} ms`);
  const relayBlocks = (await stack.provider.getBlockNumber()) - relayFirstBlock;
  log(`  relay: mined in ${relayBlocks} blocks (${(last.executed / Math.max(relayBlocks, 1)).toFixed(2)} tx per block)`);
  log(`  relay node calls per tx ${relayRpc.total.toFixed(2)}: ${relayRpc.text}`);
  log(`  relay pipeline stages, mean: ${stageMeans(stagesBefore, appStages(metricsAfter))}`);
  log(`  relay garbage collection per tx (${SETTINGS.workers > 0 ? 'the API process only' : 'the app process'}): ${gcPerTx(appGc(metricsBefore), appGc(metricsAfter), last.executed)}`);

  await directHalf(halves[1], 'second');
  const directTps = (direct.ok / direct.elapsedMs) * 1000;
  const directRpc = perTx(directBefore, directCalls, direct.ok);
  const directCpuMsPerTx = direct.cpuMs / Math.max(direct.ok, 1);
  const directNodeCpuMsPerTx = direct.nodeCpuMs / Math.max(direct.ok, 1);
  log(`  direct, both halves: CPU per tx ${directCpuMsPerTx.toFixed(2)} ms (this process: ethers signing, sending, receipt polls); anvil ${directNodeCpuMsPerTx.toFixed(2)} ms`);
  log(`  direct, both halves: ${direct.ok}/${n} mined in ${direct.elapsedMs.toFixed(0)} ms (${directTps.toFixed(1)} tx/s) in ${direct.blocks} blocks (${(direct.ok / Math.max(direct.blocks, 1)).toFixed(2)} tx per block); node calls per tx ${directRpc.total.toFixed(2)}: ${directRpc.text}`);
  return {
    n,
    relayTps,
    relayMs,
    executed: last.executed,
    directTps,
    directMs: direct.elapsedMs,
    ratio: directTps > 0 ? relayTps / directTps : NaN,
    submitPerSec: (submitted.txIds.length / submitted.elapsedMs) * 1000,
    relayRpc,
    directRpc,
    relayCpu: relayCpuPer,
    directCpuMsPerTx,
    directNodeCpuMsPerTx,
    ...(costsPerTx ? { costs: costsPerTx } : {}),
  };
}

async function phaseSync(stack: Stack, wallet: Wallet, problems: string[]): Promise<Results['sync']> {
  const syncProvider = wallet.provider as JsonRpcProvider;
  const m = SETTINGS.syncM;
  // Whatever phase 2 left in flight would slow both sides down: let it finish first.
  const backlogDeadline = now() + 20_000;
  let backlog = Infinity;
  while (backlog > 0 && now() < backlogDeadline) {
    backlog = Number((await stack.db.query<{ n: string }>("SELECT count(*) AS n FROM relay_transactions WHERE status = 'PENDING'")).rows[0].n);
    if (backlog > 0) await sleep(SETTINGS.pollMs);
  }
  if (backlog > 0) problems.push(`phase 3: ${backlog} relay transactions of earlier phases still PENDING when it started`);

  const calls = mintCalls(2 * (m + SETTINGS.warmup));
  let next = 0;
  // Explicit nonce: anvil's 'pending' count can lag a just-mined transaction ("nonce too low" seen here).
  let nonce = await syncProvider.getTransactionCount(wallet.address, 'pending');
  const directOnce = async () => {
    const started = now();
    const tx = await wallet.sendTransaction({ to: stack.usdc, data: calls[next++], nonce: nonce++ });
    // Not tx.wait(): it waits for a *new* block event when the receipt is not there on its first look,
    // and an idle automine chain makes no new block (it hung for its 30 s timeout here). Same check, polled every 5 ms.
    const receipt = await receiptOf(syncProvider, tx.hash, now() + 30_000, 5);
    if (receipt?.status !== '0x1') throw new BenchError(`direct tx ${tx.hash} ${receipt ? 'reverted' : 'was not mined within 30 s'}`);
    return now() - started;
  };
  const relayOnce = async () => {
    const r = await stack.api.call('POST', '/api/submit-tx-sync', { tx: { chainId: CHAIN_ID, to: stack.usdc, callData: calls[next++], label: 'bench-sync' }, timeoutMs: 30_000 });
    if (r.status !== 200 || r.body?.data?.status !== 'EXECUTED') throw new BenchError(`submit-tx-sync answered ${describe(r)}${r.body?.data ? ` status ${String(r.body.data.status)}` : ''}`);
    return r.ms;
  };
  const measure = async (label: string, once: () => Promise<number>, count: number, warmup: number): Promise<number[]> => {
    const deadline = now() + SETTINGS.phaseTimeoutMs / 2;
    const out: number[] = [];
    try {
      for (let i = 0; i < warmup && now() < deadline; i++) await once();
      for (let i = 0; i < count && now() < deadline; i++) out.push(await once());
    } catch (err) {
      problems.push(`phase 3 ${label}, after ${out.length} measured calls: ${(err as Error).message}`);
    }
    if (out.length < count) problems.push(`phase 3 ${label}: only ${out.length} of ${count} calls completed within ${SETTINGS.phaseTimeoutMs / 2000} s`);
    return out;
  };
  // Direct in two halves around the relay, as in phase 2: both sides see the same chain length on average.
  const firstHalf = Math.ceil(m / 2);
  log(`phase 3: ${firstHalf} sequential direct sends (wallet.sendTransaction, then receipt polled every 5 ms), after ${SETTINGS.warmup} warm-up`);
  const directFirst = await measure('direct (first half)', directOnce, firstHalf, SETTINGS.warmup);
  log(`phase 3: ${m} sequential POST /api/submit-tx-sync, after ${SETTINGS.warmup} warm-up`);
  const relay = sortNum(await measure('relay', relayOnce, m, SETTINGS.warmup));
  log(`phase 3: ${m - firstHalf} sequential direct sends (second half)`);
  const direct = sortNum([...directFirst, ...(await measure('direct (second half)', directOnce, m - firstHalf, 0))]);
  const r = { relayP50: percentile(relay, 50), relayP99: percentile(relay, 99), directP50: percentile(direct, 50), directP99: percentile(direct, 99) };
  log(`  direct p50 ${r.directP50.toFixed(1)} ms, relay p50 ${r.relayP50.toFixed(1)} ms`);
  return { m, ...r, overheadP50: r.relayP50 - r.directP50, overheadP99: r.relayP99 - r.directP99 };
}

// ---------------------------------------------------------------- report

function report(results: Partial<Results>, problems: string[], appProblems: AppProblems | undefined, relayProcessCount: number): Record<string, unknown> {
  const rows: Array<[string, string, string]> = [];
  const f = (x: number | undefined, d = 1) => (x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
  const { submit, e2e, sync } = results;
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const cpuNote = (c: CpuPerTx) => (c.relayIncludesClient ? 'app + bench client (BENCH_APP=inline)' : `relay process${relayProcessCount > 1 ? 'es' : ''} only`);
  if (submit) {
    rows.push([`accepted submissions/s (N=${submit.n}, c=${SETTINGS.concurrency}, ${SETTINGS.accounts} acct)`, f(submit.perSec), `${submit.accepted}/${submit.n} × 201; latency p50 ${f(submit.p50Ms)} ms, p99 ${f(submit.p99Ms)} ms; target ≥ ${TARGETS.submitPerSec}: ${met(submit.perSec >= TARGETS.submitPerSec)}`]);
    rows.push(['relay CPU ms/tx, phase 1 (submission to EXECUTED)', f(submit.cpu.relay, 2), `${cpuNote(submit.cpu)}; PostgreSQL ${f(submit.cpu.postgres, 2)} ms/tx`]);
  }
  if (e2e) {
    rows.push([`relay end-to-end tx/s (N=${e2e.n}, ${SETTINGS.accounts} acct)`, f(e2e.relayTps), `${e2e.executed} EXECUTED in ${f(e2e.relayMs / 1000, 2)} s (submissions ${f(e2e.submitPerSec)}/s)`]);
    rows.push([`direct ethers tx/s (N=${e2e.n}, ${SETTINGS.wallets} wallets)`, f(e2e.directTps), `mined in ${f(e2e.directMs / 1000, 2)} s`]);
    rows.push(['node calls per transaction relay / direct', `${f(e2e.relayRpc.total, 2)} / ${f(e2e.directRpc.total, 2)}`, 'by method: see the phase 2 lines above']);
    rows.push(['throughput ratio relay/direct', f(e2e.ratio, 2), `target ≥ ${TARGETS.ratio}: ${met(e2e.ratio >= TARGETS.ratio)}`]);
    rows.push(['relay CPU ms/tx, phase 2 (end to end)', f(e2e.relayCpu.relay, 2), `${cpuNote(e2e.relayCpu)}; target ≤ ${TARGETS.relayCpuMsPerTx}: ${met(e2e.relayCpu.relay <= TARGETS.relayCpuMsPerTx)}`]);
    rows.push(['direct client CPU ms/tx, phase 2', f(e2e.directCpuMsPerTx, 2), 'the bench process while only the direct client runs']);
    rows.push(['PostgreSQL CPU ms/tx, phase 2 (relay)', f(e2e.relayCpu.postgres, 2), 'the PostgreSQL server, ended backends included, the bench\'s own connection excluded']);
    rows.push(['anvil CPU ms/tx, phase 2 relay / direct', `${f(e2e.relayCpu.node, 2)} / ${f(e2e.directNodeCpuMsPerTx, 2)}`, 'the chain node, on the same 2 cores: what each side\'s node calls cost it']);
  }
  if (sync) {
    rows.push([`submit-tx-sync latency p50 / p99 (M=${sync.m})`, `${f(sync.relayP50)} / ${f(sync.relayP99)} ms`, '']);
    rows.push(['direct send + wait latency p50 / p99', `${f(sync.directP50)} / ${f(sync.directP99)} ms`, '']);
    rows.push(['sync overhead p50 / p99', `${f(sync.overheadP50)} / ${f(sync.overheadP99)} ms`, `target p50 ≤ ${TARGETS.overheadP50Ms} ms: ${met(sync.overheadP50 <= TARGETS.overheadP50Ms)}`]);
  }
  if (results.blocks) {
    for (const [metric, relay, direct] of blocksRows(results.blocks, SETTINGS.blockSeconds)) rows.push([metric, relay, `direct ${direct}`]);
    const b = results.blocks;
    rows.push([`${SETTINGS.blockSeconds} s blocks: targets`, '', `burst mined within ${TARGETS.burstBlocks} blocks: ${met(b.burst.relay.spanBlocks <= TARGETS.burstBlocks)}; final visible p50 ≤ ${TARGETS.visibleP50Ms} ms after its block, paced and burst: ${met(b.paced.relay.visibleP50Ms <= TARGETS.visibleP50Ms && b.burst.relay.visibleP50Ms <= TARGETS.visibleP50Ms)}`]);
  }
  const w0 = Math.max(...rows.map((r) => r[0].length), 6);
  const w1 = Math.max(...rows.map((r) => r[1].length), 5);
  console.log('');
  console.log(`${'metric'.padEnd(w0)} | ${'value'.padStart(w1)} | notes`);
  console.log(`${'-'.repeat(w0)}-|-${'-'.repeat(w1)}-|-${'-'.repeat(40)}`);
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w0)} | ${b.padStart(w1)} | ${c}`);
  console.log('');
  if (appProblems && appProblems.problemCount > 0) {
    console.log(`app logged ${appProblems.problemCount} warning/error line(s); first ${appProblems.problems.length}:`);
    for (const p of appProblems.problems) console.log(`  ${p}`);
  }
  for (const p of problems) console.error(`problem: ${p}`);
  return {
    submitPerSec: round(submit?.perSec ?? NaN),
    submitP50Ms: round(submit?.p50Ms ?? NaN),
    relayTps: round(e2e?.relayTps ?? NaN),
    directTps: round(e2e?.directTps ?? NaN),
    ratio: round(e2e?.ratio ?? NaN, 3),
    relayRpcPerTx: round(e2e?.relayRpc.total ?? NaN, 2),
    directRpcPerTx: round(e2e?.directRpc.total ?? NaN, 2),
    syncP50Ms: round(sync?.relayP50 ?? NaN),
    syncP99Ms: round(sync?.relayP99 ?? NaN),
    directP50Ms: round(sync?.directP50 ?? NaN),
    directP99Ms: round(sync?.directP99 ?? NaN),
    overheadP50Ms: round(sync?.overheadP50 ?? NaN),
    overheadP99Ms: round(sync?.overheadP99 ?? NaN),
    relayCpuMsPerTx: round(e2e?.relayCpu.relay ?? NaN, 2),
    relayCpuIncludesClient: e2e?.relayCpu.relayIncludesClient ?? SETTINGS.app === 'inline',
    directCpuMsPerTx: round(e2e?.directCpuMsPerTx ?? NaN, 2),
    postgresCpuMsPerTx: round(e2e?.relayCpu.postgres ?? NaN, 2),
    nodeCpuMsPerTx: { relay: round(e2e?.relayCpu.node ?? NaN, 2), direct: round(e2e?.directNodeCpuMsPerTx ?? NaN, 2) },
    submitCpuMsPerTx: round(submit?.cpu.relay ?? NaN, 2),
    app: SETTINGS.app,
    workers: SETTINGS.workers,
    n: SETTINGS.n,
    submitN: SETTINGS.submitN,
    syncM: SETTINGS.syncM,
    concurrency: SETTINGS.concurrency,
    relayReceiptPollMs: Number(process.env.RELAY_RECEIPT_POLL_MS ?? 250),
    relayKeysPerRegion: SETTINGS.relayerKeys,
    signer: SETTINGS.signer,
    ...(results.blocks ? { blocks: results.blocks } : {}),
    accounts: SETTINGS.accounts,
    problems: problems.length,
  };
}

// ---------------------------------------------------------------- main

async function shutdown(stack: Partial<Stack> | undefined): Promise<void> {
  const step = async (what: string, fn: () => Promise<unknown> | undefined) => {
    try {
      await Promise.race([fn(), sleep(10_000).then(() => Promise.reject(new Error('timed out after 10 s')))]);
    } catch (err) {
      console.error(`[bench] cleanup: ${what}: ${(err as Error).message}`);
    }
  };
  if (!stack) return;
  await step('closing the app', () => stack.app?.close());
  for (const worker of [...(stack.appProcess ? [stack.appProcess] : []), ...(stack.workers ?? [])]) {
    await step(`stopping worker ${worker.pid}`, () => {
      if (worker.exitCode !== null) return undefined;
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      return exited;
    });
  }
  await step('closing the database client', () => stack.db?.end());
  stack.provider?.destroy();
  for (const p of stack.extraProviders ?? []) p.destroy();
  await step('stopping anvil', () => stack.devnet?.stop());
}

async function main(): Promise<number> {
  const started = now();
  const ref: { stack?: Partial<Stack> } = {};
  const watchdog = setTimeout(() => {
    console.error(`[bench] FAILED: still running after ${SETTINGS.maxRuntimeMs / 1000} s (BENCH_MAX_RUNTIME_MS); stopping`);
    void shutdown(ref.stack).finally(() => process.exit(1));
  }, SETTINGS.maxRuntimeMs);
  watchdog.unref();

  // Before the stack starts, while nothing else of the bench runs.
  const signMedianUs = await localSigningMedianUs();
  log(`machine: a local signature takes ${signMedianUs} µs (median of 1,000; compare runs on different machines through it)`);
  const problems: string[] = [];
  const results: Partial<Results> = {};
  let stack: Stack | undefined;
  let fatal: Error | undefined;
  try {
    stack = await bringUp(ref);
    const keys: string[] = [];
    for (let i = 0; i < SETTINGS.accounts; i++) keys.push(await createBenchAccount(stack.api));
    stack.api.setKeys(keys);
    const wallets = anvilWallets(SETTINGS.wallets + 1, stack.provider);
    // Beyond index 9 anvil gives no genesis balance, so set one for all; the last wallet is phase 3's.
    for (const w of wallets) await stack.provider.send('anvil_setBalance', [w.address, '0x21e19e0c9bab2400000']);
    // Phase 3's wallet on its own provider (no batching stall, like the relay's providers).
    const syncProvider = new JsonRpcProvider(stack.devnet.chains[0].rpcUrl, CHAIN_ID, { staticNetwork: true, batchMaxCount: 1 });
    stack.extraProviders = [syncProvider];
    const syncWallet = (wallets.pop() as Wallet).connect(syncProvider);

    if (SETTINGS.submitN > 0) results.submit = await phaseSubmit(stack, problems);
    if (SETTINGS.n > 0) results.e2e = await phaseThroughput(stack, wallets, problems);
    if (SETTINGS.syncM > 0) results.sync = await phaseSync(stack, syncWallet, problems);
    if (SETTINGS.blockSeconds > 0) {
      const api = stack.api;
      const statusRefusals = new Map<string, number>();
      results.blocks = await phaseBlocks({
        rpcUrl: stack.devnet.chains[0].rpcUrl,
        chainId: CHAIN_ID,
        usdc: stack.usdc,
        db: stack.db,
        wallets,
        mintCall,
        submit: async (callData) => {
          const r = await api.call('POST', '/api/submit-tx', { chainId: CHAIN_ID, to: stack!.usdc, callData, label: 'bench-blocks' });
          const id = r.body?.data?.txId;
          if (r.status !== 201 || typeof id !== 'string') throw new Error(`submit-tx answered ${describe(r)}`);
          return id;
        },
        status: async (id) => {
          const r = await api.call('GET', `/api/tx?id=${id}`);
          // A refused poll would read as "not final yet" and lengthen the visible delay unseen.
          if (r.status !== 200) statusRefusals.set(describe(r), (statusRefusals.get(describe(r)) ?? 0) + 1);
          return r.body?.data?.status as string | undefined;
        },
        log,
        problems,
        pacedN: SETTINGS.blockPacedN,
        pacedRate: SETTINGS.blockRate,
        burstN: SETTINGS.blockBurstN,
        blockSeconds: SETTINGS.blockSeconds,
      });
      for (const [answer, n] of statusRefusals) problems.push(`phase 4: ${n} status polls answered ${answer}`);
    }
  } catch (err) {
    fatal = err as Error;
  }
  const summary = report(results, problems, stack?.logger, stack ? relayPids(stack).length : 0);
  await shutdown(ref.stack);
  clearTimeout(watchdog);
  // Figures mean little without the machine they ran on (shared machines are noisy).
  const machine = { cores: cpus().length, loadAverage: loadavg().map((x) => Number(x.toFixed(2))), signMedianUs };
  log(`done in ${((now() - started) / 1000).toFixed(1)} s on ${machine.cores} cores, load average ${machine.loadAverage.join(' ')}`);
  console.log(JSON.stringify({ ...summary, machine }));

  if (fatal) {
    console.error(`[bench] FAILED: ${fatal instanceof BenchError ? fatal.message : (fatal.stack ?? fatal.message)}`);
    return 1;
  }
  if (problems.length > 0) {
    console.error(`[bench] FAILED: ${problems.length} problem(s) during the run (see above)`);
    return 1;
  }
  const missed =
    (results.submit && !(results.submit.perSec >= TARGETS.submitPerSec)) ||
    (results.e2e && !(results.e2e.ratio >= TARGETS.ratio && results.e2e.relayCpu.relay <= TARGETS.relayCpuMsPerTx)) ||
    (results.sync && !(results.sync.overheadP50 <= TARGETS.overheadP50Ms)) ||
    (results.blocks &&
      !(
        results.blocks.burst.relay.spanBlocks <= TARGETS.burstBlocks &&
        results.blocks.paced.relay.visibleP50Ms <= TARGETS.visibleP50Ms &&
        results.blocks.burst.relay.visibleP50Ms <= TARGETS.visibleP50Ms
      ));
  if (missed && SETTINGS.enforce) {
    console.error('[bench] FAILED: a target was missed (BENCH_ENFORCE=1)');
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[bench] FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
