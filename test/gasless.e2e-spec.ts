import { BaseWallet, Contract, JsonRpcProvider, MaxUint256, parseEther, parseUnits, Wallet, ZeroAddress } from 'ethers';
import Redis from 'ioredis';
import { GASLESS_FEE_RECIPIENT } from '../scripts/devnet/deploy-gasless';
import { SETTLER_OVERHEAD_GAS } from '../src/modules/gasless/domain/gasless-fee';
import { signingTypes } from '../src/modules/gasless/domain/permit-typed-data';
import { REDIS } from '../src/redis/redis.module';
import { provider as chainProvider, erc20, testChain, token, type TestChain } from './support/chain-fixtures';
import { DataSource } from 'typeorm';
import { adminAuth, createAccount, createTestApp, type TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('gasless swaps (Permit2)', () => {
  let t: TestApp;
  let chain: TestChain;
  let rpc: JsonRpcProvider;
  let key: string;
  let otherKey: string;
  /** Holds tokens and no ETH; its only own transaction is the one-time Permit2 approval. */
  let user: BaseWallet;
  let funder: BaseWallet;

  const balanceOf = (symbol: string, who: string): Promise<bigint> => new Contract(token(chain, symbol), erc20, rpc).balanceOf(who) as Promise<bigint>;
  const quote = (query: Json, apiKey = key) =>
    t.http().get('/gasless/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: user.address, acquisitionMode: 2, ...query });
  const sign = (q: Json, wallet: BaseWallet = user): Promise<string> => wallet.signTypedData(q.eip712.domain, signingTypes(q.eip712), q.eip712.message);
  const submit = (body: Json, apiKey = key) => t.http().post('/gasless/submit-swap').set('api-key', apiKey).send(body);

  const waitForSwap = async (swapId: string): Promise<Json> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.http().get('/gasless/status').set('api-key', key).query({ id: swapId }).expect(200);
      const swap = res.body.data as Json;
      if (swap.status === 'executed' || swap.status === 'failed' || Date.now() > deadline) return swap;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    t = await createTestApp();
    chain = testChain(31337);
    rpc = chainProvider(chain);
    key = (await createAccount(t, 100)).apiKey;
    otherKey = (await createAccount(t, 100)).apiKey;
    user = Wallet.createRandom().connect(rpc);
    funder = Wallet.createRandom().connect(rpc);
    await rpc.send('anvil_setBalance', [funder.address, '0x' + parseEther('10').toString(16)]);
    for (const [symbol, amount] of [['USDC', parseUnits('50000', 6)], ['DAI', parseUnits('50000', 18)]] as const) {
      await (await funder.sendTransaction({ to: token(chain, symbol), data: erc20.encodeFunctionData('mint', [user.address, amount]) })).wait();
    }
    // The one on-chain action of the user's own: approving Permit2 once per token (gas given for it, then taken away).
    await rpc.send('anvil_setBalance', [user.address, '0x' + parseEther('1').toString(16)]);
    for (const symbol of ['USDC', 'DAI']) {
      await (await user.sendTransaction({ to: token(chain, symbol), data: erc20.encodeFunctionData('approve', [chain.contracts.permit2, MaxUint256]) })).wait();
    }
    await rpc.send('anvil_setBalance', [user.address, '0x0']);
  });

  afterAll(async () => {
    rpc.destroy();
    await t.close();
  });

  it('mode 2: quote, sign the PermitTransferFrom, relay; the user receives at least minAmountOut and pays the fee in USDC, not ETH', async () => {
    const amount = parseUnits('1000', 6);
    const res = await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'WETH'), amount: amount.toString() }).expect(200);
    expect(res.body).toMatchObject({ code: 0, message: 'success' });
    const q = res.body.data[0] as Json;
    expect(q.eip712.primaryType).toBe('PermitTransferFrom');
    expect(q.eip712.domain).toEqual({ name: 'Permit2', chainId: 31337, verifyingContract: chain.contracts.permit2 });
    expect(q.eip712.message).toEqual({
      permitted: { token: token(chain, 'USDC'), amount: amount.toString() },
      spender: chain.contracts.gaslessSettler,
      nonce: q.nonce,
      deadline: q.deadline,
    });
    expect(q.fee.feeRecipient.toLowerCase()).toBe(GASLESS_FEE_RECIPIENT.toLowerCase());
    expect(BigInt(q.fee.feeAmount)).toBeGreaterThan(0n);
    expect(q.fee.feeUsd).toBeGreaterThan(0);
    expect(q.quote.amount).toBe(amount.toString());
    expect(BigInt(q.quote.minAmountOut)).toBeLessThanOrEqual(BigInt(q.quote.amountOut));
    // The best USDC -> WETH route is the Uniswap V3 0.05% pool: the settlement swaps through it (callback).
    expect(q.quote.providers.map((p: Json) => p.name)).toContain('uniswap-v3');
    expect(q.calldataTemplate).toMatchObject({ to: chain.contracts.gaslessSettler, value: '0' });
    expect(q.calldataTemplate.innerData.endsWith('00'.repeat(65) + '0'.repeat(62))).toBe(true);
    expect(Number(q.deadline)).toBeGreaterThan(Date.now() / 1000 + 60);

    const before = { usdc: await balanceOf('USDC', user.address), weth: await balanceOf('WETH', user.address), fee: await balanceOf('USDC', q.fee.feeRecipient), eth: await rpc.getBalance(user.address) };
    expect(before.eth).toBe(0n);
    const sub = await submit({ quoteId: q.quoteId, signature: await sign(q) }).expect(200);
    expect(sub.body.data).toMatchObject({
      status: 'submitted',
      fromChain: 31337,
      toChain: 31337,
      fromToken: token(chain, 'USDC'),
      toToken: token(chain, 'WETH'),
      amountIn: amount.toString(),
      amountOut: q.quote.amountOut,
      feeAmount: q.fee.feeAmount,
      routeKind: 'sameChainSwap',
    });
    expect(sub.body.data.relayTxId).toMatch(/^[0-9a-f-]{36}$/);

    const swap = await waitForSwap(sub.body.data.swapId);
    expect(swap.status).toBe('executed');
    expect(swap.executionTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf('USDC', user.address)).toBe(before.usdc - amount);
    expect((await balanceOf('WETH', user.address)) - before.weth).toBeGreaterThanOrEqual(BigInt(q.quote.minAmountOut));
    expect((await balanceOf('USDC', q.fee.feeRecipient)) - before.fee).toBe(BigInt(q.fee.feeAmount));
    expect(await rpc.getBalance(user.address)).toBe(0n);

    // The fee covered what the relay actually spent on the settlement (converted at ~3000 USDC/ETH).
    const receipt = (await rpc.getTransactionReceipt(swap.executionTxHash))!;
    // SETTLER_OVERHEAD_GAS is calibrated on this: the settlement fits in the route's gas plus the overhead.
    if (process.env.GASLESS_GAS_LOG) console.log(`settlement gasUsed ${receipt.gasUsed}, route gas ${q.quote.gasFee.gasLimit}`);
    expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(q.quote.gasFee.gasLimit) + SETTLER_OVERHEAD_GAS);
    const spentUsdcUnits = (receipt.gasUsed * receipt.gasPrice * 3000n * 10n ** 6n) / 10n ** 18n;
    expect(BigInt(q.fee.feeAmount)).toBeGreaterThanOrEqual((spentUsdcUnits * 9n) / 10n);
  });

  it('mode 3: the SwapWitness binds tokenOut, minAmountOut, receiver and feeAmount; native output goes to another receiver', async () => {
    const receiver = Wallet.createRandom().address;
    const amount = parseUnits('2000', 18);
    const res = await quote({ fromToken: token(chain, 'DAI'), toToken: ZeroAddress, amount: amount.toString(), receiver, acquisitionMode: 3, deadlineMinutes: 5 }).expect(200);
    const q = res.body.data[0] as Json;
    expect(q.eip712.primaryType).toBe('PermitWitnessTransferFrom');
    expect(q.eip712.types.SwapWitness).toEqual([
      { name: 'tokenOut', type: 'address' },
      { name: 'minAmountOut', type: 'uint256' },
      { name: 'receiver', type: 'address' },
      { name: 'feeAmount', type: 'uint256' },
    ]);
    expect(q.eip712.message.witness).toEqual({ tokenOut: ZeroAddress, minAmountOut: q.quote.minAmountOut, receiver, feeAmount: q.fee.feeAmount });
    const deadlineIn = Number(q.deadline) - Date.now() / 1000;
    expect(deadlineIn).toBeGreaterThan(240);
    expect(deadlineIn).toBeLessThanOrEqual(300);

    const daiBefore = await balanceOf('DAI', user.address);
    const sub = await submit({ quoteId: q.quoteId, signature: await sign(q) }).expect(200);
    const swap = await waitForSwap(sub.body.data.swapId);
    expect(swap.status).toBe('executed');
    expect(await rpc.getBalance(receiver)).toBeGreaterThanOrEqual(BigInt(q.quote.minAmountOut));
    expect(await balanceOf('DAI', user.address)).toBe(daiBefore - amount);
    expect(await rpc.getBalance(user.address)).toBe(0n);
  });

  it('refuses a wrong signer (AUTH_008), a short signature, a reused, unknown, expired or foreign quote', async () => {
    const fresh = async (): Promise<Json> =>
      (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('100', 6).toString() }).expect(200)).body.data[0];

    const q = await fresh();
    const wrong = await submit({ quoteId: q.quoteId, signature: await sign(q, Wallet.createRandom()) }).expect(400);
    expect(wrong.body).toMatchObject({ code: 400, data: null });
    expect(wrong.body.message).toMatch(/AUTH_008|signed by/);

    const short = await submit({ quoteId: q.quoteId, signature: (await sign(q)).slice(0, 130) }).expect(400);
    expect(short.body.message).toMatch(/132/);

    // Neither failure used the quote up: the right signature still goes through, once.
    const signature = await sign(q);
    await submit({ quoteId: q.quoteId, signature }).expect(200);
    const reused = await submit({ quoteId: q.quoteId, signature }).expect(404);
    expect(reused.body).toMatchObject({ code: 404, data: null });

    await submit({ quoteId: 'gq_00000000000000000000000000000000', signature }).expect(404);
    await submit({ quoteId: 'no-such-quote', signature }).expect(404);

    const foreign = await fresh();
    await submit({ quoteId: foreign.quoteId, signature: await sign(foreign) }, otherKey).expect(404);

    // A permit whose deadline has passed (the stored quote aged by hand: waiting minutes is not a test).
    const expired = await fresh();
    const redis = t.app.get<Redis>(REDIS);
    const stored = JSON.parse((await redis.get(`gasless:quote:${expired.quoteId}`))!);
    await redis.set(`gasless:quote:${expired.quoteId}`, JSON.stringify({ ...stored, deadline: Math.floor(Date.now() / 1000) - 1 }), 'EX', 60);
    const late = await submit({ quoteId: expired.quoteId, signature: await sign(expired) }).expect(404);
    expect(late.body.message).toMatch(/expired/);
  });

  it('a settlement the relay refuses records nothing and leaves the quote usable', async () => {
    const poor = await createAccount(t, 0.000001);
    const q = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('20', 6).toString() }, poor.apiKey).expect(200)).body.data[0];
    const signature = await sign(q);
    const refused = await submit({ quoteId: q.quoteId, signature }, poor.apiKey).expect(400);
    expect(refused.body.message).toMatch(/TRANSACTION_002|insufficient balance/);
    const db = t.app.get(DataSource);
    expect(await db.query('SELECT 1 FROM gasless_swaps WHERE quote_id = $1', [q.quoteId])).toHaveLength(0);
    await t.http().post(`/admin/accounts/${poor.address}/credit`).set(adminAuth).send({ usd: 10 }).expect(200);
    const accepted = await submit({ quoteId: q.quoteId, signature }, poor.apiKey).expect(200);
    expect(accepted.body.data.status).toBe('submitted');
    expect(await db.query('SELECT status, relay_tx_id FROM gasless_swaps WHERE quote_id = $1', [q.quoteId])).toEqual([{ status: 'submitted', relay_tx_id: accepted.body.data.relayTxId }]);
  });

  it('goes through the account approval webhook but not its allowedTargets (the settler is the service\'s own contract)', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const team = await createAccount(t, 100);
      await t.http().patch(`/admin/accounts/${team.address}/limits`).set(adminAuth).send({
        allowedTargets: [{ address: '0x000000000000000000000000000000000000dEaD' }],
        approvalWebhook: { url: receiver.url('/approve'), secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      }).expect(200);
      const q = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('20', 6).toString() }, team.apiKey).expect(200)).body.data[0];
      const signature = await sign(q);
      receiver.reply = () => ({ status: 200, body: { approve: false } });
      const denied = await submit({ quoteId: q.quoteId, signature }, team.apiKey).expect(403);
      expect(denied.headers['x-error-code']).toBe('TRANSACTION_008');
      const db = t.app.get(DataSource);
      expect(await db.query('SELECT 1 FROM gasless_swaps WHERE quote_id = $1', [q.quoteId])).toHaveLength(0);
      expect(await db.query('SELECT 1 FROM relay_transactions WHERE user_id = $1', [team.userId])).toHaveLength(0);
      receiver.reply = () => ({ status: 200, body: { approve: true } });
      const accepted = await submit({ quoteId: q.quoteId, signature }, team.apiKey).expect(200);
      expect(accepted.body.data.status).toBe('submitted');
      expect(receiver.calls.map((c) => c.body.to)).toEqual([chain.contracts.gaslessSettler.toLowerCase(), chain.contracts.gaslessSettler.toLowerCase()]);
    } finally {
      await receiver.close();
    }
  });

  it("counts against the account's sponsorship policies with the permit signer as end user", async () => {
    const team = await createAccount(t, 100);
    const db = t.app.get(DataSource);
    const deny = (await t.http().post('/api/policies').set('api-key', team.apiKey).send({ name: 'not this wallet', endUsers: { deny: [user.address] } }).expect(201)).body.data;
    const q = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('20', 6).toString() }, team.apiKey).expect(200)).body.data[0];
    const signature = await sign(q);
    const denied = await submit({ quoteId: q.quoteId, signature }, team.apiKey).expect(403);
    expect(denied.headers['x-error-code']).toBe('TRANSACTION_010');
    expect(denied.body.message).toMatch(/^end_user_denied:/);
    expect(await db.query('SELECT 1 FROM gasless_swaps WHERE quote_id = $1', [q.quoteId])).toHaveLength(0);
    expect(await db.query('SELECT 1 FROM relay_transactions WHERE user_id = $1', [team.userId])).toHaveLength(0);

    await t.http().delete(`/api/policies/${deny.id}`).set('api-key', team.apiKey).expect(200);
    const once = (await t.http().post('/api/policies').set('api-key', team.apiKey).send({ name: 'one swap each', perEndUser: { maxTxs: 1, windowSeconds: 3600 } }).expect(201)).body.data;
    const accepted = await submit({ quoteId: q.quoteId, signature }, team.apiKey).expect(200);
    const [row] = await db.query('SELECT end_user, policy_id FROM relay_transactions WHERE id = $1', [accepted.body.data.relayTxId]);
    expect(row).toEqual({ end_user: user.address.toLowerCase(), policy_id: once.id });
    // The same signer again: its one transaction of the window is used.
    const q2 = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('5', 6).toString() }, team.apiKey).expect(200)).body.data[0];
    const limited = await submit({ quoteId: q2.quoteId, signature: await sign(q2) }, team.apiKey).expect(403);
    expect(limited.body.message).toMatch(/^end_user_limit:/);
    const settled = await waitForTx(t, accepted.body.data.relayTxId, { status: 'EXECUTED' });
    expect(settled.policyId).toBe(once.id);
  });

  it('a route quote of GET /quote is not a gasless quote (400)', async () => {
    const route = await t.http().get('/quote').set('api-key', key).query({ fromChain: 31337, toChain: 31337, sender: user.address, fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: '1000000' }).expect(200);
    const res = await submit({ quoteId: route.body.data[0].quoteId, signature: '0x' + '11'.repeat(65) }).expect(400);
    expect(res.body.message).toMatch(/not a gasless quote/);
  });

  it('refuses acquisition modes 0 and 1, cross-chain pairs, native input, bad amounts and a missing key', async () => {
    const base = { fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: '1000000' };
    for (const mode of [0, 1, 4]) {
      const res = await quote({ ...base, acquisitionMode: mode }).expect(400);
      expect(res.body).toMatchObject({ code: 400, data: null });
      expect(res.body.message).toMatch(/acquisitionMode/);
    }
    expect((await quote({ ...base, toChain: 84532 }).expect(400)).body.message).toMatch(/same-chain/);
    expect((await quote({ ...base, fromToken: ZeroAddress }).expect(400)).body.message).toMatch(/ERC-20/);
    await quote({ ...base, amount: '1.5' }).expect(400);
    await quote({ ...base, amount: '0' }).expect(400);
    await quote({ ...base, sender: 'nope' }).expect(400);
    await quote({ ...base, fromChain: 999, toChain: 999 }).expect(400);
    // A fee larger than the amount leaves nothing to swap.
    expect((await quote({ ...base, amount: '10' }).expect(400)).body.message).toMatch(/fee/);
    await t.http().get('/gasless/quote').query({ ...base, fromChain: 31337, toChain: 31337, sender: user.address, acquisitionMode: 2 }).expect(401);
  });

  it("the swap row follows its settlement's outcome as the relay announces it, without a status read", async () => {
    const q = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('30', 6).toString() }).expect(200)).body.data[0];
    const sub = await submit({ quoteId: q.quoteId, signature: await sign(q) }).expect(200);
    const db = t.app.get(DataSource);
    const [relayed] = await db.query('SELECT relay_tx_id FROM gasless_swaps WHERE id = $1', [sub.body.data.swapId]);
    const [origin] = await db.query('SELECT origin FROM relay_transactions WHERE id = $1', [relayed.relay_tx_id]);
    expect(origin.origin).toBe('gasless');
    // Only the relay's own record is polled here; GET /gasless/status (which also catches up) is not called.
    const deadline = Date.now() + 30_000;
    let row: Json = {};
    while (Date.now() < deadline) {
      [row] = await db.query('SELECT status, execution_tx_hash FROM gasless_swaps WHERE id = $1', [sub.body.data.swapId]);
      if (row.status !== 'submitted') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(row.status).toBe('executed');
    expect(row.execution_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('GET /gasless/status: 404 for unknown ids and for another account', async () => {
    await t.http().get('/gasless/status').set('api-key', key).query({ id: '00000000-0000-0000-0000-000000000000' }).expect(404);
    await t.http().get('/gasless/status').set('api-key', key).query({ id: 'nope' }).expect(404);
    const q = (await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('50', 6).toString() }).expect(200)).body.data[0];
    const sub = await submit({ quoteId: q.quoteId, signature: await sign(q) }).expect(200);
    await t.http().get('/gasless/status').set('api-key', otherKey).query({ id: sub.body.data.swapId }).expect(404);
    expect((await waitForSwap(sub.body.data.swapId)).status).toBe('executed');
  });
});
