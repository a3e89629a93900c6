/**
 * A chain-conditions scenario: its own anvil (`startScenarioChain`) behind the JSON-RPC proxy
 * (`startRpcProxy`), the app (in-process, or API in-process with worker processes) reading a
 * chains file whose only chain is that anvil reached through the proxy, and an account.
 *
 *   const s = await startScenario({ name: 'lag', chainId: 31401, basePort, proxy: { lagMs: 3000 } });
 *   const batch = await s.submit(40);           // each tx marks a unique id on chain
 *   await s.drain(batch, 45_000);               // until none is PENDING (or the deadline)
 *   const tally = await s.tally(batch);         // counted from the chain, see `Tally`
 *   await s.stop();
 *
 * Each scenario uses a chain id of its own: the test database is shared by every spec, and
 * nonce counters are per (chain, key), so a fresh anvil under a used chain id would start
 * behind the counters. Ports: `basePort` (anvil) and `basePort + 1` (proxy); set
 * TEST_CONDITIONS_PORT to move the range (default 18850).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { randomBytes } from 'node:crypto';
import { devRelayerAddresses } from '../../../scripts/local-stack/dev-keys';
import { weiToMicroUsd } from '../../../src/modules/relay/core/fees';
import { TEST_STATE_DIR, testEnv } from '../test-env';
import type { TestApp } from '../test-app';
import { markCall, NodeKind, ScenarioChain, startScenarioChain } from './anvil-control';
import { ProxyOptions, RpcProxy, startRpcProxy } from './rpc-proxy';

const ROOT = join(__dirname, '..', '..', '..');
export const CONDITIONS_PORT = Number(process.env.TEST_CONDITIONS_PORT ?? 18850);
/** The chains file prices the native coin at a fixed USD price, so expected charges are exact. */
const NATIVE_USD = 3000;

/** Relay timings shortened so a scenario of minutes of chain time fits in seconds. */
export const FAST_RELAY_ENV: Record<string, string> = {
  RELAY_REPLACE_AFTER_MS: '2000',
  RELAY_RECONCILE_INTERVAL_MS: '700',
  RELAY_RECEIPT_POLL_MS: '100',
};

export interface ScenarioOptions {
  name: string;
  chainId: number;
  /** anvil on basePort, the proxy on basePort + 1 */
  basePort: number;
  proxy?: Partial<ProxyOptions>;
  /**
   * Several providers in front of the one anvil (basePort + 1 + i), the chains file listing all
   * of them as `rpcUrls`; `proxy` is then ignored and `s.proxy` is the first of `s.proxies`.
   */
  providers?: Array<Partial<ProxyOptions>>;
  /** Appended to each provider URL in the chains file (e.g. `/v3/${KEY}`: a key filled from the environment). */
  urlPath?: string;
  /** With `providers`: each listed as `{url, maxBatch}`, a provider that takes JSON-RPC batches of that many calls. */
  maxBatch?: number;
  /** The node behind the proxies: anvil (default) or hardhat's node. */
  node?: NodeKind;
  /** Confirmation depth of the scenario chain (chains file `confirmations`). */
  confirmations?: number;
  env?: Record<string, string>;
  /** 0 = one in-process app doing everything; n = in-process API + n worker processes. */
  workers?: number;
  creditUsd?: number;
}

export interface Batch {
  txIds: string[];
  marks: bigint[];
}

/**
 * Counted from the chain after a drain; every field must be 0.
 * - lost: the marker never ran and the row does not say FAILED (accepted, then vanished or stuck as success);
 * - failedButExecuted: the marker ran and the row says FAILED (the account was not charged for it);
 * - doubled: the marker ran more than once;
 * - pending: still PENDING at the drain deadline;
 * - ledgerDiff: |cached balance − ledger sums| (available and pending);
 * - chargeDiff: |Σ rows' cost_micro − Σ on-chain gasUsed × effectiveGasPrice of their mined hashes (in micro-USD)|.
 */
export interface Tally {
  lost: number;
  failedButExecuted: number;
  doubled: number;
  pending: number;
  ledgerDiff: bigint;
  chargeDiff: bigint;
  statuses: Record<string, number>;
}

export interface Scenario {
  chain: ScenarioChain;
  proxy: RpcProxy;
  proxies: RpcProxy[];
  app: TestApp;
  db: DataSource;
  apiKey: string;
  userId: string;
  submit(n: number): Promise<Batch>;
  /**
   * `submit` through a faulty proxy: a submission the API answered with an error (its estimate
   * hit a failing call) is tried again with the same marker, as a client would; every marker in
   * the batch belongs to exactly one accepted transaction.
   */
  submitResilient(n: number): Promise<Batch>;
  drain(batch: Batch, timeoutMs: number): Promise<void>;
  tally(batch: Batch): Promise<Tally>;
  startWorker(): Promise<ChildProcess>;
  workers: ChildProcess[];
  stop(): Promise<void>;
}

export async function startScenario(opts: ScenarioOptions): Promise<Scenario> {
  const chain = await startScenarioChain({ port: opts.basePort, chainId: opts.chainId, fund: devRelayerAddresses(3, 2), node: opts.node });
  const proxies: RpcProxy[] = [];
  for (const [i, p] of (opts.providers ?? [opts.proxy ?? {}]).entries()) proxies.push(await startRpcProxy(chain.rpcUrl, opts.basePort + 1 + i, p));
  const proxy = proxies[0];
  const chainsFile = join(TEST_STATE_DIR, `chains-${opts.name}.json`);
  const def = scenarioChainDef(opts.chainId, proxy.url, opts.confirmations ?? 0);
  if (opts.providers) {
    delete def.rpcUrl;
    def.rpcUrls = proxies.map((p) => (opts.maxBatch ? { url: `${p.url}${opts.urlPath ?? ''}`, maxBatch: opts.maxBatch } : `${p.url}${opts.urlPath ?? ''}`));
  }
  writeFileSync(chainsFile, JSON.stringify({ chains: [def] }, null, 2));

  const env: Record<string, string> = { ...FAST_RELAY_ENV, ...opts.env, CHAINS_FILE: chainsFile };
  const workers: ChildProcess[] = [];
  const startWorker = () => spawnWorker({ ...testEnv(), ...env }).then((w) => (workers.push(w), w));
  const { createTestApp, createAccount } = await import('../test-app');
  const app = await createTestApp({ env: { ...env, APP_ROLE: opts.workers ? 'api' : 'all' } });
  // One at a time: two ts-node start-ups side by side on a busy machine take longer than both in turn.
  for (let i = 0; i < (opts.workers ?? 0); i++) await startWorker();
  const { apiKey, userId } = await createAccount(app, opts.creditUsd ?? 500);
  const db = app.app.get(DataSource);

  return {
    chain,
    proxy,
    proxies,
    app,
    db,
    apiKey,
    userId,
    workers,
    startWorker,
    async submit(n) {
      const marks = Array.from({ length: n }, () => BigInt(`0x${randomBytes(31).toString('hex')}`));
      const txIds: string[] = [];
      // A few at a time, as clients do: the API stays responsive and the order is mixed.
      for (let i = 0; i < marks.length; i += 10) {
        const slice = marks.slice(i, i + 10);
        const answers = await Promise.all(
          slice.map((id) => app.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: opts.chainId, to: chain.marker, callData: markCall(id) })),
        );
        for (const a of answers) {
          if (a.status !== 201) throw new Error(`submit answered ${a.status}: ${JSON.stringify(a.body)}`);
          txIds.push(a.body.data.txId as string);
        }
      }
      return { txIds, marks };
    },
    async submitResilient(n) {
      const marks = Array.from({ length: n }, () => BigInt(`0x${randomBytes(31).toString('hex')}`));
      const txIds: string[] = [];
      for (const id of marks) {
        for (let attempt = 0; ; attempt++) {
          const a = await app.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: opts.chainId, to: chain.marker, callData: markCall(id) });
          if (a.status === 201) {
            txIds.push(a.body.data.txId as string);
            break;
          }
          if (attempt >= 20) throw new Error(`submit answered ${a.status}: ${JSON.stringify(a.body)}`);
        }
      }
      return { txIds, marks };
    },
    async drain(batch, timeoutMs) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until) {
        const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE id = ANY($1) AND status = 'PENDING'`, [batch.txIds]);
        if (n === 0) return;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    tally: (batch) => tally(db, chain, userId, batch),
    async stop() {
      for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
      await app.close();
      for (const p of proxies) await p.close();
      await chain.stop();
    },
  };
}

async function tally(db: DataSource, chain: ScenarioChain, userId: string, batch: Batch): Promise<Tally> {
  const rows: Array<{ id: string; status: string; cost_micro: string | null }> = await db.query(
    `SELECT id, status, cost_micro::text FROM relay_transactions WHERE id = ANY($1)`,
    [batch.txIds],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const result: Tally = { lost: 0, failedButExecuted: 0, doubled: 0, pending: 0, ledgerDiff: 0n, chargeDiff: 0n, statuses: {} };
  for (let i = 0; i < batch.txIds.length; i++) {
    const row = byId.get(batch.txIds[i]);
    const count = await chain.markCount(batch.marks[i]);
    const status = row?.status ?? 'MISSING';
    result.statuses[status] = (result.statuses[status] ?? 0) + 1;
    if (count > 1n) result.doubled++;
    if (status === 'PENDING') result.pending++;
    else if (count === 0n && status !== 'FAILED') result.lost++;
    else if (count > 0n && status === 'FAILED') result.failedButExecuted++;
  }

  const [account] = await db.query(`SELECT available_micro::text AS a, pending_micro::text AS p FROM accounts WHERE id = $1`, [userId]);
  const [sums] = await db.query(`SELECT COALESCE(sum(available_delta), 0)::text AS a, COALESCE(sum(pending_delta), 0)::text AS p FROM ledger_entries WHERE user_id = $1`, [userId]);
  result.ledgerDiff = abs(BigInt(account.a) - BigInt(sums.a)) + abs(BigInt(account.p) - BigInt(sums.p));

  // What the chain says each settled row cost, against what it was charged.
  const settled: Array<{ cost_micro: string; execution_tx_hash: string }> = await db.query(
    `SELECT cost_micro::text, execution_tx_hash FROM relay_transactions WHERE id = ANY($1) AND cost_micro IS NOT NULL AND execution_tx_hash IS NOT NULL`,
    [batch.txIds],
  );
  let charged = 0n;
  let onChain = 0n;
  for (const r of settled) {
    charged += BigInt(r.cost_micro);
    const receipt = (await chain.rpc('eth_getTransactionReceipt', [r.execution_tx_hash])) as { gasUsed: string; effectiveGasPrice: string } | null;
    if (receipt) onChain += weiToMicroUsd(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice), NATIVE_USD);
  }
  result.chargeDiff = abs(charged - onChain);
  return result;
}

const abs = (v: bigint) => (v < 0n ? -v : v);

function scenarioChainDef(chainId: number, rpcUrl: string, confirmations: number): Record<string, unknown> {
  return {
    chainId,
    name: `Chain conditions ${chainId}`,
    rpcUrl,
    enabled: true,
    isTestnet: true,
    iconUrl: '',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    blockExplorer: { name: 'none', url: '', apiUrl: '' },
    capabilities: { eip7702: false, flashBlocks: false, exchangeAction: false },
    contracts: {},
    tokens: [],
    pricing: { staticNativeUsd: NATIVE_USD },
    confirmations,
  };
}

/** A real worker process (APP_ROLE=worker); its log goes to .local/test/worker-<pid>.log. */
export function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, APP_ROLE: 'worker', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    // A worker that comes up after the test gave up on it would take other specs' jobs: kill it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('worker did not start in 90 s'));
    }, 90_000);
    const log = createWriteStream(join(TEST_STATE_DIR, `worker-${child.pid}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker started')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
}
