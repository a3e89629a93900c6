import { Batch, CONDITIONS_PORT, Scenario, startScenario, Tally } from './support/chain-conditions/scenario';
import { adminAuth } from './support/test-app';

/**
 * Chain conditions, part 4: a reorg of the blocks holding settled relayed transactions (chains
 * file confirmations 2). Settlement happens at the first receipt; the reconciler follows every
 * settled row to its confirmation depth and corrects the rows a reorg moved (docs/decisions.md,
 * "Settled transactions are followed to their confirmation depth").
 *
 * 1. Re-included elsewhere: the dropped transactions come back (as a node re-injecting them into
 *    its pool would) in other blocks, at another price. Nothing runs twice, every row stays
 *    EXECUTED, and each charge moves to what the canonical receipt cost, by an `adjust` entry.
 * 2. Dropped: the new blocks hold none of them. The relay finds none of a row's transactions on
 *    the canonical chain, sends its recorded bytes again, and settles the row's charge on the
 *    receipt they get.
 */
interface Settled {
  id: string;
  cost: bigint;
  blockHash: string;
}

async function settledRows(s: Scenario, batch: Batch): Promise<Settled[]> {
  const rows: Array<{ id: string; cost: string; block_hash: string }> = await s.db.query(
    `SELECT id, cost_micro::text AS cost, receipt->>'blockHash' AS block_hash FROM relay_transactions WHERE id = ANY($1) ORDER BY id`,
    [batch.txIds],
  );
  return rows.map((r) => ({ id: r.id, cost: BigInt(r.cost), blockHash: r.block_hash }));
}

/** Until every row of the batch is final at the chain's depth (or the deadline). */
async function untilFinalized(s: Scenario, batch: Batch, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  let open = batch.txIds.length;
  while (Date.now() < until) {
    [{ open }] = await s.db.query(`SELECT count(*)::int AS open FROM relay_transactions WHERE id = ANY($1) AND finalized_at IS NULL`, [batch.txIds]);
    if (open === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return open;
}

async function adjustments(s: Scenario, batch: Batch): Promise<{ count: number; charged: bigint }> {
  const [row] = await s.db.query(
    `SELECT count(*)::int AS count, COALESCE(-sum(available_delta), 0)::text AS charged FROM ledger_entries WHERE kind = 'adjust' AND reference = ANY($1)`,
    [batch.txIds.map((id) => `tx:${id}`)],
  );
  return { count: row.count, charged: BigInt(row.charged) };
}

/** Mined transactions of the batch as the chain has them (raw bytes, block, sender, nonce). */
async function minedOf(s: Scenario, batch: Batch) {
  const hashes: string[] = (await s.db.query(`SELECT execution_tx_hash FROM relay_transactions WHERE id = ANY($1)`, [batch.txIds])).map(
    (r: { execution_tx_hash: string }) => r.execution_tx_hash,
  );
  return Promise.all(
    hashes.map(async (hash) => {
      const receipt = (await s.chain.rpc('eth_getTransactionReceipt', [hash])) as { blockNumber: string };
      const tx = (await s.chain.rpc('eth_getTransactionByHash', [hash])) as { from: string; nonce: string };
      const raw = (await s.chain.rpc('eth_getRawTransactionByHash', [hash])) as string;
      return { raw, block: Number(BigInt(receipt.blockNumber)), from: tx.from, nonce: BigInt(tx.nonce) };
    }),
  );
}

interface ReorgRun {
  s: Scenario;
  batch: Batch;
  tally: Tally;
  before: Settled[];
  after: Settled[];
  unfinalized: number;
}

/**
 * `n` relayed transactions settled at 1 s blocks, then the blocks holding them replaced by as
 * many new ones: with `reinclude`, the same signed transactions in order (per sender by nonce),
 * spread over the new blocks differently than before; without, none of them.
 */
async function reorgRun(opts: { name: string; chainId: number; port: number; n: number; reinclude: boolean }): Promise<ReorgRun> {
  const s = await startScenario({ name: opts.name, chainId: opts.chainId, basePort: opts.port, confirmations: 2 });
  await s.chain.intervalMining(1);
  const batch = await s.submit(opts.n);
  await s.drain(batch, 40_000);
  await s.chain.intervalMining(0);
  const before = await settledRows(s, batch);
  const mined = await minedOf(s, batch);
  const depth = (await s.chain.blockNumber()) - Math.min(...mined.map((m) => m.block)) + 1;
  const ordered = mined.sort((a, b) => (a.from === b.from ? Number(a.nonce - b.nonce) : a.from.localeCompare(b.from)));
  const include = opts.reinclude ? ordered.map((m, i) => ({ raw: m.raw, offset: Math.min(depth - 1, Math.floor((i * depth) / ordered.length)) })) : [];
  await s.chain.reorg(depth, include);
  await s.chain.intervalMining(1);
  const unfinalized = await untilFinalized(s, batch, 40_000);
  const tally = await s.tally(batch);
  const after = await settledRows(s, batch);
  if (process.env.TEST_LOGS) console.log(opts.name, { depth, unfinalized }, tally, await adjustments(s, batch));
  return { s, batch, tally, before, after, unfinalized };
}

const totalCost = (rows: Settled[]) => rows.reduce((sum, r) => sum + r.cost, 0n);

describe('chain conditions: reorg re-including settled transactions elsewhere', () => {
  let r: ReorgRun;
  beforeAll(async () => {
    r = await reorgRun({ name: 'reorg', chainId: 31431, port: CONDITIONS_PORT + 14, n: 20, reinclude: true });
  }, 150_000);
  afterAll(() => r?.s.stop());

  it('nothing executed twice or lost, every row still EXECUTED, the ledger exact', () => {
    expect(r.tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n });
    expect(r.tally.statuses).toEqual({ EXECUTED: 20 });
  });

  it('every row is final at the chain depth with its canonical block, and charges what that receipt cost', async () => {
    expect(r.unfinalized).toBe(0);
    expect(r.after.filter((row, i) => row.blockHash !== r.before[i].blockHash).length).toBeGreaterThan(0);
    expect(r.tally.chargeDiff).toBe(0n);
    // The corrections are adjust entries under each row's reference, summing to the change in charge.
    const adj = await adjustments(r.s, r.batch);
    const change = totalCost(r.after) - totalCost(r.before);
    expect(adj.charged).toBe(change);
    if (change !== 0n) expect(adj.count).toBeGreaterThan(0);
  });

  it('the chain-aware audit finds nothing to report after the corrections', async () => {
    const audit = (await r.s.app.http().get('/admin/audit').query({ chainId: 31431 }).set(adminAuth).expect(200)).body.data;
    expect(audit.mismatches).toEqual([]);
    expect(audit.ok).toBe(true);
  });
});

describe('chain conditions: reorg dropping settled transactions', () => {
  let r: ReorgRun;
  beforeAll(async () => {
    r = await reorgRun({ name: 'reorg-drop', chainId: 31432, port: CONDITIONS_PORT + 16, n: 12, reinclude: false });
  }, 150_000);
  afterAll(() => r?.s.stop());

  it('every transaction is mined again once, no row lost or doubled, the ledger exact', () => {
    expect(r.tally).toMatchObject({ doubled: 0, lost: 0, failedButExecuted: 0, pending: 0, ledgerDiff: 0n });
    expect(r.tally.statuses).toEqual({ EXECUTED: 12 });
  });

  it('every row is final on its new block and charges what it cost there', async () => {
    expect(r.unfinalized).toBe(0);
    expect(r.after.every((row, i) => row.blockHash !== r.before[i].blockHash)).toBe(true);
    expect(r.tally.chargeDiff).toBe(0n);
    expect((await adjustments(r.s, r.batch)).charged).toBe(totalCost(r.after) - totalCost(r.before));
  });

  it('finality is the stage: every row moved from its mined stage to executed', async () => {
    const stages = await r.s.db.query(`SELECT stage, count(*)::int AS n FROM relay_transactions WHERE id = ANY($1) GROUP BY stage`, [r.batch.txIds]);
    expect(stages).toEqual([{ stage: 'executed', n: 12 }]);
  });
});
