import { DataSource } from 'typeorm';
import { AppError } from '../src/common/errors/app-error';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { createAccount, createTestApp, TestApp } from './support/test-app';

describe('ledger', () => {
  let t: TestApp;
  let ledger: LedgerService;

  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(LedgerService);
  });
  afterAll(() => t.close());

  async function expectReconciled(userId: string) {
    const audit = await ledger.audit(userId);
    expect(audit.reconciles).toBe(true);
    return audit;
  }

  it('reserve, settle and release move money between the buckets and always reconcile', async () => {
    const { userId } = await createAccount(t, 10);
    await ledger.reserve(userId, 3_000_000n, 'tx:a');
    await ledger.reserve(userId, 2_000_000n, 'tx:b');
    let audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([5_000_000n, 5_000_000n]);

    await ledger.settle(userId, 'tx:a', 1_250_000n);
    audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([6_750_000n, 2_000_000n]);

    await ledger.release(userId, 'tx:b');
    audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([8_750_000n, 0n]);
  });

  it('settling or releasing twice changes nothing (retried jobs are harmless)', async () => {
    const { userId } = await createAccount(t, 5);
    await ledger.reserve(userId, 1_000_000n, 'tx:twice');
    await ledger.settle(userId, 'tx:twice', 400_000n);
    await ledger.settle(userId, 'tx:twice', 400_000n);
    await ledger.release(userId, 'tx:twice');
    const audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([4_600_000n, 0n]);
  });

  it('a cost above the reservation takes the excess from available, never below zero', async () => {
    const { userId } = await createAccount(t, 1);
    await ledger.reserve(userId, 600_000n, 'tx:over');
    await ledger.settle(userId, 'tx:over', 5_000_000n);
    const audit = await expectReconciled(userId);
    expect([audit.availableMicro, audit.pendingMicro]).toEqual([0n, 0n]);
  });

  it('refuses a reservation larger than available with TRANSACTION_002 and writes nothing', async () => {
    const { userId } = await createAccount(t, 1);
    await expect(ledger.reserve(userId, 1_000_001n, 'tx:too-much')).rejects.toMatchObject({ code: 'TRANSACTION_002' });
    const rows = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1`, [userId]);
    expect(rows[0].n).toBe(1); // only the opening credit
    await expectReconciled(userId);
  });

  it('50 concurrent reservations never overdraw: exactly as many succeed as the balance covers', async () => {
    const { userId } = await createAccount(t, 10);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => ledger.reserve(userId, 700_000n, `tx:race-${i}`)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toBe(14); // floor(10 / 0.7)
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    const audit = await expectReconciled(userId);
    expect(audit.availableMicro).toBe(10_000_000n - 14n * 700_000n);
    expect(audit.pendingMicro).toBe(14n * 700_000n);
  });

  it('the database itself refuses a negative balance', async () => {
    const { userId } = await createAccount(t, 1);
    await expect(t.app.get(DataSource).query(`UPDATE accounts SET available_micro = -1 WHERE id = $1`, [userId])).rejects.toThrow(/check constraint/);
  });
});
