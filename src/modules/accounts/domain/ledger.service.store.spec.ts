import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { storesDatabase } from '../../../../test/fakes/database';
import { balancesOf, entriesOf, fundedAccount, moneyPath, MoneyPath } from '../../../../test/fakes/money';
import { utcDayStart } from './daily-window';

/** LedgerService and AccountStore on a real PostgreSQL: every movement is one entry and the cached balances follow it. */
describe('LedgerService and AccountStore (real database)', () => {
  let ds: DataSource;
  let path: MoneyPath;

  beforeAll(async () => {
    ds = await storesDatabase();
    path = moneyPath(ds);
  });
  afterAll(() => ds?.destroy());

  // References are unique across runs: the database outlives them.
  const ref = (name: string) => `tx:${name}-${randomUUID()}`;
  const reservation = (userId: string, amountMicro: bigint, reference: string, chainId = 31337, now = new Date()) => ({ userId, amountMicro, reference, chainId, now, dayStart: utcDayStart(now) });

  it('reserves within the balance in ONE statement with its reserve entry', async () => {
    const refA = ref('a');
    const user = await fundedAccount(path, 10_000_000n);
    expect(await path.ledger.reserveWithinLimits(ds, reservation(user, 4_000_000n, refA))).toEqual({ availableMicro: 6_000_000n, pendingMicro: 4_000_000n });
    expect(await balancesOf(path, user)).toEqual({ available: 6_000_000n, pending: 4_000_000n });
    expect(await entriesOf(path, user)).toEqual([
      { kind: 'credit', available: 10_000_000n, pending: 0n, reference: null },
      { kind: 'reserve', available: -4_000_000n, pending: 4_000_000n, reference: refA },
    ]);
  });

  it('refuses a reservation over the balance, the per-tx limit, the daily limit or on a disabled chain, writing nothing', async () => {
    const refBalance = ref('balance');
    const refChain = ref('chain');
    const refDaily = ref('daily');
    const refOk = ref('ok');
    const refPerTx = ref('per_tx');
    const user = await fundedAccount(path, 10_000_000n, { perTxLimitMicro: 5_000_000n, dailyLimitMicro: 7_000_000n, disabledChainIds: [84532] });
    expect(await path.accounts.reserve(reservation(user, 5_000_001n, refPerTx), ds)).toBeUndefined();
    expect(await path.accounts.reserve(reservation(user, 1n, refChain, 84532), ds)).toBeUndefined();
    expect(await path.accounts.reserve(reservation(user, 5_000_000n, refOk), ds)).toEqual({ available_micro: '5000000', pending_micro: '5000000' });
    // 5 of the day's 7 used: 3 more would pass the balance but not the daily limit.
    expect(await path.accounts.reserve(reservation(user, 3_000_000n, refDaily), ds)).toBeUndefined();
    const broke = await fundedAccount(path, 1_000n);
    expect(await path.accounts.reserve(reservation(broke, 1_001n, refBalance), ds)).toBeUndefined();
    expect((await entriesOf(path, user)).map((e) => e.reference)).toEqual([null, refOk]);
    expect(await balancesOf(path, broke)).toEqual({ available: 1_000n, pending: 0n });
  });

  it('the daily window restarts at the UTC day boundary', async () => {
    const refT = ref('t');
    const refY = ref('y');
    const user = await fundedAccount(path, 10_000_000n, { dailyLimitMicro: 3_000_000n });
    const yesterday = new Date(Date.now() - 86_400_000);
    expect(await path.accounts.reserve(reservation(user, 3_000_000n, refY, 31337, yesterday), ds)).toBeDefined();
    expect(await path.accounts.reserve(reservation(user, 3_000_000n, refT), ds)).toBeDefined();
  });

  it('settles the actual cost and releases the rest of the reservation', async () => {
    const refS = ref('s');
    const user = await fundedAccount(path, 10_000_000n);
    await path.ledger.reserveWithinLimits(ds, reservation(user, 4_000_000n, refS));
    await path.ledger.settle(user, refS, 1_500_000n);
    expect(await balancesOf(path, user)).toEqual({ available: 8_500_000n, pending: 0n });
    expect((await entriesOf(path, user)).at(-1)).toEqual({ kind: 'settle', available: 2_500_000n, pending: -4_000_000n, reference: refS });
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });

  it('settles a cost above the reservation from the available balance (over-reservation)', async () => {
    const refOver = ref('over');
    const user = await fundedAccount(path, 10_000_000n);
    await path.ledger.reserveWithinLimits(ds, reservation(user, 1_000_000n, refOver));
    await path.ledger.settle(user, refOver, 1_600_000n);
    expect(await balancesOf(path, user)).toEqual({ available: 8_400_000n, pending: 0n });
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });

  it('a second settlement or release of a closed reference changes nothing (a retried settlement)', async () => {
    const refTwice = ref('twice');
    const user = await fundedAccount(path, 10_000_000n);
    await path.ledger.reserveWithinLimits(ds, reservation(user, 1_000_000n, refTwice));
    await path.ledger.settle(user, refTwice, 500_000n);
    await path.ledger.settle(user, refTwice, 500_000n);
    await path.ledger.release(user, refTwice);
    expect((await entriesOf(path, user)).filter((e) => e.reference === refTwice).map((e) => e.kind)).toEqual(['reserve', 'settle']);
    expect(await balancesOf(path, user)).toEqual({ available: 9_500_000n, pending: 0n });
  });

  it('a cost above the reservation and the balance takes what is there: available never goes negative', async () => {
    const user = await fundedAccount(path, 1_000_000n);
    const refShort = ref('short');
    await path.ledger.reserveWithinLimits(ds, reservation(user, 800_000n, refShort));
    await path.ledger.settle(user, refShort, 1_500_000n);
    expect(await balancesOf(path, user)).toEqual({ available: 0n, pending: 0n });
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });

  it('releases a reservation in full', async () => {
    const refR = ref('r');
    const user = await fundedAccount(path, 2_000_000n);
    await path.ledger.reserveWithinLimits(ds, reservation(user, 2_000_000n, refR));
    await path.ledger.release(user, refR);
    expect(await balancesOf(path, user)).toEqual({ available: 2_000_000n, pending: 0n });
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });

  it('a reorg adjustment charges or refunds the difference as an adjust entry', async () => {
    const refReorg = ref('reorg');
    const user = await fundedAccount(path, 10_000_000n);
    await path.ledger.reserveWithinLimits(ds, reservation(user, 2_000_000n, refReorg));
    await path.ledger.settle(user, refReorg, 1_000_000n);
    expect(await path.ledger.adjust(user, refReorg, 300_000n, 'reorg: more gas')).toBe(300_000n);
    expect(await path.ledger.adjust(user, refReorg, -100_000n, 'reorg: less gas')).toBe(-100_000n);
    expect(await balancesOf(path, user)).toEqual({ available: 8_800_000n, pending: 0n });
    expect((await entriesOf(path, user)).slice(-2)).toEqual([
      { kind: 'adjust', available: -300_000n, pending: 0n, reference: refReorg },
      { kind: 'adjust', available: 100_000n, pending: 0n, reference: refReorg },
    ]);
    expect(await path.ledger.audit(user)).toMatchObject({ reconciles: true });
  });
});
