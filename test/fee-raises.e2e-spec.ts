import { toQuantity } from 'ethers';
import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts';
import { PricingService } from '../src/modules/pricing';
import { weiToMicroUsd } from '../src/modules/relay/core/fees';
import { verifySignature } from '../src/modules/webhooks/signing/standard-webhooks';
import { mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

const APPROVAL_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/**
 * Every fee increase is a reservation change (docs/security.md, Fee raises): a speed-up, and
 * the relay's own re-pricing, reserve the worst case at the new fees under the submission's
 * conditions (balance, per-tx and daily limits, maxUSD), or are refused and the transaction
 * keeps its fees. Chain 84532 with automine off holds broadcast transactions in the pool; one
 * key per region, so each test mines what it sent before the next one.
 */
describe('fee raises', () => {
  const slow = testChain(84532);
  const rpc = provider(slow);
  const usdcSlow = token(slow, 'USDC');
  const slowTx = (extra: Record<string, unknown> = {}) => ({ chainId: 84532, to: usdcSlow, callData: mintCall(randomAddress()), ...extra });

  /** The helpers of one test app. */
  const harness = (app: () => TestApp) => {
    const db = () => app().app.get(DataSource);
    const submit = (apiKey: string, body: Record<string, unknown>) =>
      app().http().post('/api/submit-tx').set('api-key', apiKey).send(body).then((r) => {
        if (r.status !== 201) throw new Error(`submit-tx answered ${r.status}: ${JSON.stringify(r.body)}`);
        return r.body.data as { txId: string; estimatedCostUSD: number };
      });
    const speedUp = (apiKey: string, id: string, body: Record<string, unknown>) => app().http().post(`/api/tx/${id}/speed-up`).set('api-key', apiKey).send(body);
    const record = (id: string) => app().http().get('/api/tx').query({ id }).expect(200).then((r) => r.body.data);
    /** Until the transaction has a hash a node accepted (automine off: it then waits in the pool). */
    const sent = async (id: string, after = 0) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const rows = await db().query(`SELECT hash FROM relay_broadcasts WHERE tx_id = $1 AND broadcast_at IS NOT NULL ORDER BY id`, [id]);
        if (rows.length > after) return rows[rows.length - 1].hash as string;
        if (Date.now() > deadline) throw new Error(`${id} was not broadcast`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const balances = async (userId: string) => (await db().query('SELECT available_micro::text AS available, pending_micro::text AS pending FROM accounts WHERE id = $1', [userId]))[0] as { available: string; pending: string };
    const entries = async (id: string) =>
      (await db().query(`SELECT kind, available_delta::text AS available, pending_delta::text AS pending FROM ledger_entries WHERE reference = $1 ORDER BY id`, [`tx:${id}`])) as Array<{ kind: string; available: string; pending: string }>;
    const reservation = async (id: string) => BigInt((await db().query('SELECT estimated_cost_micro::text AS r FROM relay_transactions WHERE id = $1', [id]))[0].r);
    const price = async () => (await app().app.get(PricingService).nativeUsd(84532)).usd;
    /** The most any signature of the row could cost (gas limit × its max fee + value; a cancellation: 21000 × max fee), in micro-USD now. */
    const worstSigned = async (id: string) => {
      const [row] = await db().query('SELECT gas_limit::text AS gas, value::text AS value, funding_cost_wei::text AS funding FROM relay_transactions WHERE id = $1', [id]);
      const sigs = await db().query('SELECT kind, max_fee_per_gas::text AS fee FROM relay_broadcasts WHERE tx_id = $1', [id]);
      const usd = await price();
      let worst = 0n;
      for (const s of sigs as Array<{ kind: string; fee: string }>) {
        const wei = s.kind === 'cancel' ? 21_000n * BigInt(s.fee) + BigInt(row.funding) : BigInt(row.gas) * BigInt(s.fee) + BigInt(row.value) + BigInt(row.funding);
        const micro = weiToMicroUsd(wei, usd);
        if (micro > worst) worst = micro;
      }
      return worst;
    };
    /** The ledger exact for a settled transaction: its entries net to the charge, nothing left pending, the account's balances the ledger's sums. */
    const expectExact = async (userId: string, id: string, creditMicro: bigint) => {
      const [row] = await db().query('SELECT cost_micro::text AS cost, estimated_cost_micro::text AS reserved FROM relay_transactions WHERE id = $1', [id]);
      const cost = BigInt(row.cost);
      const mine = await entries(id);
      expect(mine.reduce((sum, e) => sum + BigInt(e.pending), 0n)).toBe(0n);
      expect(mine.reduce((sum, e) => sum + BigInt(e.available), 0n)).toBe(-cost);
      // Reserved up front (reserve + raises) is the row's reservation, and the cost stays within it.
      expect(mine.filter((e) => e.kind === 'reserve' || e.kind === 'raise').reduce((sum, e) => sum + BigInt(e.pending), 0n)).toBe(BigInt(row.reserved));
      expect(cost).toBeLessThanOrEqual(BigInt(row.reserved));
      expect(await balances(userId)).toEqual({ available: (creditMicro - cost).toString(), pending: '0' });
      expect((await app().app.get(LedgerService).audit(userId)).reconciles).toBe(true);
      return cost;
    };
    return { db, submit, speedUp, record, sent, balances, entries, reservation, worstSigned, expectExact, price };
  };

  /** A block every 300 ms until the transaction is final (automine off). */
  const mineUntilFinal = async (t: TestApp, id: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await rpc.send('evm_mine', []);
      const done = await waitForTx(t, id, { timeoutMs: 300 });
      if (done.status !== 'PENDING' || Date.now() > deadline) return done;
    }
  };

  /** Base fee of the next block, or of the chain as the tests leave it. */
  const setNextBaseFee = (wei: bigint) => rpc.send('anvil_setNextBlockBaseFeePerGas', [toQuantity(wei)]);

  describe('speed-up', () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    const h = harness(() => t);

    beforeAll(async () => {
      // No fee cache: a quote and the submission after it read the same market (a cached read from
      // before an earlier test's mined speed-up priced the quote up to 1 s staler than the submission).
      t = await createTestApp({ env: { RELAYER_KEYS_PER_REGION: '1', APPROVAL_TIMEOUT_MS: '1000', RELAY_FEE_CACHE_MS: '0' } });
      receiver = await WebhookReceiver.start();
    });
    afterEach(async () => {
      await rpc.send('evm_setAutomine', [true]);
    });
    afterAll(async () => {
      await receiver.close();
      await t.close();
    });

    /** The worst-case cost of `body` now, in USD, quoted by a rich account. */
    const quoteUsd = async (body: Record<string, unknown>) => {
      const { apiKey } = await createAccount(t, 100);
      return (await t.http().post('/api/quote').set('api-key', apiKey).send(body).expect(201)).body.data.costUSD as number;
    };
    const usd = (micro: bigint) => Number(micro) / 1e6;

    it('a speed-up beyond the balance is refused 400 TRANSACTION_002; the transaction executes at its old fee and the account pays only what it reserved', async () => {
      const body = slowTx();
      const quoted = await quoteUsd(body);
      // Room for the submission and half of it again: a doubled fee does not fit.
      const creditMicro = BigInt(Math.ceil(quoted * 1.5 * 1e6));
      const { apiKey, userId } = await createAccount(t, usd(creditMicro));
      await rpc.send('evm_setAutomine', [false]);
      const { txId: id } = await h.submit(apiKey, body);
      const first = await h.sent(id);
      const reserved = await h.reservation(id);
      const refused = await h.speedUp(apiKey, id, { bumpPercent: 100 }).expect(400);
      expect(refused.body.error.code).toBe('TRANSACTION_002');
      // Nothing changed: no replacement, no raise, the reservation as it was.
      expect(await h.reservation(id)).toBe(reserved);
      expect((await h.entries(id)).map((e) => e.kind)).toEqual(['reserve']);
      expect(await h.balances(userId)).toEqual({ available: (creditMicro - reserved).toString(), pending: reserved.toString() });
      const rows = await h.db().query('SELECT hash FROM relay_broadcasts WHERE tx_id = $1', [id]);
      expect(rows.map((r: { hash: string }) => r.hash)).toEqual([first]);
      await rpc.send('evm_mine', []);
      const done = await waitForTx(t, id, { status: 'EXECUTED', timeoutMs: 15_000 });
      expect(done.executionTxHash).toBe(first);
      // The relay signed nothing the account had not reserved, and the account paid exactly the mined cost.
      expect(await h.worstSigned(id)).toBeLessThanOrEqual(reserved);
      const cost = await h.expectExact(userId, id, creditMicro);
      expect(BigInt((await h.balances(userId)).available)).toBe(creditMicro - cost);
    });

    it('a speed-up within budget raises the reservation in one step (a raise entry) and settlement releases the rest exactly', async () => {
      const creditMicro = 50_000_000n;
      const { apiKey, userId } = await createAccount(t, 50);
      await rpc.send('evm_setAutomine', [false]);
      const { txId: id } = await h.submit(apiKey, slowTx());
      const first = await h.sent(id);
      const before = await h.reservation(id);
      const res = await h.speedUp(apiKey, id, { bumpPercent: 50 }).expect(200);
      const second = res.body.data.executionTxHash as string;
      expect(second).not.toBe(first);
      const after = await h.reservation(id);
      // The worst case of the new fees, reserved before the replacement was signed.
      expect(after).toBeGreaterThan(before);
      expect(await h.worstSigned(id)).toBeLessThanOrEqual(after);
      const kinds = await h.entries(id);
      expect(kinds.map((e) => e.kind)).toEqual(['reserve', 'raise']);
      expect(BigInt(kinds[1].pending)).toBe(after - before);
      expect(BigInt(kinds[1].available)).toBe(before - after);
      expect(await h.balances(userId)).toEqual({ available: (creditMicro - after).toString(), pending: after.toString() });
      await rpc.send('evm_mine', []);
      const done = await waitForTx(t, id, { status: 'EXECUTED', timeoutMs: 15_000 });
      expect(done.executionTxHash).toBe(second);
      // Exactly the mined cost at the native price: gas used × effective price.
      const receipt = (await rpc.getTransactionReceipt(second))!;
      const cost = await h.expectExact(userId, id, creditMicro);
      expect(cost).toBe(weiToMicroUsd(receipt.gasUsed * receipt.gasPrice, await h.price()));
      expect((await h.entries(id)).map((e) => e.kind)).toEqual(['reserve', 'raise', 'settle']);
    });

    it('a speed-up beyond the submission\'s maxUSD is 400 TRANSACTION_001, beyond the daily limit 400 TRANSACTION_006; nothing reserved, the old fee stays', async () => {
      const body = slowTx();
      const quoted = await quoteUsd(body);
      const { apiKey, userId } = await createAccount(t, 50);
      await rpc.send('evm_setAutomine', [false]);
      const maxUSD = Math.ceil(quoted * 1.3 * 1e6) / 1e6;
      const { txId: capped } = await h.submit(apiKey, { ...body, maxUSD });
      const first = await h.sent(capped);
      const reserved = await h.reservation(capped);
      expect((await h.record(capped)).executionTxHash).toBe(first);
      const overMax = await h.speedUp(apiKey, capped, { bumpPercent: 100 }).expect(400);
      expect(overMax.body.error.code).toBe('TRANSACTION_001');
      expect(overMax.body.error.message).toMatch(/maxUSD/);
      // Within maxUSD is fine (10% more fits under 1.3×).
      const within = await h.speedUp(apiKey, capped, { bumpPercent: 10 }).expect(200);
      expect(within.body.data.executionTxHash).not.toBe(first);
      expect(await h.reservation(capped)).toBeGreaterThan(reserved);
      expect(Number(await h.reservation(capped)) / 1e6).toBeLessThanOrEqual(maxUSD);
      await rpc.send('evm_mine', []);
      expect((await waitForTx(t, capped, { timeoutMs: 15_000 })).status).toBe('EXECUTED');
      await h.expectExact(userId, capped, 50_000_000n);

      // Daily limit: two transactions in flight use most of the day; doubling one's fee does not fit.
      const { apiKey: dailyKey, userId: dailyUser, address: dailyAddress } = await createAccount(t, 50);
      const day = Math.ceil(quoted * 2.5 * 1e6) / 1e6;
      await t.http().patch(`/admin/accounts/${dailyAddress}/limits`).set(adminAuth).send({ dailyLimit: day, perTxLimit: day }).expect(200);
      const { txId: a } = await h.submit(dailyKey, slowTx());
      const { txId: b } = await h.submit(dailyKey, slowTx());
      await h.sent(a);
      await h.sent(b);
      const reservedA = await h.reservation(a);
      const overDay = await h.speedUp(dailyKey, a, { bumpPercent: 100 }).expect(400);
      expect(overDay.body.error.code).toBe('TRANSACTION_006');
      expect(await h.reservation(a)).toBe(reservedA);
      expect((await h.entries(a)).map((e) => e.kind)).toEqual(['reserve']);
      await rpc.send('evm_mine', []);
      expect((await waitForTx(t, a, { timeoutMs: 15_000 })).status).toBe('EXECUTED');
      expect((await waitForTx(t, b, { timeoutMs: 15_000 })).status).toBe('EXECUTED');
      expect((await t.app.get(LedgerService).audit(dailyUser)).reconciles).toBe(true);
    });

    it('the approval webhook is asked about a speed-up (kind speed_up, old and new fees, new cost) and can refuse it: 403 TRANSACTION_008, nothing reserved', async () => {
      const creditMicro = 50_000_000n;
      const { apiKey, userId, address } = await createAccount(t, 50);
      await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ approvalWebhook: { url: receiver.url('/approve'), secret: APPROVAL_SECRET } }).expect(200);
      receiver.reply = (call) => ({ status: 200, body: { approve: call.body.kind !== 'speed_up' } });
      await rpc.send('evm_setAutomine', [false]);
      const { txId: id } = await h.submit(apiKey, slowTx());
      const first = await h.sent(id);
      const before = await h.record(id);
      const reserved = await h.reservation(id);
      const calls = receiver.calls.length;
      const denied = await h.speedUp(apiKey, id, { bumpPercent: 30 }).expect(403);
      expect(denied.body.error.code).toBe('TRANSACTION_008');
      expect(receiver.calls.length).toBe(calls + 1);
      const call = receiver.calls[receiver.calls.length - 1];
      expect(call.body).toMatchObject({
        event: 'sponsorship.request',
        kind: 'speed_up',
        userId,
        txId: id,
        chainId: 84532,
        oldFees: { maxFeePerGas: before.maxFeePerGas, maxPriorityFeePerGas: before.maxPriorityFeePerGas },
      });
      const newFees = call.body.newFees as { maxFeePerGas: string; maxPriorityFeePerGas: string };
      expect(BigInt(newFees.maxFeePerGas)).toBe((BigInt(before.maxFeePerGas) * 130n + 99n) / 100n);
      expect(call.body.estimatedCostUSD as number).toBeGreaterThan(Number(reserved) / 1e6);
      const headers = { 'webhook-id': String(call.headers['webhook-id']), 'webhook-timestamp': String(call.headers['webhook-timestamp']), 'webhook-signature': String(call.headers['webhook-signature']) };
      expect(verifySignature(APPROVAL_SECRET, headers, call.raw)).toBe(true);
      // Refused: nothing reserved, nothing replaced.
      expect(await h.reservation(id)).toBe(reserved);
      expect((await h.entries(id)).map((e) => e.kind)).toEqual(['reserve']);
      expect((await h.db().query('SELECT 1 FROM relay_broadcasts WHERE tx_id = $1', [id])).length).toBe(1);

      receiver.reply = () => ({ status: 200, body: { approve: true } });
      const approved = await h.speedUp(apiKey, id, { bumpPercent: 30 }).expect(200);
      expect(approved.body.data.executionTxHash).not.toBe(first);
      const raised = await h.reservation(id);
      expect(Number(raised) / 1e6).toBe(receiver.calls[receiver.calls.length - 1].body.estimatedCostUSD);
      await rpc.send('evm_mine', []);
      expect((await waitForTx(t, id, { timeoutMs: 15_000 })).status).toBe('EXECUTED');
      await h.expectExact(userId, id, creditMicro);
    });
  });

  describe('re-pricing', () => {
    let t: TestApp;
    const h = harness(() => t);
    let baseFee: bigint;

    beforeAll(async () => {
      // Stuck transactions are replaced after 1.5 s here (the relay's own fee raise).
      t = await createTestApp({ env: { RELAYER_KEYS_PER_REGION: '1', RELAY_REPLACE_AFTER_MS: '1500' } });
      baseFee = (await rpc.getBlock('latest'))!.baseFeePerGas!;
    });
    afterEach(async () => {
      await setNextBaseFee(baseFee);
      await rpc.send('evm_setAutomine', [true]);
    });
    afterAll(() => t.close());

    it('under a base-fee spike a replacement the account cannot reserve is not signed: the transaction waits at its fee and executes at it once the spike passes', async () => {
      const body = slowTx();
      const { apiKey: quoter } = await createAccount(t, 100);
      const quoted = (await t.http().post('/api/quote').set('api-key', quoter).send(body).expect(201)).body.data.costUSD as number;
      const creditMicro = BigInt(Math.ceil(quoted * 1.3 * 1e6));
      const { apiKey, userId, address } = await createAccount(t, Number(creditMicro) / 1e6);
      // anvil drops a transaction under the base fee and refuses its bytes until the base fee falls:
      // each refused attempt spends a retry, so the account gets enough of them to outlast the spike.
      await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ maxRetries: 20 }).expect(200);
      await rpc.send('evm_setAutomine', [false]);
      const { txId: id } = await h.submit(apiKey, body);
      const first = await h.sent(id);
      const reserved = await h.reservation(id);
      const maxFee = BigInt((await h.record(id)).maxFeePerGas);
      // The base fee jumps over the transaction's max fee: it cannot be mined, and the market
      // (2 × base fee + tip) is within the relay's 3× cap, so only the reservation stops a raise.
      await setNextBaseFee((maxFee * 3n) / 2n);
      await rpc.send('evm_mine', []);
      expect(await rpc.getTransactionReceipt(first)).toBeNull();
      // Several reconciler passes past RELAY_REPLACE_AFTER_MS, each asking for a replacement.
      await new Promise((r) => setTimeout(r, 5_000));
      await setNextBaseFee((maxFee * 3n) / 2n);
      await rpc.send('evm_mine', []);
      // Nothing signed beyond the reservation, nothing raised the account could not afford.
      expect(await h.worstSigned(id)).toBeLessThanOrEqual(await h.reservation(id));
      expect(await h.reservation(id)).toBe(reserved);
      expect((await h.entries(id)).map((e) => e.kind)).toEqual(['reserve']);
      expect(BigInt((await h.balances(userId)).available)).toBeGreaterThanOrEqual(0n);
      // The spike passes: the transaction is mined (its own bytes sent again, or a replacement the account can now afford).
      await setNextBaseFee(baseFee);
      const done = await mineUntilFinal(t, id);
      expect(done.status).toBe('EXECUTED');
      const hashes = (await h.db().query('SELECT hash FROM relay_broadcasts WHERE tx_id = $1', [id])).map((r: { hash: string }) => r.hash);
      expect(hashes).toContain(done.executionTxHash);
      expect(await h.worstSigned(id)).toBeLessThanOrEqual(await h.reservation(id));
      await h.expectExact(userId, id, creditMicro);
    });

    it('a replacement the account can afford raises its reservation first (a raise entry); settled exactly', async () => {
      const creditMicro = 50_000_000n;
      const { apiKey, userId } = await createAccount(t, 50);
      await rpc.send('evm_setAutomine', [false]);
      const { txId: id } = await h.submit(apiKey, slowTx());
      const first = await h.sent(id);
      const reserved = await h.reservation(id);
      const maxFee = BigInt((await h.record(id)).maxFeePerGas);
      await setNextBaseFee((maxFee * 3n) / 2n);
      await rpc.send('evm_mine', []);
      // The reconciler replaces it at the market within the cap, after raising the reservation.
      const second = await h.sent(id, 1);
      expect(second).not.toBe(first);
      expect(await h.reservation(id)).toBeGreaterThan(reserved);
      expect(await h.worstSigned(id)).toBeLessThanOrEqual(await h.reservation(id));
      const kinds = (await h.entries(id)).map((e) => e.kind);
      expect(kinds[0]).toBe('reserve');
      expect(kinds.length).toBeGreaterThan(1);
      expect(kinds.slice(1).every((k) => k === 'raise')).toBe(true);
      await setNextBaseFee((maxFee * 3n) / 2n);
      await rpc.send('evm_mine', []);
      const done = await waitForTx(t, id, { timeoutMs: 15_000 });
      expect(done.status).toBe('EXECUTED');
      await h.expectExact(userId, id, creditMicro);
    });
  });
});
