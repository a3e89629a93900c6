/**
 * `npm run bench:quote`: latency of GET /quote end to end, and the router's cost on synthetic
 * pool graphs of growing size.
 *
 * Brings up its own stack (anvil 31337 on BENCH_QUOTE_CHAIN_PORT=28565, database
 * `relay_bench_quote` recreated, Redis db 12 under the `relay-bench-quote` prefix, the API in
 * process on a free port), so it runs beside `npm start`, the tests and bench:relay. Then:
 *   1. GET /quote over real HTTP (api-key auth, rate limit, validation, routing, quote storage),
 *      sequentially, rotating over a direct, a 2-hop and a 3-hop pair: p50 / p99, each quote followed
 *      by a GET /tokens as the same run's baseline, with CPU time, bytes and Redis commands per request;
 *   2. the router alone (path search + split search, as RouteFinder runs it) on random graphs of
 *      100, 1,000 and 10,000 pools: graph build time and quote time per pair;
 *   3. router quality on the local stack's pools (V2 and V3): for every ordered pair of the
 *      catalog tokens and trade sizes from 0.001% to 100% of the input token's deepest pool, the
 *      router's best raw output / an independently computed optimum (bench/router-quality.ts),
 *      as min / p5 / median per size, and the lowest router / @uniswap/v2-sdk best trade.
 * Prints tables and, last, one JSON line. Targets: GET /quote p50 <= 5 ms and p99 <= 15 ms;
 * router >= 0.999 of the optimum at every size.
 *
 * Settings: BENCH_QUOTE_N [300] quotes measured, BENCH_ROUTER_QUERIES [50] per graph size,
 * BENCH_QUOTE_CHAIN_PORT [28565], BENCH_QUOTE_DATABASE_URL [postgres://postgres@127.0.0.1:5432/relay_bench_quote],
 * BENCH_QUOTE_REDIS_URL [redis://127.0.0.1:6379/12], BENCH_LOGS=1 (app logs), BENCH_ENFORCE=1 (exit 1 on a missed target),
 * BENCH_SECTIONS [http,router,quality] which sections run, BENCH_QUALITY_CHUNKS [1000] parts of the optimum's search,
 * BENCH_PROFILE=<file> a V8 CPU profile of this process (app and client) during the measured HTTP run.
 *
 * Scale (issue 27): BENCH_EXTRA_POOLS=N deploys N extra pools (LOCAL_EXTRA_POOLS: V2 and V3 over
 * extra tokens; 20,000 for the issue's figures) and the chains file discovers every pool from the
 * factories' logs (`dexes[i].fromBlock: 0`). The startup section then reports the cold start
 * (discovery from block 0, every pool's state read) and the resumed start (Redis copy gone, the
 * discovery resumed from PostgreSQL), each with the process's heap and RSS once loaded; the
 * quality section samples BENCH_QUALITY_TOKENS [12] tokens (the local stack's own first, then
 * extra ones, seeded) instead of every catalog pair.
 */
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { JsonRpcProvider, parseUnits, Wallet } from 'ethers';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { bringUpDevnet, type Devnet } from '../scripts/devnet';
import { chainsFileFor } from '../scripts/local-stack/chains-config';
import { recreateDatabase } from '../scripts/local-stack/database';
import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC } from '../scripts/local-stack/dev-keys';
import { buildPoolGraph } from '../src/modules/swap/domain/pool-graph';
import type { DexProvider, PoolState } from '../src/modules/swap/domain/types';
import { searchPlans } from '../src/modules/swap/routing/route-finder.service';
import { PoolIndexer } from '../src/modules/swap/indexer/pool-indexer.service';
import { RouteFinder } from '../src/modules/swap/routing/route-finder.service';
import { SwapQuoteService } from '../src/modules/swap/quotes/swap-quote.service';
import type { QuoteQueryDto } from '../src/modules/swap/dto/swap-requests.dto';
import type { Caller } from '../src/common/http/authenticated-request';
import { REDIS } from '../src/redis/redis.module';
import { routerQuality, type QualityRow } from './router-quality';

const int = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
};

const STATE_DIR = join(__dirname, '..', '.local', 'bench-quote');
const SETTINGS = {
  n: int('BENCH_QUOTE_N', 300),
  routerQueries: int('BENCH_ROUTER_QUERIES', 50),
  chainPort: int('BENCH_QUOTE_CHAIN_PORT', 28565),
  databaseUrl: process.env.BENCH_QUOTE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/relay_bench_quote',
  redisUrl: process.env.BENCH_QUOTE_REDIS_URL ?? 'redis://127.0.0.1:6379/12',
  redisPrefix: 'relay-bench-quote',
  warmup: 20,
  logs: process.env.BENCH_LOGS === '1',
  enforce: process.env.BENCH_ENFORCE === '1',
  sections: new Set((process.env.BENCH_SECTIONS ?? 'http,router,quality').split(',').map((x) => x.trim())),
  qualityChunks: int('BENCH_QUALITY_CHUNKS', 1000),
  profile: process.env.BENCH_PROFILE,
  extraPools: int('BENCH_EXTRA_POOLS', 0),
  qualityTokens: int('BENCH_QUALITY_TOKENS', 12),
};
const TARGET_P50_MS = 5;
const TARGET_P99_MS = 15;
const TARGET_QUALITY = 0.999;
const ADMIN_TOKEN = `bench-admin-${randomBytes(12).toString('hex')}`;
const log = (line: string) => console.log(`[bench] ${line}`);
const now = (): number => performance.now();
/** mulberry32: a small PRNG with a full 2^32 period (an LCG in float arithmetic cycles too soon). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function cleanRedis(): Promise<void> {
  const redis = new Redis(SETTINGS.redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${SETTINGS.redisPrefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

interface Stack {
  devnet: Devnet;
  app: INestApplication;
  baseUrl: string;
  startup: StartupFigures;
}

/** Time from creating the app to the chain's market in memory, and the process's memory then. */
interface StartupFigures {
  pools: number;
  tokens: number;
  coldMs: number;
  coldHeapMb: number;
  coldRssMb: number;
  resumedMs: number;
  resumedHeapMb: number;
  resumedRssMb: number;
}

async function startApp(): Promise<{ app: INestApplication; ms: number; heapMb: number; rssMb: number; pools: number; tokens: number }> {
  const { AppModule } = await import('../src/app.module');
  const { configureApp } = await import('../src/bootstrap/configure-app');
  const started = now();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRole('all'), { bodyParser: false, logger: SETTINGS.logs ? undefined : ['error'], abortOnError: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const market = await app.get(PoolIndexer).market(31337);
  const ms = now() - started;
  (globalThis as { gc?: () => void }).gc?.();
  const mem = process.memoryUsage();
  return { app, ms, heapMb: mem.heapUsed / 2 ** 20, rssMb: mem.rss / 2 ** 20, pools: market.pools.size, tokens: market.tokens.size };
}

async function bringUp(): Promise<Stack> {
  mkdirSync(STATE_DIR, { recursive: true });
  const devnet = await bringUpDevnet({ chains: [{ chainId: 31337, name: 'Devnet', port: SETTINGS.chainPort }], stateDir: STATE_DIR, extraPools: SETTINGS.extraPools, log: (l) => log(`devnet: ${l}`) });
  const headProvider = new JsonRpcProvider(devnet.chains[0].rpcUrl, 31337, { staticNetwork: true });
  const head = await headProvider.getBlockNumber();
  headProvider.destroy();
  log(`devnet: deployment (${SETTINGS.extraPools} extra pools) took ${(devnet.timingsMs.deploy / 1000).toFixed(1)} s, head block ${head}`);
  const chainsFile = join(STATE_DIR, 'chains.json');
  writeFileSync(chainsFile, JSON.stringify(chainsFileFor(devnet.chains), null, 2));
  await recreateDatabase(SETTINGS.databaseUrl);
  await cleanRedis();
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
    RELAYER_MNEMONIC: DEV_RELAYER_MNEMONIC,
    AUTH_MNEMONIC: DEV_AUTH_MNEMONIC,
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef012345',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  const { dataSourceOptions } = await import('../src/database/data-source-options');
  const dataSource = new DataSource(dataSourceOptions(SETTINGS.databaseUrl, false));
  await dataSource.initialize();
  await dataSource.runMigrations();
  await dataSource.destroy();
  const cold = await startApp();
  let app = cold.app;
  let resumed = cold;
  if (SETTINGS.extraPools > 0) {
    // Again without the Redis copy: the discovery resumes from the cursors in PostgreSQL.
    await app.close();
    await cleanRedis();
    resumed = await startApp();
    app = resumed.app;
  }
  const startup: StartupFigures = {
    pools: cold.pools,
    tokens: cold.tokens,
    coldMs: cold.ms,
    coldHeapMb: cold.heapMb,
    coldRssMb: cold.rssMb,
    resumedMs: resumed.ms,
    resumedHeapMb: resumed.heapMb,
    resumedRssMb: resumed.rssMb,
  };
  const { port } = app.getHttpServer().address() as { port: number };
  return { devnet, app, baseUrl: `http://127.0.0.1:${port}`, startup };
}

/** Per-endpoint figures from requests interleaved in one run, so load hits both alike. */
interface EndpointFigures {
  p50: number;
  p99: number;
  mean: number;
  /** CPU time of this process (server and the bench's fetch client) per request, µs: survives load better than wall time. */
  cpuUsP50: number;
  cpuUsMean: number;
  /** Response body size. */
  bytes: number;
  /** Commands sent on the app's shared Redis connection per request. */
  redisCommands: number;
}

interface LatencyReport extends EndpointFigures {
  n: number;
  /** A trivial authenticated GET (/tokens) interleaved with the quotes: the HTTP stack's own cost in this run. */
  tokens: EndpointFigures;
  /** The router alone (RouteFinder.findRoutes, in process) for the same requests. */
  routerP50: number;
  routerP99: number;
  /** The quote service (validation against the catalog, router, Route views, Redis write), in process. */
  serviceP50: number;
  serviceP99: number;
  /** GC pauses during the HTTP run: count, total and longest (ms). */
  gc: { count: number; totalMs: number; maxMs: number };
  /** Event-loop delay during the HTTP run (ms). */
  loopDelayP99: number;
  /** Event-loop utilization during the HTTP run (0..1). */
  loopUtilization: number;
  /** Load average (1 min) at the start and end of the HTTP run. */
  load: [number, number];
}

/** Starts a V8 CPU profile of this process (app and bench client); the returned function writes it. */
async function startProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => undefined;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    log(`CPU profile of the HTTP run written to ${file}`);
  };
}

/** Counts commands on the app's shared Redis connection (rate limit, quote store, caches). */
function countRedisCommands(redis: Redis): () => number {
  let count = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    count++;
    return send(...args);
  }) as Redis['sendCommand'];
  return () => count;
}

interface Sample {
  ms: number;
  cpuUs: number;
  bytes: number;
  redis: number;
}

function figures(samples: Sample[]): EndpointFigures {
  const sum = (f: (s: Sample) => number) => samples.reduce((a, s) => a + f(s), 0);
  return {
    p50: percentile(samples.map((s) => s.ms), 50),
    p99: percentile(samples.map((s) => s.ms), 99),
    mean: sum((s) => s.ms) / samples.length,
    cpuUsP50: percentile(samples.map((s) => s.cpuUs), 50),
    cpuUsMean: sum((s) => s.cpuUs) / samples.length,
    bytes: sum((s) => s.bytes) / samples.length,
    redisCommands: sum((s) => s.redis) / samples.length,
  };
}

async function quoteLatency(stack: Stack): Promise<LatencyReport> {
  const created = await fetch(`${stack.baseUrl}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ address: Wallet.createRandom().address, creditUsd: 10 }),
  }).then((r) => r.json() as Promise<{ data: { apiKey: string } }>);
  const apiKey = created.data.apiKey;
  const chain = stack.devnet.chains[0];
  const addr = (symbol: string) => chain.tokens.find((t) => t.symbol === symbol)!.address;
  const pairs = [
    { fromToken: addr('WETH'), toToken: addr('USDC'), amount: parseUnits('1', 18) },
    { fromToken: addr('DAI'), toToken: addr('WBTC'), amount: parseUnits('5000', 18) },
    { fromToken: addr('LINK'), toToken: addr('UNI'), amount: parseUnits('100', 18) },
  ];
  const sender = Wallet.createRandom().address;
  const redisCommands = countRedisCommands(stack.app.get<Redis>(REDIS));
  const timed = async (url: string, check: (status: number, body: { code: number; data: unknown }) => boolean): Promise<Sample> => {
    const redis0 = redisCommands();
    const cpu0 = process.cpuUsage();
    const t0 = now();
    const res = await fetch(url, { headers: { 'api-key': apiKey } });
    const text = await res.text();
    const ms = now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const body = JSON.parse(text) as { code: number; data: unknown };
    if (!check(res.status, body)) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return { ms, cpuUs: cpu.user + cpu.system, bytes: Buffer.byteLength(text), redis: redisCommands() - redis0 };
  };
  const quoteSamples: Sample[] = [];
  const tokenSamples: Sample[] = [];
  const gcPauses: number[] = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let elu0 = performance.eventLoopUtilization();
  let stopProfile: () => Promise<void> = async () => undefined;
  const load0 = loadavg()[0];
  for (let i = 0; i < SETTINGS.warmup + SETTINGS.n; i++) {
    if (i === SETTINGS.warmup) {
      gcObserver.observe({ entryTypes: ['gc'] });
      loop.enable();
      elu0 = performance.eventLoopUtilization();
      stopProfile = await startProfile(SETTINGS.profile);
    }
    const pair = pairs[i % pairs.length];
    const query = new URLSearchParams({ fromChain: '31337', toChain: '31337', fromToken: pair.fromToken, toToken: pair.toToken, amount: pair.amount.toString(), sender });
    const quote = await timed(`${stack.baseUrl}/quote?${query}`, (status, body) => status === 200 && body.code === 0 && Array.isArray(body.data) && body.data.length > 0);
    const tokens = await timed(`${stack.baseUrl}/tokens?chain_id=31337`, (status, body) => status === 200 && body.code === 0);
    if (i >= SETTINGS.warmup) {
      quoteSamples.push(quote);
      tokenSamples.push(tokens);
    }
  }
  await stopProfile();
  const elu = performance.eventLoopUtilization(elu0);
  const load1 = loadavg()[0];
  gcObserver.disconnect();
  loop.disable();
  // The same requests to the router alone, in process (no HTTP, auth, Redis or response).
  const finder = stack.app.get(RouteFinder);
  const routerTimes: number[] = [];
  for (let i = 0; i < SETTINGS.warmup + SETTINGS.n; i++) {
    const pair = pairs[i % pairs.length];
    const t0 = now();
    await finder.findRoutes({ chainId: 31337, tokenIn: pair.fromToken.toLowerCase(), tokenOut: pair.toToken.toLowerCase(), amountIn: pair.amount });
    if (i >= SETTINGS.warmup) routerTimes.push(now() - t0);
  }
  // And to the quote service (what GET /quote runs after auth and rate limiting).
  const service = stack.app.get(SwapQuoteService);
  const caller = { account: { id: randomUUID(), address: sender.toLowerCase() } } as unknown as Caller;
  const serviceTimes: number[] = [];
  for (let i = 0; i < SETTINGS.warmup + SETTINGS.n; i++) {
    const pair = pairs[i % pairs.length];
    const t0 = now();
    await service.quote(caller, { fromChain: 31337, toChain: 31337, fromToken: pair.fromToken, toToken: pair.toToken, amount: pair.amount.toString(), sender } as QuoteQueryDto, { icons: true });
    if (i >= SETTINGS.warmup) serviceTimes.push(now() - t0);
  }
  return {
    ...figures(quoteSamples),
    n: quoteSamples.length,
    tokens: figures(tokenSamples),
    routerP50: percentile(routerTimes, 50),
    routerP99: percentile(routerTimes, 99),
    serviceP50: percentile(serviceTimes, 50),
    serviceP99: percentile(serviceTimes, 99),
    gc: { count: gcPauses.length, totalMs: gcPauses.reduce((a, b) => a + b, 0), maxMs: Math.max(0, ...gcPauses) },
    loopDelayP99: loop.percentile(99) / 1e6,
    loopUtilization: elu.utilization,
    load: [load0, load1],
  };
}

/** A reproducible pseudo-random graph: a few hub tokens carry most pools, like real DEX graphs. */
function syntheticPools(poolCount: number, seed: number): { pools: PoolState[]; tokens: string[]; hubs: number } {
  const rand = prng(seed);
  const tokenCount = Math.max(20, Math.round(poolCount / 8));
  const tokens = Array.from({ length: tokenCount }, (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`);
  const hubs = Math.max(3, Math.round(tokenCount / 50));
  const providers: DexProvider[] = ['dex-a', 'dex-b', 'dex-c'].map((key) => ({ key, name: key, type: 'uniswap-v2', factory: `0x${'f'.repeat(40)}`, feeBps: 30 }));
  const pools: PoolState[] = [];
  const seen = new Set<string>();
  while (pools.length < poolCount) {
    const a = tokens[Math.floor(rand() * tokenCount)];
    const b = rand() < 0.6 ? tokens[Math.floor(rand() * hubs)] : tokens[Math.floor(rand() * tokenCount)];
    const provider = providers[Math.floor(rand() * providers.length)];
    const id = `${provider.key}:${a < b ? a + b : b + a}`;
    if (a === b || seen.has(id)) continue;
    seen.add(id);
    const [token0, token1] = a < b ? [a, b] : [b, a];
    const reserve = () => BigInt(Math.floor(1e3 + rand() * 1e6)) * 10n ** 18n;
    pools.push({ kind: 'v2', address: `0x${randomBytes(20).toString('hex')}`, provider, token0, token1, reserve0: reserve(), reserve1: reserve() });
  }
  return { pools, tokens, hubs };
}

interface RouterRow {
  pools: number;
  tokens: number;
  buildMs: number;
  p50: number;
  p99: number;
  hubP50: number;
  hubP99: number;
  plans: number;
}

function routerCost(poolCount: number): RouterRow {
  const { pools, tokens, hubs } = syntheticPools(poolCount, poolCount);
  let t0 = now();
  const graph = buildPoolGraph(pools);
  const buildMs = now() - t0;
  const times: number[] = [];
  let plans = 0;
  const rand = prng(7);
  for (let i = 0; i < SETTINGS.routerQueries; i++) {
    const a = tokens[Math.floor(rand() * tokens.length)];
    let b = tokens[Math.floor(rand() * tokens.length)];
    if (a === b) b = tokens[(tokens.indexOf(a) + 1) % tokens.length];
    t0 = now();
    plans += searchPlans({ graph }, a, b, 10n ** 21n).length;
    times.push(now() - t0);
  }
  // Hub to hub is the worst case: the most pools and the most paths between the two tokens.
  const hubTimes: number[] = [];
  for (let i = 0; i < SETTINGS.routerQueries; i++) {
    t0 = now();
    searchPlans({ graph }, tokens[i % hubs], tokens[(i + 1) % hubs], 10n ** 21n);
    hubTimes.push(now() - t0);
  }
  return {
    pools: poolCount,
    tokens: tokens.length,
    buildMs,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    hubP50: percentile(hubTimes, 50),
    hubP99: percentile(hubTimes, 99),
    plans: plans / SETTINGS.routerQueries,
  };
}

async function quality(stack: Stack): Promise<QualityRow[]> {
  const market = await stack.app.get(PoolIndexer).market(31337);
  const decimals = new Map([...market.tokens.values()].map((t) => [t.address, t.decimals]));
  const all = [...market.tokens.keys()];
  // At scale, a seeded sample: the local stack's own tokens first, then extra ones.
  const random = prng(27);
  const own = all.filter((a) => !/^XT\d+$/.test(market.tokens.get(a)?.symbol ?? ''));
  const extra = all.filter((a) => !own.includes(a));
  for (let i = extra.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [extra[i], extra[j]] = [extra[j], extra[i]];
  }
  const tokens = SETTINGS.extraPools > 0 ? [...own, ...extra].slice(0, Math.max(2, SETTINGS.qualityTokens)) : all;
  return routerQuality(market.graph, decimals, 31337, tokens, SETTINGS.qualityChunks, SETTINGS.logs ? log : undefined);
}

async function main(): Promise<number> {
  let stack: Stack | undefined;
  try {
    stack = await bringUp();
    const f = (x: number, d = 1) => x.toFixed(d);
    let failed = false;
    const report: Record<string, unknown> = {};
    report.startup = stack.startup;
    const st = stack.startup;
    console.log('');
    console.log(`startup (${st.pools} pools, ${st.tokens} tokens${SETTINGS.extraPools > 0 ? `, ${SETTINGS.extraPools} extra, discovered from logs` : ''}): cold ${f(st.coldMs / 1000, 2)} s, heap ${f(st.coldHeapMb)} MB, RSS ${f(st.coldRssMb)} MB` +
      (SETTINGS.extraPools > 0 ? `; resumed from PostgreSQL (no Redis copy) ${f(st.resumedMs / 1000, 2)} s, heap ${f(st.resumedHeapMb)} MB, RSS ${f(st.resumedRssMb)} MB` : '') + `; load average ${loadavg().map((x) => f(x, 2)).join(' ')}, ${cpus().length} cores`);
    if (SETTINGS.sections.has('http')) {
      log(`API on ${stack.baseUrl}; measuring GET /quote (${SETTINGS.n} after ${SETTINGS.warmup} warm-up)`);
      const http = await quoteLatency(stack);
      report.quote = http;
      const met = http.p50 <= TARGET_P50_MS && http.p99 <= TARGET_P99_MS;
      failed ||= !met;
      console.log('');
      console.log(`GET /quote end to end (local stack, sequential, N=${http.n}): p50 ${f(http.p50)} ms, p99 ${f(http.p99)} ms, mean ${f(http.mean)} ms — target p50 <= ${TARGET_P50_MS} ms, p99 <= ${TARGET_P99_MS} ms: ${met ? 'met' : 'NOT met'}`);
      console.log(`  router alone (RouteFinder.findRoutes, same requests): p50 ${f(http.routerP50, 2)} ms, p99 ${f(http.routerP99, 2)} ms; quote service (router + views + Redis write): p50 ${f(http.serviceP50, 2)} ms, p99 ${f(http.serviceP99, 2)} ms`);
      console.log(`  GET /tokens interleaved with the quotes (same run, the HTTP stack's own cost): p50 ${f(http.tokens.p50)} ms, p99 ${f(http.tokens.p99)} ms`);
      console.log(`  per request      | ${'p50 ms'.padStart(6)} | ${'p99 ms'.padStart(6)} | ${'CPU µs p50'.padStart(10)} | ${'CPU µs mean'.padStart(11)} | ${'bytes'.padStart(6)} | Redis commands`);
      for (const [name, e] of [['GET /quote', http], ['GET /tokens', http.tokens]] as const) {
        console.log(`  ${name.padEnd(16)} | ${f(e.p50, 2).padStart(6)} | ${f(e.p99, 2).padStart(6)} | ${f(e.cpuUsP50, 0).padStart(10)} | ${f(e.cpuUsMean, 0).padStart(11)} | ${f(e.bytes, 0).padStart(6)} | ${f(e.redisCommands, 2)}`);
      }
      console.log(`  CPU per request includes the bench's own fetch client (same for both rows); /quote − /tokens: ${f(http.cpuUsMean - http.tokens.cpuUsMean, 0)} µs mean`);
      console.log(`  during the HTTP run: ${http.gc.count} GC pauses, ${f(http.gc.totalMs)} ms in all, longest ${f(http.gc.maxMs)} ms; event-loop delay p99 ${f(http.loopDelayP99)} ms; event-loop utilization ${f(http.loopUtilization * 100, 0)}%; load average (1 min) ${f(http.load[0], 2)} → ${f(http.load[1], 2)}; ${cpus().length} cores`);
    }
    if (SETTINGS.sections.has('router')) {
      const router = [100, 1_000, 10_000].map(routerCost);
      report.router = router;
      console.log('');
      console.log('router on synthetic graphs (path search up to 3 hops + split search, one pair per query)');
      console.log(`${'pools'.padStart(7)} | ${'tokens'.padStart(6)} | ${'graph build ms'.padStart(14)} | ${'random p50/p99 ms'.padStart(17)} | ${'hub-hub p50/p99 ms'.padStart(18)} | ${'hub x vs 100'.padStart(12)} | candidates/quote`);
      console.log(`${'-'.repeat(7)}-|-${'-'.repeat(6)}-|-${'-'.repeat(14)}-|-${'-'.repeat(17)}-|-${'-'.repeat(18)}-|-${'-'.repeat(12)}-|-${'-'.repeat(16)}`);
      for (const row of router) {
        const pair = (a: number, b: number) => `${f(a, 2)} / ${f(b, 2)}`;
        console.log(
          `${String(row.pools).padStart(7)} | ${String(row.tokens).padStart(6)} | ${f(row.buildMs, 2).padStart(14)} | ${pair(row.p50, row.p99).padStart(17)} | ${pair(row.hubP50, row.hubP99).padStart(18)} | ${f(row.hubP50 / router[0].hubP50, 1).padStart(12)} | ${f(row.plans, 1)}`,
        );
      }
      console.log('graph build runs once per block with pool changes (indexer), not per quote.');
    }
    if (SETTINGS.sections.has('quality')) {
      log(`router quality: every ordered pair of the catalog, optimum in ${SETTINGS.qualityChunks} parts`);
      const rows = await quality(stack);
      report.quality = rows;
      const met = rows.every((r) => r.belowTarget === 0 && r.minVsSdk >= 1);
      failed ||= !met;
      console.log('');
      console.log(`router quality on the local stack's pools (best raw output / optimum; target >= ${TARGET_QUALITY} at every size, never below the v2-sdk best trade): ${met ? 'met' : 'NOT met'}`);
      console.log(`${'size % depth'.padStart(12)} | ${'trades'.padStart(6)} | ${'min'.padStart(8)} | ${'p5'.padStart(8)} | ${'median'.padStart(8)} | ${'< 0.999'.padStart(7)} | min vs v2-sdk`);
      console.log(`${'-'.repeat(12)}-|-${'-'.repeat(6)}-|-${'-'.repeat(8)}-|-${'-'.repeat(8)}-|-${'-'.repeat(8)}-|-${'-'.repeat(7)}-|-${'-'.repeat(13)}`);
      for (const r of rows) {
        console.log(`${(r.size * 100).toPrecision(3).padStart(12)} | ${String(r.trades).padStart(6)} | ${f(r.min, 5).padStart(8)} | ${f(r.p5, 5).padStart(8)} | ${f(r.median, 5).padStart(8)} | ${String(r.belowTarget).padStart(7)} | ${f(r.minVsSdk, 4)}`);
      }
    }
    console.log('');
    console.log(JSON.stringify(report));
    return SETTINGS.enforce && failed ? 1 : 0;
  } catch (err) {
    console.error(`bench failed: ${(err as Error).stack ?? String(err)}`);
    return 1;
  } finally {
    await stack?.app.close().catch(() => undefined);
    await stack?.devnet.stop().catch(() => undefined);
  }
}

void main().then((code) => process.exit(code));
