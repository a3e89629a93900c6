import type { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { storesDatabase } from '../../../../test/fakes/database';
import { balancesOf, entriesOf, eventsOf, fundedAccount, moneyPath, MoneyPath, submission } from '../../../../test/fakes/money';

/** PendingWriter on a real PostgreSQL: the row, its reservation and its status event, all or nothing. */
describe('PendingWriter (real database)', () => {
  let ds: DataSource;
  let path: MoneyPath;

  beforeAll(async () => {
    ds = await storesDatabase();
    path = moneyPath(ds);
  });
  afterAll(() => ds?.destroy());

  const rowCount = async (userId: string) => Number((await ds.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]))[0].n);

  it('accepts: the row, the reservation with its reserve entry and the PENDING event, in one statement', async () => {
    const user = await fundedAccount(path, 10_000_000n);
    const { tx, notification } = await path.writer.write(user, submission(), 2_500_000n, null);
    const row = await path.txs.findById(tx.id);
    expect(row).toMatchObject({ stage: 'accepted', status: 'PENDING', estimatedCostMicro: 2_500_000n, userId: user });
    expect(await balancesOf(path, user)).toEqual({ available: 7_500_000n, pending: 2_500_000n });
    expect((await entriesOf(path, user)).at(-1)).toEqual({ kind: 'reserve', available: -2_500_000n, pending: 2_500_000n, reference: `tx:${tx.id}` });
    expect(await eventsOf(path, tx.id)).toEqual([{ status: 'PENDING', previous: null }]);
    // The answer carries the acceptance time the statement wrote.
    expect(notification.stages.acceptedAt).toBe(row!.createdAt.toISOString());
  });

  it('refuses over the balance (TRANSACTION_002) and writes nothing: no row, no entry, no event', async () => {
    const user = await fundedAccount(path, 1_000_000n);
    await expect(path.writer.write(user, submission(), 1_000_001n, null)).rejects.toMatchObject({ code: 'TRANSACTION_002' });
    expect(await rowCount(user)).toBe(0);
    expect(await entriesOf(path, user)).toHaveLength(1);
    expect(await balancesOf(path, user)).toEqual({ available: 1_000_000n, pending: 0n });
  });

  it('names the limit that refused (per-tx limit) and the request-only maxUSD before any write', async () => {
    const user = await fundedAccount(path, 10_000_000n, { perTxLimitMicro: 1_000_000n });
    await expect(path.writer.write(user, submission(), 1_500_000n, null)).rejects.toMatchObject({ code: 'TRANSACTION_001' });
    await expect(path.writer.write(user, submission(), 500_000n, 0.4)).rejects.toMatchObject({ code: 'TRANSACTION_001' });
    expect(await rowCount(user)).toBe(0);
  });

  it("writes a feature's record in the same transaction, and nothing at all when the feature refuses", async () => {
    const user = await fundedAccount(path, 10_000_000n);
    const seen: string[] = [];
    const { tx } = await path.writer.write(user, submission(), 1_000_000n, null, async (em, row) => {
      seen.push(row.id);
      // The feature's write sees the relay row: same transaction.
      const [found] = await em.query('SELECT id FROM relay_transactions WHERE id = $1', [row.id]);
      expect(found.id).toBe(row.id);
    });
    expect(seen).toEqual([tx.id]);
    expect(await balancesOf(path, user)).toEqual({ available: 9_000_000n, pending: 1_000_000n });

    await expect(path.writer.write(user, submission(), 1_000_000n, null, async () => { throw new Error('quote already used'); })).rejects.toThrow('quote already used');
    expect(await rowCount(user)).toBe(1);
    expect(await balancesOf(path, user)).toEqual({ available: 9_000_000n, pending: 1_000_000n });
  });

  it('a reservation the balance refuses after a feature wrote rolls the feature back too', async () => {
    const user = await fundedAccount(path, 500_000n);
    let wrote = false;
    await expect(path.writer.write(user, submission(), 600_000n, null, async () => { wrote = true; })).rejects.toMatchObject({ code: 'TRANSACTION_002' });
    expect(wrote).toBe(true);
    expect(await rowCount(user)).toBe(0);
  });

  describe("one account's concurrent submissions (ReservationQueue: those that wait for the account's statement go in one)", () => {
    const settle = <T>(ps: Array<Promise<T>>) => Promise.allSettled(ps);

    it('share statements, and every accepted one has its row, reserve entry (in order) and PENDING event; the balance is exact', async () => {
      const user = await fundedAccount(path, 100_000_000n);
      const one = jest.spyOn(path.txs, 'insertReserved');
      const many = jest.spyOn(path.txs, 'insertReservedMany');
      try {
        const results = await Promise.all(Array.from({ length: 30 }, (_, i) => path.writer.write(user, submission(), BigInt(1_000_000 + i), null)));
        // The first went alone; those that arrived while it ran went together.
        expect(many).toHaveBeenCalled();
        expect(one.mock.calls.length + many.mock.calls.length).toBeLessThan(30);
        const total = results.reduce((sum, r) => sum + r.tx.estimatedCostMicro, 0n);
        expect(await balancesOf(path, user)).toEqual({ available: 100_000_000n - total, pending: total });
        const entries = await entriesOf(path, user);
        expect(entries.slice(1)).toEqual(results.map((r) => ({ kind: 'reserve', available: -r.tx.estimatedCostMicro, pending: r.tx.estimatedCostMicro, reference: `tx:${r.tx.id}` })));
        for (const { tx, notification } of results) {
          const row = await path.txs.findById(tx.id);
          expect(row).toMatchObject({ stage: 'accepted', status: 'PENDING', estimatedCostMicro: tx.estimatedCostMicro, userId: user });
          expect(notification.stages.acceptedAt).toBe(row!.createdAt.toISOString());
          expect(await eventsOf(path, tx.id)).toEqual([{ status: 'PENDING', previous: null }]);
        }
      } finally {
        one.mockRestore();
        many.mockRestore();
      }
    });

    it('never reserves past the balance: of 12 submissions of 1 USD on 7 USD, 7 accepted, 5 refused (TRANSACTION_002) with nothing written', async () => {
      const user = await fundedAccount(path, 7_000_000n);
      const results = await settle(Array.from({ length: 12 }, () => path.writer.write(user, submission(), 1_000_000n, null)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) expect(r.reason).toMatchObject({ code: 'TRANSACTION_002' });
      expect(await balancesOf(path, user)).toEqual({ available: 0n, pending: 7_000_000n });
      expect(await rowCount(user)).toBe(7);
      expect((await entriesOf(path, user)).filter((e) => e.kind === 'reserve')).toHaveLength(7);
    });

    it('decides each as if alone: a refused one does not stop a later smaller one, nor the daily limit or per-tx limit of another', async () => {
      const user = await fundedAccount(path, 10_000_000n, { perTxLimitMicro: 6_000_000n, dailyLimitMicro: 9_500_000n });
      // 5 first (alone), then 7 (over the per-tx limit: TRANSACTION_001), 5 (over the day once 5 is in: TRANSACTION_006), 3, 1 (fit: 5 + 3 + 1 = 9 ≤ 9.5).
      const results = await settle([5_000_000n, 7_000_000n, 5_000_000n, 3_000_000n, 1_000_000n].map((micro) => path.writer.write(user, submission(), micro, null)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'TRANSACTION_001' });
      expect((results[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'TRANSACTION_006' });
      expect(await balancesOf(path, user)).toEqual({ available: 1_000_000n, pending: 9_000_000n });
    });

    it('two accounts never share a statement, and a disabled chain refuses only its own submissions', async () => {
      const [a, b] = [await fundedAccount(path, 10_000_000n, { disabledChainIds: [31337] }), await fundedAccount(path, 10_000_000n)];
      const results = await settle([
        ...Array.from({ length: 5 }, () => path.writer.write(a, submission({ chainId: 84532 }), 1_000_000n, null)),
        ...Array.from({ length: 5 }, () => path.writer.write(b, submission(), 1_000_000n, null)),
        path.writer.write(a, submission({ chainId: 31337 }), 1_000_000n, null),
      ]);
      expect(results.map((r) => r.status)).toEqual([...Array(10).fill('fulfilled'), 'rejected']);
      expect(await balancesOf(path, a)).toEqual({ available: 5_000_000n, pending: 5_000_000n });
      expect(await balancesOf(path, b)).toEqual({ available: 5_000_000n, pending: 5_000_000n });
    });
  });

  describe('policies not read first (planSponsorship: the one statement checks that the account has none enabled)', () => {
    const addPolicy = (userId: string, enabled: boolean) => ds.query('INSERT INTO sponsorship_policies (user_id, name, enabled) VALUES ($1, $2, $3)', [userId, 'p', enabled]);

    it('an account without an enabled policy: accepted in the one statement, the plan never asked', async () => {
      const user = await fundedAccount(path, 10_000_000n);
      await addPolicy(user, false);
      const plan = jest.fn(async () => null);
      const { tx } = await path.writer.write(user, submission(), 1_000_000n, null, undefined, 'accepted', null, plan);
      expect(plan).not.toHaveBeenCalled();
      expect(await rowCount(user)).toBe(1);
      expect(await balancesOf(path, user)).toEqual({ available: 9_000_000n, pending: 1_000_000n });
      expect(await eventsOf(path, tx.id)).toEqual([{ status: 'PENDING', previous: null }]);
    });

    it('an enabled policy: the statement reserves nothing and the plan decides (its refusal leaves nothing written)', async () => {
      const user = await fundedAccount(path, 10_000_000n);
      await addPolicy(user, true);
      const plan = jest.fn(async () => {
        throw new AppError('TRANSACTION_010', 'no_policy_matches: test');
      });
      await expect(path.writer.write(user, submission(), 1_000_000n, null, undefined, 'accepted', null, plan)).rejects.toMatchObject({ code: 'TRANSACTION_010' });
      expect(plan).toHaveBeenCalledTimes(1);
      expect(await rowCount(user)).toBe(0);
      expect(await entriesOf(path, user)).toHaveLength(1);
      expect(await balancesOf(path, user)).toEqual({ available: 10_000_000n, pending: 0n });
    });

    it('a policy disabled between the statement and the plan: the account pays, as it would have a moment later', async () => {
      const user = await fundedAccount(path, 10_000_000n);
      await addPolicy(user, true);
      // The statement saw the enabled policy and reserved nothing; by the time the plan reads the
      // policies there is none enabled.
      const plan = jest.fn(async () => {
        await ds.query('UPDATE sponsorship_policies SET enabled = false WHERE user_id = $1', [user]);
        return null;
      });
      const { tx } = await path.writer.write(user, submission(), 1_000_000n, null, undefined, 'accepted', null, plan);
      expect(plan).toHaveBeenCalledTimes(1);
      expect(await rowCount(user)).toBe(1);
      expect(await balancesOf(path, user)).toEqual({ available: 9_000_000n, pending: 1_000_000n });
      expect(await eventsOf(path, tx.id)).toEqual([{ status: 'PENDING', previous: null }]);
    });

    it('no policy and not enough balance: TRANSACTION_002 after one statement and the policy read, nothing written', async () => {
      const user = await fundedAccount(path, 500_000n);
      const plan = jest.fn(async () => null);
      const statements = [jest.spyOn(path.txs, 'insertReserved'), jest.spyOn(path.txs, 'insertReservedMany')];
      try {
        await expect(path.writer.write(user, submission(), 1_000_000n, null, undefined, 'accepted', null, plan)).rejects.toMatchObject({ code: 'TRANSACTION_002' });
        expect(statements.reduce((n, spy) => n + spy.mock.calls.length, 0)).toBe(1);
      } finally {
        for (const spy of statements) spy.mockRestore();
      }
      expect(plan).toHaveBeenCalledTimes(1);
      expect(await rowCount(user)).toBe(0);
      expect(await balancesOf(path, user)).toEqual({ available: 500_000n, pending: 0n });
    });

    it("a feature's submission (its record in one database transaction) is planned before it", async () => {
      const user = await fundedAccount(path, 10_000_000n);
      const plan = jest.fn(async () => null);
      let wrote = false;
      await path.writer.write(user, submission(), 1_000_000n, null, async () => { wrote = true; }, 'accepted', null, plan);
      expect(plan).toHaveBeenCalledTimes(1);
      expect(wrote).toBe(true);
      expect(await rowCount(user)).toBe(1);
    });
  });
});
