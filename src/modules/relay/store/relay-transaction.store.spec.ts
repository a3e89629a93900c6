import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { storesDatabase } from '../../../../test/fakes/database';
import { balancesOf, entriesOf, eventsOf, fundedAccount, moneyPath, MoneyPath, randomAddress, submission } from '../../../../test/fakes/money';
import { compileSql, sql } from '../../../database/sql';
import { utcDayStart } from '../../accounts';
import { notificationFor } from '../../tx-events';
import { countersFor } from '../core/settlement-math';
import { move, SENT, Stage } from '../core/stage';
import type { RelayTransactionEntity } from './relay-transaction.entity';
import { moveSet } from './relay-transaction.sql';
import type { CoveredSettlement, SettledFields } from './relay-transaction.store';

/**
 * The relay row's composed statements on a real PostgreSQL: the nonce claim, a fee raise's
 * reservation, a covered settlement and a reorg correction, each one statement across the
 * relay row, the account, the ledger and the outbox.
 */
describe('RelayTransactionStore (real database)', () => {
  let ds: DataSource;
  let path: MoneyPath;

  beforeAll(async () => {
    ds = await storesDatabase();
    path = moneyPath(ds);
  });
  afterAll(() => ds?.destroy());

  /** An accepted row reserving `reservedMicro`, of a fresh account holding `availableMicro`. */
  async function accepted(availableMicro: bigint, reservedMicro: bigint, fields: Record<string, unknown> = {}): Promise<RelayTransactionEntity> {
    const user = await fundedAccount(path, availableMicro);
    return (await path.writer.write(user, submission(fields), reservedMicro, null)).tx;
  }

  /** The sender's claim: the row signed at `nonce` only while it is accepted (claimOpen gates signedCte). */
  const claim = (tx: RelayTransactionEntity, nonce: bigint, hash: string) =>
    path.txs.writeReplacement([sql`claimed AS (SELECT 1 WHERE ${path.txs.claimOpen(tx.id)})`, path.txs.signedCte(tx.id, randomAddress(), nonce, hash)]);

  const hash = () => `0x${randomAddress().slice(2).padEnd(64, '0')}`;

  it("reads a row by its prepared statement exactly as TypeORM's finder hydrates it (every column type, nulls included)", async () => {
    const tx = await accepted(10_000_000n, 1_000_000n, { gasLimit: '21000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '1000000000', value: '12345678901234567890', label: 'hydrate', authorizationList: [{ chainId: '0x7a69', address: randomAddress(), nonce: '0x1', yParity: '0x0', r: '0x01', s: '0x02' }] });
    await ds.query(
      `UPDATE relay_transactions SET nonce = 42, sender = $2, cost_micro = 987654, native_price_usd = 3456.123456, latency_ms = 17, receipt = '{"status":1,"logs":[]}'::jsonb,
              finalized_at = now(), policy_reserved_micro = 5, funding_cost_wei = 99, revert_reason = 'x' WHERE id = $1`,
      [tx.id, randomAddress()],
    );
    const { RelayTransactionEntity } = await import('./relay-transaction.entity');
    const orm = await ds.manager.findOneBy(RelayTransactionEntity, { id: tx.id });
    expect(orm).not.toBeNull();
    expect(await path.txs.findById(tx.id)).toStrictEqual(orm);
    expect(await path.txs.findByIds([tx.id, '00000000-0000-4000-8000-000000000000'])).toStrictEqual([orm]);
    expect(await path.txs.findById('00000000-0000-4000-8000-000000000000')).toBeNull();
    // The same inside a transaction (its own connection).
    expect(await ds.transaction((em) => path.txs.findById(tx.id, em))).toStrictEqual(orm);
  });

  it("sums the worst case a derived sender's other in-flight rows may spend: not its own, not final ones, not another path", async () => {
    const user = await fundedAccount(path, 50_000_000n);
    const PATH = "m/44'/60'/0'/0/7";
    const derived = async (fields: Record<string, unknown>) =>
      (await path.writer.write(user, submission({ derivationPath: PATH, derivationScheme: 'account', gasLimit: '21000', maxFeePerGas: '2000000000', value: '5', ...fields }), 1_000n, null)).tx;
    const own = await derived({});
    await derived({});
    await derived({ maxFeePerGas: null, gasPrice: '3000000000', value: '0' });
    const settled = await derived({});
    await path.txs.writeReplacement([sql`claimed AS (SELECT 1 WHERE ${path.txs.claimOpen(settled.id)})`, path.txs.signedCte(settled.id, randomAddress(), 1n, hash())]);
    await settleCovered(settled, 500n, hash());
    await derived({ derivationPath: "m/44'/60'/0'/0/8" });
    await derived({ derivationScheme: 'legacy' });
    // 21,000 × 2 gwei + 5 (the second row) and 21,000 × 3 gwei (the legacy-priced third).
    expect(await path.txs.derivedInFlightWorstCase(own)).toBe(21_000n * 2_000_000_000n + 5n + 21_000n * 3_000_000_000n);
  });

  it('claims an accepted row once: signed with its nonce and hash; a second claim writes nothing', async () => {
    const tx = await accepted(5_000_000n, 1_000_000n);
    const first = hash();
    await claim(tx, 7n, first);
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'signed', nonce: 7n, executionTxHash: first });
    await claim(tx, 8n, hash());
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'signed', nonce: 7n, executionTxHash: first });
  });

  it('raises a reservation by the difference with its raise entry; nothing above maxUSD or the balance', async () => {
    const user = await fundedAccount(path, 3_000_000n);
    const { tx } = await path.writer.write(user, submission(), 1_000_000n, 2.5);
    const now = new Date();
    const raise = (totalMicro: bigint) => path.txs.raiseReservation(tx.id, { totalMicro, chainId: 31337, now, dayStart: utcDayStart(now) }, 'speed-up');
    expect(await raise(1_800_000n)).toEqual({ stage: 'accepted', reserved_micro: '1000000', max_cost_micro: '2500000', added_micro: '800000' });
    expect(await balancesOf(path, user)).toEqual({ available: 1_200_000n, pending: 1_800_000n });
    expect((await entriesOf(path, user)).at(-1)).toMatchObject({ kind: 'raise', available: -800_000n, pending: 800_000n, reference: `tx:${tx.id}` });
    // Above the submission's maxUSD (2.5): nothing added.
    expect(await raise(2_600_000n)).toMatchObject({ added_micro: null });
    // Within maxUSD, above what the account still holds: refused as a submission would be.
    await ds.query('UPDATE accounts SET available_micro = 100000 WHERE id = $1', [user]);
    expect(await raise(2_000_000n)).toMatchObject({ reserved_micro: '1800000', added_micro: null });
    expect((await path.txs.findById(tx.id))!.estimatedCostMicro).toBe(1_800_000n);
  });

  async function settleCovered(tx: RelayTransactionEntity, costMicro: bigint, executionTxHash: string, to: Stage = 'executed') {
    const m = move(to, SENT);
    const fields: SettledFields = { executionTxHash, costMicro, isAccountCharged: true, receipt: null, revertReason: null, error: null, latencyMs: 1, failureReason: null };
    const finished = Object.assign(Object.create(Object.getPrototypeOf(tx)) as RelayTransactionEntity, tx, fields, { status: m.status, stage: m.to });
    return path.txs.settleCovered(tx, m, fields, notificationFor(finished, 'PENDING'), countersFor(tx, costMicro, true));
  }

  it('settles a covered cost in ONE statement: the row, the settle entry, the account and the EXECUTED event', async () => {
    const tx = await accepted(10_000_000n, 4_000_000n);
    const mined = hash();
    await claim(tx, 1n, mined);
    const stamps = await settleCovered(tx, 1_250_000n, mined);
    expect(stamps).toMatchObject({ low_balance_due: false });
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'executed', status: 'EXECUTED', costMicro: 1_250_000n, isAccountCharged: true });
    expect(await balancesOf(path, tx.userId)).toEqual({ available: 8_750_000n, pending: 0n });
    expect((await entriesOf(path, tx.userId)).at(-1)).toEqual({ kind: 'settle', available: 2_750_000n, pending: -4_000_000n, reference: `tx:${tx.id}` });
    expect(await eventsOf(path, tx.id)).toEqual([{ status: 'PENDING', previous: null }, { status: 'EXECUTED', previous: 'PENDING' }]);
    expect(await path.ledger.audit(tx.userId)).toMatchObject({ reconciles: true });
  });

  it('settles nothing when the row is already final, or the copy is stale (a raise since), or the cost exceeds the reservation', async () => {
    const tx = await accepted(10_000_000n, 2_000_000n);
    await claim(tx, 1n, hash());
    // Over the reservation: the general path's job, not this statement's.
    expect(await settleCovered(tx, 2_000_001n, hash())).toBeUndefined();
    // A stale copy: the row's reservation is no longer the one the copy carries.
    expect(await settleCovered({ ...tx, estimatedCostMicro: 1_500_000n } as RelayTransactionEntity, 1_000_000n, hash())).toBeUndefined();
    expect(await settleCovered(tx, 1_000_000n, hash())).toBeDefined();
    // Already final: a second settlement (a retried job) changes nothing.
    expect(await settleCovered(tx, 500_000n, hash())).toBeUndefined();
    expect(await balancesOf(path, tx.userId)).toEqual({ available: 9_000_000n, pending: 0n });
    expect((await eventsOf(path, tx.id)).map((e) => e.status)).toEqual(['PENDING', 'EXECUTED']);
  });

  /** A covered settlement of a batch (`settleCoveredMany`), its counters on the batch's clock `now`. */
  function covered(tx: RelayTransactionEntity, costMicro: bigint, executionTxHash: string, now: Date, to: Stage = 'executed', success: boolean | null = to === 'executed' || to === 'mined_executed'): CoveredSettlement {
    const m = move(to, SENT);
    const fields: SettledFields = { executionTxHash, costMicro, isAccountCharged: true, receipt: null, revertReason: null, error: null, latencyMs: 1, failureReason: success === false ? 'reverted' : null };
    const finished = Object.assign(Object.create(Object.getPrototypeOf(tx)) as RelayTransactionEntity, tx, fields, { status: m.status, stage: m.to });
    return { tx, m, fields, notification: notificationFor(finished, 'PENDING'), counters: countersFor(tx, costMicro, success, now) };
  }

  const countersOf = async (userId: string) =>
    ((await ds.query('SELECT failure_streak, daily_consumed_micro::text AS daily FROM accounts WHERE id = $1', [userId])) as Array<{ failure_streak: number; daily: string }>)[0];

  it('settles a batch of covered rows in ONE statement, each account once, as the settlements one after another would', async () => {
    // Two accounts with the same rows: one settles them one statement each, the other in one batch.
    const rowsOf = async () => {
      const user = await fundedAccount(path, 20_000_000n);
      const rows: RelayTransactionEntity[] = [];
      for (const reserved of [4_000_000n, 3_000_000n, 2_000_000n]) rows.push((await path.writer.write(user, submission(), reserved, null)).tx);
      for (const [n, tx] of rows.entries()) await claim(tx, BigInt(n), hash());
      await ds.query('UPDATE accounts SET failure_streak = 2 WHERE id = $1', [user]);
      return { user, rows };
    };
    const plan = (rows: RelayTransactionEntity[], now: Date) => [
      covered(rows[0], 1_250_000n, hash(), now, 'mined_reverted', false),
      covered(rows[1], 1_000_000n, hash(), now),
      covered(rows[2], 500_000n, hash(), now, 'mined_reverted', false),
    ];
    const one = await rowsOf();
    const batched = await rowsOf();
    const other = await rowsOf();
    const now = new Date();
    for (const item of plan(one.rows, now)) await path.txs.settleCoveredMany([item]);

    const items = [...plan(batched.rows, now), covered(other.rows[0], 700_000n, hash(), now)];
    // At the driver: statements reach it through TypeORM or, prepared, through the pool.
    const statements = jest.spyOn(Client.prototype, 'query');
    const settled = await path.txs.settleCoveredMany(items);
    expect(statements).toHaveBeenCalledTimes(1);
    statements.mockRestore();

    expect([...settled.keys()].sort()).toEqual([...batched.rows.map((r) => r.id), other.rows[0].id].sort());
    expect(settled.get(batched.rows[1].id)).toMatchObject({ low_balance_due: false, settled_at: expect.any(Date), mined_at: expect.any(Date) });
    expect(await balancesOf(path, batched.user)).toEqual(await balancesOf(path, one.user));
    expect(await balancesOf(path, batched.user)).toEqual({ available: 20_000_000n - 2_750_000n, pending: 0n });
    // The streak counts the failure after the last success; the day's amount is what was charged.
    expect(await countersOf(batched.user)).toEqual(await countersOf(one.user));
    expect(await countersOf(batched.user)).toEqual({ failure_streak: 1, daily: '2750000' });
    expect(await balancesOf(path, other.user)).toEqual({ available: 20_000_000n - 700_000n - 5_000_000n, pending: 5_000_000n });
    expect(await countersOf(other.user)).toEqual({ failure_streak: 0, daily: '5700000' });
    expect(await path.txs.findById(batched.rows[0].id)).toMatchObject({ stage: 'mined_reverted', status: 'FAILED', costMicro: 1_250_000n, failureReason: 'reverted' });
    expect(await path.txs.findById(batched.rows[1].id)).toMatchObject({ stage: 'executed', status: 'EXECUTED', costMicro: 1_000_000n, executionTxHash: items[1].fields.executionTxHash });
    expect((await entriesOf(path, batched.user)).filter((e) => e.kind === 'settle')).toEqual([
      { kind: 'settle', available: 2_750_000n, pending: -4_000_000n, reference: `tx:${batched.rows[0].id}` },
      { kind: 'settle', available: 2_000_000n, pending: -3_000_000n, reference: `tx:${batched.rows[1].id}` },
      { kind: 'settle', available: 1_500_000n, pending: -2_000_000n, reference: `tx:${batched.rows[2].id}` },
    ]);
    for (const tx of batched.rows) expect((await eventsOf(path, tx.id)).map((e) => e.status)).toEqual(['PENDING', tx === batched.rows[1] ? 'EXECUTED' : 'FAILED']);
    const [event] = (await ds.query(`SELECT payload FROM tx_status_events WHERE tx_id = $1 AND status = 'EXECUTED'`, [batched.rows[1].id])) as Array<{ payload: { stages: { settledAt: string } } }>;
    expect(event.payload.stages.settledAt).toBe(settled.get(batched.rows[1].id)!.settled_at!.toISOString());
    expect(await path.ledger.audit(batched.user)).toMatchObject({ reconciles: true });
    expect(await path.ledger.audit(other.user)).toMatchObject({ reconciles: true });
  });

  it('a batch leaves out the rows it may not settle (final, a stale copy, over the reservation) and settles the rest', async () => {
    const user = await fundedAccount(path, 10_000_000n);
    const rows: RelayTransactionEntity[] = [];
    for (let n = 0; n < 4; n++) rows.push((await path.writer.write(user, submission(), 2_000_000n, null)).tx);
    for (const [n, tx] of rows.entries()) await claim(tx, BigInt(n), hash());
    const now = new Date();
    await path.txs.settleCoveredMany([covered(rows[0], 100_000n, hash(), now)]);
    const settled = await path.txs.settleCoveredMany([
      covered(rows[0], 100_000n, hash(), now),
      covered({ ...rows[1], estimatedCostMicro: 1_500_000n } as RelayTransactionEntity, 1_000_000n, hash(), now),
      covered(rows[2], 2_000_001n, hash(), now),
      covered(rows[3], 1_000_000n, hash(), now),
    ]);
    expect([...settled.keys()]).toEqual([rows[3].id]);
    expect(await balancesOf(path, user)).toEqual({ available: 10_000_000n - 100_000n - 1_000_000n - 4_000_000n, pending: 4_000_000n });
    expect((await eventsOf(path, rows[0].id)).map((e) => e.status)).toEqual(['PENDING', 'EXECUTED']);
    expect(await path.txs.findById(rows[1].id)).toMatchObject({ stage: 'signed' });
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });

  it('a reorg correction is a move between mined stages (stage, cost, hash) with the adjust entry; a final row is left alone', async () => {
    const tx = await accepted(10_000_000n, 2_000_000n);
    await claim(tx, 1n, hash());
    await settleCovered(tx, 1_000_000n, hash(), 'mined_executed');
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'mined_executed', status: 'EXECUTED' });
    const canonical = hash();
    await path.txs.transaction(async (em) => {
      const locked = await path.txs.lockForSettlement(tx.id, em);
      const applied = await path.ledger.adjust(tx.userId, `tx:${tx.id}`, 400_000n, 'reorg', em);
      const fields = { executionTxHash: canonical, receipt: null, costMicro: locked!.costMicro! + applied, failureReason: 'reverted' as const };
      expect(await path.txs.correctSettled(tx.id, 'mined_executed', 'mined_reverted', fields, em)).toBe(true);
    });
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'mined_reverted', status: 'FAILED', costMicro: 1_400_000n, executionTxHash: canonical, failureReason: 'reverted' });
    expect(await balancesOf(path, tx.userId)).toEqual({ available: 8_600_000n, pending: 0n });

    expect(await path.txs.markFinalized([{ id: tx.id, stage: 'mined_reverted' }])).toBe(1);
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'reverted', status: 'FAILED' });
    expect(await path.txs.correctSettled(tx.id, 'mined_reverted', 'mined_executed', { executionTxHash: hash(), receipt: null, costMicro: 1n, failureReason: null }, ds)).toBe(false);
    expect(await path.txs.findById(tx.id)).toMatchObject({ stage: 'reverted', costMicro: 1_400_000n });
    expect(await path.ledger.audit(tx.userId)).toMatchObject({ reconciles: true });
  });

  it('no index of relay_transactions reads a column the in-flight moves change, so those moves are HOT updates', async () => {
    // What the first signature (signedCte) and the broadcast mark (markBroadcast) write; `status`
    // is written with the value it has (PENDING), which does not keep an update from being HOT.
    const assigned = (text: string) => [...text.matchAll(/(\w+) = /g)].map((m) => m[1]);
    const written = new Set(['sender', 'nonce', 'execution_tx_hash', ...assigned(compileSql(moveSet(move('signed', ['accepted']))).text), ...assigned(compileSql(moveSet(move('broadcast', ['signed']))).text)]);
    written.delete('status');
    expect([...written]).toEqual(expect.arrayContaining(['stage', 'signed_at', 'broadcast_at', 'updated_at']));
    const indexes: Array<{ name: string; def: string }> = await ds.query(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'relay_transactions'::regclass`,
    );
    expect(indexes.length).toBeGreaterThan(3);
    const reads = indexes.flatMap(({ name, def }) => {
      const keysAndPredicate = def.replace(/^.* USING \w+ /, '');
      return [...written].filter((column) => new RegExp(`\\b${column}\\b`).test(keysAndPredicate)).map((column) => `${name} reads ${column}`);
    });
    expect(reads).toEqual([]);
  });
});
