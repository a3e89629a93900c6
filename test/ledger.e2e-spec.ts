import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';

describe('ledger', () => {
  let t: TestApp;
  let ledger: LedgerService;

  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(LedgerService);
  });
  afterAll(() => t.close());

  /** The reservation the relay makes: limits and balance checked in the same statement; null when refused. */
  function reserve(userId: string, amountMicro: bigint, reference: string) {
    const now = new Date();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return ledger.reserveWithinLimits(t.app.get(DataSource), { userId, amountMicro, reference, chainId: 31337, now, dayStart });
  }

  async function expectReconciled(userId: string) {
    const audit = await ledger.audit(userId);
    expect(audit.reconciles).toBe(true);
    return audit;
  }

  it('reserve, settle and release move money between the buckets and always reconcile', async () => {
    const { userId } = await createAccount(t, 10);
    await reserve(userId, 3_000_000n, 'tx:a');
    await reserve(userId, 2_000_000n, 'tx:b');
    let audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([5_000_000n, 5_000_000n]);

    await ledger.settle(userId, 'tx:a', 1_250_000n);
    audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([6_750_000n, 2_000_000n]);

    await ledger.release(userId, 'tx:b');
    audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([8_750_000n, 0n]);
  });

  it('an audit taken while money moves still reconciles (both sums read from one snapshot)', async () => {
    const { userId } = await createAccount(t, 50);
    let moving = true;
    const mover = (async () => {
      for (let i = 0; moving; i++) {
        await reserve(userId, 10_000n, `tx:moving-${i}`);
        await ledger.settle(userId, `tx:moving-${i}`, 4_000n);
      }
    })();
    const audits = [];
    for (let i = 0; i < 150; i++) audits.push(await ledger.audit(userId));
    moving = false;
    await mover;
    expect(audits.filter((a) => !a.reconciles)).toEqual([]);
  });

  it('settling or releasing twice changes nothing (retried jobs are harmless)', async () => {
    const { userId } = await createAccount(t, 5);
    await reserve(userId, 1_000_000n, 'tx:twice');
    await ledger.settle(userId, 'tx:twice', 400_000n);
    await ledger.settle(userId, 'tx:twice', 400_000n);
    await ledger.release(userId, 'tx:twice');
    const audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([4_600_000n, 0n]);
  });

  it('a cost above the reservation takes the excess from available, never below zero', async () => {
    const { userId } = await createAccount(t, 1);
    await reserve(userId, 600_000n, 'tx:over');
    await ledger.settle(userId, 'tx:over', 5_000_000n);
    const audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([0n, 0n]);
  });

  it('refuses a reservation larger than available and writes nothing', async () => {
    const { userId } = await createAccount(t, 1);
    expect(await reserve(userId, 1_000_001n, 'tx:too-much')).toBeNull();
    const rows = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1`, [userId]);
    expect(rows[0].n).toBe(1); // only the opening credit
    await expectReconciled(userId);
  });

  it('50 concurrent reservations never overdraw: exactly as many succeed as the balance covers', async () => {
    const { userId } = await createAccount(t, 10);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => reserve(userId, 700_000n, `tx:race-${i}`)));
    expect(results.filter((r) => r !== null)).toHaveLength(14); // floor(10 / 0.7)
    const audit = await expectReconciled(userId);
    expect(audit.availableMicro).toBe(10_000_000n - 14n * 700_000n);
    expect(audit.pendingMicro).toBe(14n * 700_000n);
    const entries = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'reserve'`, [userId]);
    expect(entries[0].n).toBe(14); // a refused reservation leaves no entry
  });

  it('50 concurrent reservations never pass the daily limit either', async () => {
    const { userId, address } = await createAccount(t, 10);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ dailyLimit: 3 }).expect(200);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => reserve(userId, 700_000n, `tx:daily-${i}`)));
    expect(results.filter((r) => r !== null)).toHaveLength(4); // floor(3 / 0.7), though the balance covers 14
    const [account] = await t.app.get(DataSource).query(`SELECT daily_consumed_micro::text AS consumed FROM accounts WHERE id = $1`, [userId]);
    expect(account.consumed).toBe((4n * 700_000n).toString());
    await expectReconciled(userId);
  });

  it('the database itself refuses a negative balance', async () => {
    const { userId } = await createAccount(t, 1);
    await expect(t.app.get(DataSource).query(`UPDATE accounts SET available_micro = -1 WHERE id = $1`, [userId])).rejects.toThrow(/check constraint/);
  });
});
