import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Transaction } from 'ethers';
import { DataSource } from 'typeorm';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';
import { waitForTxs } from './support/wait-for-tx';

const BOUND = 4;

/**
 * A JSON-RPC pass-through to anvil that can refuse eth_sendRawTransaction with "txpool is full"
 * when the sender already has `cap` transactions in the node's pool, as hosted RPCs do.
 */
class PoolCapProxy {
  cap: number | null = null;
  refusals = 0;
  private server?: Server;
  private sends: Promise<unknown> = Promise.resolve();

  constructor(private readonly upstream: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        void this.answer(body).then((out) => {
          res.setHeader('content-type', 'application/json');
          res.end(out);
        });
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private async answer(body: string): Promise<string> {
    const parsed = JSON.parse(body) as { id: unknown; method: string; params: unknown[] } | Array<{ method: string }>;
    const isSend = !Array.isArray(parsed) && parsed.method === 'eth_sendRawTransaction';
    if (!isSend || this.cap === null) return this.forward(body);
    // One send at a time, so two cannot both see room for one.
    const run = this.sends.then(async () => {
      const single = parsed as { id: unknown; params: unknown[] };
      const from = Transaction.from(String(single.params[0])).from!.toLowerCase();
      if ((await pendingOf(this.upstream, from)) >= (this.cap ?? Infinity)) {
        this.refusals++;
        return JSON.stringify({ jsonrpc: '2.0', id: single.id, error: { code: -32000, message: 'txpool is full' } });
      }
      return this.forward(body);
    });
    this.sends = run.catch(() => undefined);
    return run;
  }

  private async forward(body: string): Promise<string> {
    const res = await fetch(this.upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return res.text();
  }
}

/** Transactions of each sender in the node's pool (pending and queued), from txpool_content. */
async function poolBySender(rpcUrl: string): Promise<Map<string, number>> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'txpool_content', params: [] }) });
  const { result } = (await res.json()) as { result: { pending: Record<string, Record<string, unknown>>; queued: Record<string, Record<string, unknown>> } };
  const counts = new Map<string, number>();
  for (const part of [result.pending, result.queued]) {
    for (const [sender, byNonce] of Object.entries(part ?? {})) counts.set(sender.toLowerCase(), (counts.get(sender.toLowerCase()) ?? 0) + Object.keys(byNonce).length);
  }
  return counts;
}

async function pendingOf(rpcUrl: string, sender: string): Promise<number> {
  return (await poolBySender(rpcUrl)).get(sender) ?? 0;
}

/**
 * Chain 84532 with automine off: the test mines, so transactions really wait in the node's pool.
 * Two relayer keys in the region, at most BOUND in flight on each.
 */
describe('relay: bounded in-flight transactions per relayer key', () => {
  const chain = testChain(84532);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);
  const proxy = new PoolCapProxy(chain.rpcUrl);
  let t: TestApp;

  beforeAll(async () => {
    const proxyUrl = await proxy.start();
    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8')) as { chains: Array<{ chainId: number; rpcUrl: string }> };
    for (const c of file.chains) if (c.chainId === 84532) c.rpcUrl = proxyUrl;
    mkdirSync(TEST_STATE_DIR, { recursive: true });
    const chainsFile = join(TEST_STATE_DIR, 'chains-inflight.json');
    writeFileSync(chainsFile, JSON.stringify(file));
    t = await createTestApp({ env: { CHAINS_FILE: chainsFile, RELAY_MAX_IN_FLIGHT_PER_KEY: String(BOUND), RELAYER_KEYS_PER_REGION: '2', RELAY_SLOT_WAIT_MS: '1000', RELAY_REPLACE_AFTER_MS: '60000' } });
    // The specs share the database and this node: transactions earlier specs left in flight on
    // 84532 (held with automine off, cancelled, expired) are picked up by this app's reconciler
    // and use the same two keys' slots and pool room. Let them finish first, so the bound and
    // the pool counted below are this spec's own.
    const dataSource = t.app.get(DataSource);
    const quietBy = Date.now() + 30_000;
    for (;;) {
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE chain_id = 84532 AND status = 'PENDING'`);
      if (n === 0 || Date.now() > quietBy) break;
      await rpc.send('evm_mine', []);
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  afterEach(async () => {
    proxy.cap = null;
    await rpc.send('evm_setAutomine', [true]);
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
  });

  /** Submits `n` mints to fresh recipients, then mines a block every `everyMs` until all are final, sampling the pool before each block. */
  async function burst(n: number, everyMs: number) {
    const { apiKey } = await createAccount(t, 400);
    await rpc.send('evm_setAutomine', [false]);
    const recipients = Array.from({ length: n }, () => randomAddress());
    // Eight submissions at a time: the burst is what reaches the worker, not a load test of the API on a shared machine.
    const ids: string[] = [];
    for (let i = 0; i < n; i += 8) {
      const batch = recipients.slice(i, i + 8).map((to) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 84532, to: usdc, callData: mintCall(to, 1n) }).expect(201));
      ids.push(...(await Promise.all(batch)).map((r) => r.body.data.txId as string));
    }
    const dataSource = t.app.get(DataSource);
    const inList = `'${ids.join("','")}'`;
    let maxInPool = 0;
    const deadline = Date.now() + 45_000;
    for (;;) {
      await new Promise((r) => setTimeout(r, everyMs));
      for (const count of (await poolBySender(chain.rpcUrl)).values()) maxInPool = Math.max(maxInPool, count);
      const [{ pending }] = await dataSource.query(`SELECT count(*)::int AS pending FROM relay_transactions WHERE id IN (${inList}) AND status = 'PENDING'`);
      if (pending === 0 || Date.now() > deadline) break;
      await rpc.send('evm_mine', []);
    }
    const rows = await waitForTxs(t, ids, { timeoutMs: 5_000 });
    return { ids, rows, recipients, maxInPool, dataSource };
  }

  /** From the chain: each recipient minted exactly once (0 lost, 0 doubled). */
  async function assertExactlyOnce(recipients: string[]) {
    const balances = await Promise.all(recipients.map((r) => rpc.call({ to: usdc, data: erc20.encodeFunctionData('balanceOf', [r]) }).then(BigInt)));
    expect(balances.filter((b) => b === 0n)).toHaveLength(0);
    expect(balances.filter((b) => b > 1n)).toHaveLength(0);
  }

  it('a burst of 80 never has more than the bound in the node per sender, uses both keys, and every one executes once', async () => {
    const { rows, recipients, maxInPool, dataSource, ids } = await burst(80, 150);
    expect(rows.filter((r) => r.status !== 'EXECUTED').map((r) => `${r.id} ${r.status} ${String(r.error)}`)).toEqual([]);
    expect(maxInPool).toBeGreaterThan(0);
    expect(maxInPool).toBeLessThanOrEqual(BOUND);
    await assertExactlyOnce(recipients);
    // Waiting for a slot is not a failure: no retry was counted, and the burst spread over both keys.
    const bySender: Array<{ sender: string; n: number; retries: number }> = await dataSource.query(
      `SELECT sender, count(*)::int AS n, sum(retries)::int AS retries FROM relay_transactions WHERE id IN ('${ids.join("','")}') GROUP BY sender`,
    );
    expect(bySender).toHaveLength(2);
    expect(bySender.every((s) => s.retries === 0)).toBe(true);
    expect(Math.min(...bySender.map((s) => s.n))).toBeGreaterThanOrEqual(30);
  }, 90_000);

  it("a node refusing as 'txpool is full' is back-pressure: nothing fails, nonces stay gapless, each executes once", async () => {
    proxy.cap = 3;
    proxy.refusals = 0;
    const { rows, recipients, maxInPool, ids, dataSource } = await burst(30, 250);
    expect(proxy.refusals).toBeGreaterThan(0);
    // What a stuck row was waiting for: its key, nonce and stage, and the key's lowest nonce still PENDING on the chain (another spec's row).
    const stuck = rows.filter((r) => r.status !== 'EXECUTED').map((r) => r.id);
    const detail: Array<{ id: string; stage: string; sender: string | null; nonce: string | null; lowest: string | null }> = stuck.length
      ? await dataSource.query(
          `SELECT t.id, t.stage, t.sender, t.nonce::text AS nonce, (SELECT min(o.nonce)::text FROM relay_transactions o WHERE o.chain_id = 84532 AND o.sender = t.sender AND o.status = 'PENDING') AS lowest FROM relay_transactions t WHERE t.id = ANY($1)`,
          [stuck],
        )
      : [];
    expect(detail.map((d) => `${d.id} ${d.stage} ${d.sender} nonce ${d.nonce} (lowest pending of the key ${d.lowest})`)).toEqual([]);
    expect(maxInPool).toBeLessThanOrEqual(3);
    await assertExactlyOnce(recipients);
    const [{ retries }] = await dataSource.query(`SELECT coalesce(sum(retries), 0)::int AS retries FROM relay_transactions WHERE id IN ('${ids.join("','")}')`);
    expect(retries).toBe(0);
  }, 90_000);
});
