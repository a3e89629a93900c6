import { JwtService } from '@nestjs/jwt';
import { DataSource } from 'typeorm';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_JWT_SECRET } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';

/**
 * Sponsorship policies per end user (extensions.md): the team's routes, every refusal reason
 * with nothing reserved, limits that concurrent submissions cannot overshoot, per-end-user
 * windows, settlement replacing the reservation, and the gas-price hold.
 */
describe('sponsorship policies', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);
  const mintSelector = erc20.getFunction('mint')!.selector;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await rpc.send('evm_setAutomine', [true]);
    await t.close();
  });

  const createPolicy = (apiKey: string, body: object) => t.http().post('/api/policies').set('api-key', apiKey).send(body);
  const submit = (apiKey: string, extra: object = {}) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()), ...extra });
  const usage = async (apiKey: string, id: string) => (await t.http().get(`/api/policies/${id}/usage`).set('api-key', apiKey).expect(200)).body.data;

  /** What a refusal must leave as it was: rows, ledger entries, balances, and every policy counter of the account. */
  async function snapshot(userId: string): Promise<unknown> {
    const [tx] = await db.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
    const [ledger] = await db.query('SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1', [userId]);
    const [account] = await db.query('SELECT available_micro::text AS a, pending_micro::text AS p, daily_consumed_micro::text AS d FROM accounts WHERE id = $1', [userId]);
    const policies = await db.query('SELECT id, spent_micro::text, reserved_micro::text, tx_count FROM sponsorship_policies WHERE user_id = $1 ORDER BY id', [userId]);
    const endUsers = await db.query(
      'SELECT e.policy_id, e.end_user, e.spent_micro::text, e.reserved_micro::text, e.tx_count, e.window_start FROM sponsorship_policy_end_users e JOIN sponsorship_policies p ON p.id = e.policy_id WHERE p.user_id = $1 ORDER BY 1, 2',
      [userId],
    );
    return { tx, ledger, account, policies, endUsers };
  }

  async function expectRefused(apiKey: string, userId: string, reason: string, extra: object = {}): Promise<void> {
    const before = await snapshot(userId);
    const res = await submit(apiKey, extra).expect(403);
    expect(res.body.error).toMatchObject({ code: 'TRANSACTION_010', category: 'TRANSACTION' });
    expect(res.body.error.message.startsWith(`${reason}:`)).toBe(true);
    expect(await snapshot(userId)).toEqual(before);
  }

  describe('routes: an account sees and edits only its own policies', () => {
    it('creates, lists, reads, patches (null clears) and deletes a policy with an api-key', async () => {
      const { apiKey } = await createAccount(t, 10);
      const denied = randomAddress();
      const created = await createPolicy(apiKey, {
        name: 'Launch',
        chainIds: [31337],
        targets: [{ address: usdc, selectors: [mintSelector.toUpperCase().replace('0X', '0x')] }],
        startsAt: '2026-01-01T00:00:00Z',
        endsAt: '2099-01-01T00:00:00.000Z',
        budgetUsd: 200,
        perEndUser: { maxUsd: 5, maxTxs: 5, windowSeconds: 86400 },
        endUsers: { deny: [denied] },
        maxGasPriceGwei: 30,
      }).expect(201);
      const policy = created.body.data;
      expect(policy).toEqual({
        id: expect.any(String),
        name: 'Launch',
        enabled: true,
        chainIds: [31337],
        targets: [{ address: usdc.toLowerCase(), selectors: [mintSelector] }],
        startsAt: '2026-01-01T00:00:00.000Z',
        endsAt: '2099-01-01T00:00:00.000Z',
        budgetUsd: 200,
        perEndUser: { maxUsd: 5, maxTxs: 5, windowSeconds: 86400 },
        endUsers: { deny: [denied.toLowerCase()] },
        maxGasPriceGwei: 30,
        createdAt: expect.any(String),
      });
      expect((await t.http().get('/api/policies').set('api-key', apiKey).expect(200)).body.data).toEqual([policy]);
      expect((await t.http().get(`/api/policies/${policy.id}`).set('api-key', apiKey).expect(200)).body.data).toEqual(policy);
      const patched = await t.http().patch(`/api/policies/${policy.id}`).set('api-key', apiKey).send({ enabled: false, budgetUsd: null, maxGasPriceGwei: null, name: 'Renamed' }).expect(200);
      expect(patched.body.data).toEqual({ ...policy, enabled: false, name: 'Renamed', budgetUsd: undefined, maxGasPriceGwei: undefined });
      expect(patched.body.data).not.toHaveProperty('budgetUsd');
      expect(await usage(apiKey, policy.id)).toEqual({ spentUsd: 0, reservedUsd: 0, txCount: 0, endUsers: [] });
      await t.http().delete(`/api/policies/${policy.id}`).set('api-key', apiKey).expect(200);
      await t.http().get(`/api/policies/${policy.id}`).set('api-key', apiKey).expect(404);
      expect((await t.http().get('/api/policies').set('api-key', apiKey).expect(200)).body.data).toEqual([]);
    });

    it("another account's policy is 404 RESOURCE_001 on GET, PATCH, DELETE and usage, and absent from its list; nothing changes", async () => {
      const owner = await createAccount(t, 10);
      const other = await createAccount(t, 10);
      const policy = (await createPolicy(owner.apiKey, { name: 'Mine', budgetUsd: 1 }).expect(201)).body.data;
      const requests = [
        t.http().get(`/api/policies/${policy.id}`),
        t.http().patch(`/api/policies/${policy.id}`).send({ enabled: false }),
        t.http().delete(`/api/policies/${policy.id}`),
        t.http().get(`/api/policies/${policy.id}/usage`),
      ];
      for (const req of requests) {
        const res = await req.set('api-key', other.apiKey).expect(404);
        expect(res.body.error.code).toBe('RESOURCE_001');
      }
      expect((await t.http().get('/api/policies').set('api-key', other.apiKey).expect(200)).body.data).toEqual([]);
      expect((await t.http().get(`/api/policies/${policy.id}`).set('api-key', owner.apiKey).expect(200)).body.data).toEqual(policy);
    });

    it('the wallet JWT of the account works like its api-key; no credential is 401; a JWT of another account sees 404', async () => {
      const owner = await createAccount(t, 10);
      const other = await createAccount(t, 10);
      const now = Math.floor(Date.now() / 1000);
      const bearer = (a: { userId: string; address: string }) => ({
        authorization: `Bearer ${new JwtService().sign({ sub: a.userId, address: a.address.toLowerCase(), aud: 'gas-relay', iat: now, exp: now + 600 }, { secret: TEST_JWT_SECRET, algorithm: 'HS256' })}`,
      });
      const created = (await t.http().post('/api/policies').set(bearer(owner)).send({ name: 'By JWT' }).expect(201)).body.data;
      expect((await t.http().get('/api/policies').set('api-key', owner.apiKey).expect(200)).body.data).toEqual([created]);
      await t.http().patch(`/api/policies/${created.id}`).set(bearer(other)).send({ name: 'x' }).expect(404);
      await t.http().get('/api/policies').expect(401);
      await t.http().post('/api/policies').send({ name: 'anon' }).expect(401);
    });

    it.each([
      ['no name', {}],
      ['a bad address in targets', { name: 'x', targets: [{ address: '0x12' }] }],
      ['a 3-byte selector', { name: 'x', targets: [{ address: randomAddress(), selectors: ['0x123456'] }] }],
      ['a negative budget', { name: 'x', budgetUsd: -1 }],
      ['a per-end-user rule without window', { name: 'x', perEndUser: { maxTxs: 3 } }],
      ['an end before the start', { name: 'x', startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }],
      ['a date that is no date', { name: 'x', startsAt: 'friday' }],
      ['a zero gas price cap', { name: 'x', maxGasPriceGwei: 0 }],
      ['a bad end user', { name: 'x', endUsers: { allow: ['nobody'] } }],
    ])('refuses %s with 400 VALIDATION_001', async (_name, body) => {
      const { apiKey } = await createAccount(t, 10);
      const res = await createPolicy(apiKey, body).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_001');
      expect((await t.http().get('/api/policies').set('api-key', apiKey).expect(200)).body.data).toEqual([]);
    });

    it('an unknown or malformed id is 404', async () => {
      const { apiKey } = await createAccount(t, 10);
      await t.http().get('/api/policies/00000000-0000-4000-8000-000000000000').set('api-key', apiKey).expect(404);
      await t.http().get('/api/policies/not-a-uuid').set('api-key', apiKey).expect(404);
    });
  });

  describe('submission path', () => {
    it('an account without an enabled policy sponsors as before (a disabled one changes nothing); the record has policyId null', async () => {
      const { apiKey } = await createAccount(t, 10);
      await createPolicy(apiKey, { name: 'off', enabled: false, chainIds: [84532] }).expect(201);
      const id = (await submit(apiKey).expect(201)).body.data.txId;
      const done = await waitForTx(t, id, { status: 'EXECUTED' });
      expect(done.policyId).toBeNull();
    });

    it('no_policy_matches: no enabled policy covers the chain, the target or the method; nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      await createPolicy(apiKey, { name: 'base only', chainIds: [84532] }).expect(201);
      await createPolicy(apiKey, { name: 'other target', targets: [{ address: randomAddress() }] }).expect(201);
      await createPolicy(apiKey, { name: 'transfer only', targets: [{ address: usdc, selectors: [erc20.getFunction('transfer')!.selector] }] }).expect(201);
      await expectRefused(apiKey, userId, 'no_policy_matches');
    });

    it('outside_window: the matching policy has not started or has ended; nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      await createPolicy(apiKey, { name: 'later', startsAt: new Date(Date.now() + 3_600_000).toISOString() }).expect(201);
      await createPolicy(apiKey, { name: 'over', startsAt: '2020-01-01T00:00:00Z', endsAt: new Date(Date.now() - 1000).toISOString() }).expect(201);
      await expectRefused(apiKey, userId, 'outside_window');
    });

    it('end_user_denied: a denied end user, one outside the allow list, and a submission naming no end user to a policy that limits end users; nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      const denied = randomAddress();
      const allowed = randomAddress();
      await createPolicy(apiKey, { name: 'deny', endUsers: { deny: [denied] } }).expect(201);
      await createPolicy(apiKey, { name: 'allow', endUsers: { allow: [allowed] }, targets: [{ address: usdc }] }).expect(201);
      await expectRefused(apiKey, userId, 'end_user_denied', { endUser: denied.toLowerCase() });
      await t.http().patch(`/api/policies/${(await t.http().get('/api/policies').set('api-key', apiKey)).body.data[0].id}`).set('api-key', apiKey).send({ enabled: false }).expect(200);
      await expectRefused(apiKey, userId, 'end_user_denied', { endUser: randomAddress() });
      await expectRefused(apiKey, userId, 'end_user_denied');
      const ok = await submit(apiKey, { endUser: allowed }).expect(201);
      expect((await waitForTx(t, ok.body.data.txId, { status: 'EXECUTED' })).policyId).toEqual(expect.any(String));
    });

    it('budget_exhausted: a budget below the estimate; nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      await createPolicy(apiKey, { name: 'tiny', budgetUsd: 0.000001 }).expect(201);
      await expectRefused(apiKey, userId, 'budget_exhausted', { endUser: randomAddress() });
    });

    it('end_user_limit: the end user used its window; the next policy that matches sponsors instead, else refused with nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      const user = randomAddress().toLowerCase();
      const first = (await createPolicy(apiKey, { name: 'one each', perEndUser: { maxTxs: 1, windowSeconds: 3600 } }).expect(201)).body.data;
      const id = (await submit(apiKey, { endUser: user }).expect(201)).body.data.txId;
      expect((await waitForTx(t, id, { status: 'EXECUTED' })).policyId).toBe(first.id);
      await expectRefused(apiKey, userId, 'end_user_limit', { endUser: user });
      // Another user still has its own window.
      expect((await submit(apiKey, { endUser: randomAddress() }).expect(201)).body.data.txId).toEqual(expect.any(String));
      // A second policy with room takes over for the user the first one refuses.
      const second = (await createPolicy(apiKey, { name: 'fallback', budgetUsd: 5 }).expect(201)).body.data;
      const next = (await submit(apiKey, { endUser: user }).expect(201)).body.data.txId;
      expect((await waitForTx(t, next, { status: 'EXECUTED' })).policyId).toBe(second.id);
    });

    it('a per-end-user USD cap counts the reservation at once and the settled cost after', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      const user = randomAddress().toLowerCase();
      const quote = (await t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201)).body.data.costUSD as number;
      // Room for one reservation, not two.
      const policy = (await createPolicy(apiKey, { name: 'capped', perEndUser: { maxUsd: Number((quote * 1.5).toFixed(6)), windowSeconds: 3600 } }).expect(201)).body.data;
      await rpc.send('evm_setAutomine', [false]);
      let id: string;
      try {
        id = (await submit(apiKey, { endUser: user }).expect(201)).body.data.txId;
        // Not mined yet: its reservation already counts against the user's cap.
        await expectRefused(apiKey, userId, 'end_user_limit', { endUser: user });
        const reserved = await usage(apiKey, policy.id);
        expect(reserved).toMatchObject({ spentUsd: 0, txCount: 1 });
        expect(reserved.reservedUsd).toBeGreaterThan(0);
      } finally {
        await rpc.send('evm_setAutomine', [true]);
      }
      await rpc.send('evm_mine', []);
      const done = await waitForTx(t, id, { status: 'EXECUTED' });
      expect(done.costUSD).toBeGreaterThan(0);
      expect(await usage(apiKey, policy.id)).toEqual({ spentUsd: done.costUSD, reservedUsd: 0, txCount: 1, endUsers: [{ address: user, spentUsd: done.costUSD, txCount: 1, windowResetsAt: expect.any(String) }] });
    });

    it('a per-end-user window that resets: refused within it, sponsored again once it is over', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      const user = randomAddress().toLowerCase();
      const policy = (await createPolicy(apiKey, { name: 'window', perEndUser: { maxTxs: 2, windowSeconds: 4 } }).expect(201)).body.data;
      const started = Date.now();
      const ids = [(await submit(apiKey, { endUser: user }).expect(201)).body.data.txId, (await submit(apiKey, { endUser: user }).expect(201)).body.data.txId];
      await expectRefused(apiKey, userId, 'end_user_limit', { endUser: user });
      const during = await usage(apiKey, policy.id);
      expect(during.endUsers).toEqual([{ address: user, spentUsd: expect.any(Number), txCount: 2, windowResetsAt: expect.any(String) }]);
      const resetsAt = Date.parse(during.endUsers[0].windowResetsAt);
      expect(resetsAt).toBeGreaterThanOrEqual(started + 3_000);
      expect(resetsAt).toBeLessThanOrEqual(Date.now() + 4_000);
      for (const id of ids) await waitForTx(t, id, { status: 'EXECUTED' });
      await new Promise((r) => setTimeout(r, Math.max(resetsAt - Date.now() + 100, 0)));
      // The window is over: usage shows nothing counted, and the user is sponsored again (a new window).
      expect((await usage(apiKey, policy.id)).endUsers).toEqual([{ address: user, spentUsd: 0, txCount: 0, windowResetsAt: null }]);
      const again = (await submit(apiKey, { endUser: user }).expect(201)).body.data.txId;
      expect((await waitForTx(t, again, { status: 'EXECUTED' })).policyId).toBe(policy.id);
      const fresh = await usage(apiKey, policy.id);
      expect(fresh.endUsers[0]).toMatchObject({ txCount: 1 });
      expect(Date.parse(fresh.endUsers[0].windowResetsAt)).toBeGreaterThan(resetsAt + 1_000);
      expect(fresh.txCount).toBe(3);
    });

    it('the derived sender of an authenticated transaction is its end user', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      await createPolicy(apiKey, { name: 'one each', perEndUser: { maxTxs: 1, windowSeconds: 3600 } }).expect(201);
      const auth = { isAuthenticatedTx: true, derivationPath: "m/44'/60'/0'/0/11" };
      const id = (await submit(apiKey, auth).expect(201)).body.data.txId;
      const done = await waitForTx(t, id, { status: 'EXECUTED' });
      const [row] = await db.query('SELECT end_user, sender FROM relay_transactions WHERE id = $1', [id]);
      expect(row.end_user).toBe(row.sender);
      expect(done.policyId).toEqual(expect.any(String));
      await expectRefused(apiKey, userId, 'end_user_limit', auth);
      // Another path is another end user.
      await submit(apiKey, { ...auth, derivationPath: "m/44'/60'/0'/0/12" }).expect(201);
    });

    it('50 concurrent submissions against a budget that allows 10: exactly 10 accepted, 40 refused budget_exhausted with nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 100);
      // No block while the burst runs: the base fee, hence every estimate, stays the same.
      await rpc.send('evm_setAutomine', [false]);
      try {
        await new Promise((r) => setTimeout(r, 1_100));
        const cost = (await t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201)).body.data.costUSD as number;
        const policy = (await createPolicy(apiKey, { name: 'campaign', budgetUsd: Number((cost * 10.5).toFixed(6)) }).expect(201)).body.data;
        const answers = await Promise.all(Array.from({ length: 50 }, () => submit(apiKey, { endUser: randomAddress() })));
        const accepted = answers.filter((r) => r.status === 201);
        const refused = answers.filter((r) => r.status !== 201);
        expect(accepted).toHaveLength(10);
        expect(refused.map((r) => [r.status, r.body.error.code, r.body.error.message.split(':')[0]])).toEqual(Array.from({ length: 40 }, () => [403, 'TRANSACTION_010', 'budget_exhausted']));
        const [counters] = await db.query('SELECT reserved_micro::text AS reserved, tx_count FROM sponsorship_policies WHERE id = $1', [policy.id]);
        const [sums] = await db.query("SELECT sum(estimated_cost_micro)::text AS reserved, count(*)::int AS n, count(*) FILTER (WHERE policy_id = $2)::int AS sponsored FROM relay_transactions WHERE user_id = $1", [userId, policy.id]);
        expect(sums).toEqual({ reserved: counters.reserved, n: 10, sponsored: 10 });
        expect(counters.tx_count).toBe(10);
        expect(BigInt(counters.reserved)).toBeLessThanOrEqual(BigInt(Math.round(cost * 10.5 * 1e6)));
        // Nothing of the 40 refusals in the ledger: one credit and ten reservations.
        const [ledger] = await db.query("SELECT count(*)::int AS n, sum(pending_delta)::text AS pending FROM ledger_entries WHERE user_id = $1", [userId]);
        expect(ledger).toEqual({ n: 11, pending: counters.reserved });
        await rpc.send('evm_setAutomine', [true]);
        await rpc.send('evm_mine', []);
        for (const r of accepted) await waitForTx(t, r.body.data.txId, { status: 'EXECUTED', timeoutMs: 60_000 });
        const settled = await usage(apiKey, policy.id);
        expect(settled.reservedUsd).toBe(0);
        expect(settled.txCount).toBe(10);
        expect(settled.spentUsd).toBeGreaterThan(0);
        expect(settled.spentUsd).toBeLessThanOrEqual(cost * 10.5);
      } finally {
        await rpc.send('evm_setAutomine', [true]);
      }
    });

    it('policyId is on the record of GET /api/tx and GET /api/txs', async () => {
      const { apiKey } = await createAccount(t, 10);
      const policy = (await createPolicy(apiKey, { name: 'all' }).expect(201)).body.data;
      const id = (await submit(apiKey).expect(201)).body.data.txId;
      expect((await waitForTx(t, id, { status: 'EXECUTED' })).policyId).toBe(policy.id);
      const list = await t.http().get('/api/txs').set('api-key', apiKey).expect(200);
      expect(list.body.data.items[0]).toMatchObject({ id, policyId: policy.id });
    });
  });
});
