import type { DataSource } from 'typeorm';
import { storesDatabase } from '../../../../test/fakes/database';
import { fundedAccount, moneyPath, randomAddress } from '../../../../test/fakes/money';
import { PolicyStore, SponsoredRow } from './policy.store';

/** PolicyStore's counters on a real PostgreSQL. */
describe('PolicyStore (real database)', () => {
  let ds: DataSource;
  let store: PolicyStore;

  beforeAll(async () => {
    ds = await storesDatabase();
    store = new PolicyStore(ds);
  });
  afterAll(() => ds?.destroy());

  const WINDOW = new Date('2026-11-29T00:00:00Z');

  /** A policy that has spent 100,000 micro-USD, 50,000 of them by one end user in the window starting at WINDOW. */
  async function sponsored(): Promise<SponsoredRow & { policyId: string }> {
    const userId = await fundedAccount(moneyPath(ds), 1_000_000n);
    const [{ id }] = await ds.query(`INSERT INTO sponsorship_policies (user_id, name, spent_micro, tx_count) VALUES ($1, 'p', 100000, 3) RETURNING id`, [userId]);
    const endUser = randomAddress();
    await ds.query(`INSERT INTO sponsorship_policy_end_users (policy_id, end_user, window_start, spent_micro, tx_count) VALUES ($1, $2, $3, 50000, 2)`, [id, endUser, WINDOW]);
    return { policyId: id, endUser, policyReservedMicro: 10_000n, policyWindowStart: WINDOW };
  }

  const counters = async (tx: SponsoredRow) => {
    const [policy] = await ds.query(`SELECT spent_micro::text AS spent, tx_count FROM sponsorship_policies WHERE id = $1`, [tx.policyId]);
    const [user] = await ds.query(`SELECT spent_micro::text AS spent, tx_count FROM sponsorship_policy_end_users WHERE policy_id = $1`, [tx.policyId]);
    return { policy: `${policy.spent}/${policy.tx_count}`, user: `${user.spent}/${user.tx_count}` };
  };

  it("a reorg's difference moves the policy's spend and the end user's window by as much, counts unchanged, never below 0", async () => {
    const tx = await sponsored();
    await store.adjustSpent(ds, tx, 7_000n);
    expect(await counters(tx)).toEqual({ policy: '107000/3', user: '57000/2' });
    await store.adjustSpent(ds, tx, -20_000n);
    expect(await counters(tx)).toEqual({ policy: '87000/3', user: '37000/2' });
    await store.adjustSpent(ds, tx, -500_000n);
    expect(await counters(tx)).toEqual({ policy: '0/3', user: '0/2' });
  });

  it("leaves an end user's window alone once it has reset, and a transaction no policy sponsored changes nothing", async () => {
    const tx = await sponsored();
    await ds.query(`UPDATE sponsorship_policy_end_users SET window_start = $2, spent_micro = 1000, tx_count = 1 WHERE policy_id = $1`, [tx.policyId, new Date('2026-11-30T00:00:00Z')]);
    await store.adjustSpent(ds, tx, 7_000n);
    expect(await counters(tx)).toEqual({ policy: '107000/3', user: '1000/1' });
    await store.adjustSpent(ds, { ...tx, policyId: null }, 7_000n);
    await store.adjustSpent(ds, { ...tx, policyReservedMicro: null }, 7_000n);
    expect(await counters(tx)).toEqual({ policy: '107000/3', user: '1000/1' });
  });
});
