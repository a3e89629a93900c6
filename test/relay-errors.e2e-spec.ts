import { concat, AbiCoder } from 'ethers';
import { erc20, mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';

describe('relay: validation and every error code', () => {
  let t: TestApp;
  let apiKey: string;
  let address: string;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const okTx = () => ({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) });

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey, address } = await createAccount(t, 50));
  });
  afterAll(() => t.close());

  const submit = (body: unknown, key = apiKey) => t.http().post('/api/submit-tx').set('api-key', key).send(body as object);
  const code = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

  it('schema errors are VALIDATION_004', async () => {
    expect(code(await submit({ to: usdc, callData: '0x' }).expect(400))).toBe('VALIDATION_004'); // chainId missing
    expect(code(await submit({ ...okTx(), chainId: 'one' }).expect(400))).toBe('VALIDATION_004');
    expect(code(await submit({ ...okTx(), callData: 'hello' }).expect(400))).toBe('VALIDATION_004');
    expect(code(await submit({ ...okTx(), transactionType: 'warp' }).expect(400))).toBe('VALIDATION_004');
    expect(code(await submit({ chainId: 31337, callData: '0x' }).expect(400))).toBe('VALIDATION_004'); // to missing
  });

  it('a malformed target address is VALIDATION_002', async () => {
    expect(code(await submit({ ...okTx(), to: '0x123' }).expect(400))).toBe('VALIDATION_002');
  });

  it.each([
    ['legacy price with EIP-1559 fields', { gasPrice: '1000000000', maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1' }],
    ['only maxFeePerGas', { maxFeePerGas: '2000000000' }],
    ['only maxPriorityFeePerGas', { maxPriorityFeePerGas: '1' }],
    ['priority above max fee', { maxFeePerGas: '1', maxPriorityFeePerGas: '2' }],
    ['non-integer gas price', { gasPrice: '1.5' }],
    ['gas limit below 21000', { gasLimit: '100' }],
  ])('%s is TRANSACTION_005', async (_, gas) => {
    expect(code(await submit({ ...okTx(), ...gas }).expect(400))).toBe('TRANSACTION_005');
  });

  it('flash-blocks outside 8453/84532 is VALIDATION_003 and accepted on 84532', async () => {
    expect(code(await submit({ ...okTx(), transactionType: 'flash-blocks' }).expect(400))).toBe('VALIDATION_003');
    const base = testChain(84532);
    const ok = await submit({ chainId: 84532, to: token(base, 'USDC'), callData: mintCall(randomAddress()), transactionType: 'flash-blocks' }).expect(201);
    expect(ok.body.data.txId).toBeDefined();
  });

  it('an unknown chain is CHAIN_001', async () => {
    expect(code(await submit({ ...okTx(), chainId: 999 }).expect(400))).toBe('CHAIN_001');
  });

  it('a call that reverts in simulation is 500 TRANSACTION_004 with the decoded reason', async () => {
    // transfer more USDC than the relayer holds: OpenZeppelin's ERC20InsufficientBalance custom error.
    const res = await submit({ ...okTx(), callData: erc20.encodeFunctionData('transfer', [randomAddress(), 1n]) }).expect(500);
    expect(res.body.error.code).toBe('TRANSACTION_004');
    expect(res.body.error.message).toMatch(/^execution reverted: ERC20InsufficientBalance\(sender=0x[0-9a-fA-F]{40}, balance=0, needed=1\)$/);
  });

  it('maxUSD below the estimate and the per-transaction limit are TRANSACTION_001', async () => {
    expect(code(await submit({ ...okTx(), maxUSD: 0.000001 }).expect(400))).toBe('TRANSACTION_001');
    const other = await createAccount(t, 50);
    await t.http().patch(`/admin/accounts/${other.address}/limits`).set(adminAuth).send({ perTxLimit: 0.000001 }).expect(200);
    expect(code(await submit(okTx(), other.apiKey).expect(400))).toBe('TRANSACTION_001');
  });

  it('a balance below the estimate is TRANSACTION_002 and writes nothing', async () => {
    const poor = await createAccount(t, 0.000001);
    expect(code(await submit(okTx(), poor.apiKey).expect(400))).toBe('TRANSACTION_002');
    const user = await t.http().get('/api/user').query({ address: poor.address }).expect(200);
    expect(user.body.data).toMatchObject({ availableBalance: 0.000001, pendingBalance: 0 });
  });

  it('the daily limit is TRANSACTION_006', async () => {
    const capped = await createAccount(t, 50);
    await t.http().patch(`/admin/accounts/${capped.address}/limits`).set(adminAuth).send({ dailyLimit: 0.000002 }).expect(200);
    expect(code(await submit(okTx(), capped.apiKey).expect(400))).toBe('TRANSACTION_006');
  });

  it('a tripped circuit breaker is 403 TRANSACTION_007 until an operator resets it', async () => {
    const tripped = await createAccount(t, 50);
    const { DataSource } = await import('typeorm');
    await t.app.get(DataSource).query(`UPDATE accounts SET failure_streak = 10 WHERE address = lower($1)`, [tripped.address]);
    const res = await submit(okTx(), tripped.apiKey).expect(403);
    expect(res.body.error).toMatchObject({ code: 'TRANSACTION_007', category: 'TRANSACTION' });
    await t.http().patch(`/admin/accounts/${tripped.address}/limits`).set(adminAuth).send({ resetFailureStreak: true }).expect(200);
    await submit(okTx(), tripped.apiKey).expect(201);
  });

  it('a chain disabled for the account is CHAIN_001', async () => {
    const picky = await createAccount(t, 50);
    await t.http().patch(`/admin/accounts/${picky.address}/limits`).set(adminAuth).send({ disabledChainIds: [31337] }).expect(200);
    expect(code(await submit(okTx(), picky.apiKey).expect(400))).toBe('CHAIN_001');
  });

  it('authentication: missing key 401 AUTH_001, bad key 401 AUTH_002', async () => {
    expect(code(await t.http().post('/api/submit-tx').send(okTx()).expect(401))).toBe('AUTH_001');
    expect(code(await submit(okTx(), 'rk_wrong').expect(401))).toBe('AUTH_002');
  });

  it('submit-tx-sync: timeoutMs outside 1000-120000 is VALIDATION_004', async () => {
    for (const timeoutMs of [999, 120001, 'soon']) {
      const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: okTx(), timeoutMs }).expect(400);
      expect(code(res)).toBe('VALIDATION_004');
    }
    expect(code(await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { ...okTx(), gasPrice: 'x' } }).expect(400))).toBe('TRANSACTION_005');
  });

  it('GET /api/tx: missing id 400 VALIDATION_004, unknown id 404 TRANSACTION_003', async () => {
    expect(code(await t.http().get('/api/tx').expect(400))).toBe('VALIDATION_004');
    expect(code(await t.http().get('/api/tx').query({ id: '' }).expect(400))).toBe('VALIDATION_004');
    expect(code(await t.http().get('/api/tx').query({ id: 'not-an-id' }).expect(404))).toBe('TRANSACTION_003');
    expect(code(await t.http().get('/api/tx').query({ id: '00000000-0000-4000-8000-000000000000' }).expect(404))).toBe('TRANSACTION_003');
  });

  it('POST /api/quote estimates without queueing or charging', async () => {
    const before = await t.http().get('/api/user').query({ address }).expect(200);
    const res = await t.http().post('/api/quote').set('api-key', apiKey).send(okTx()).expect(201);
    expect(res.body.data).toEqual({ costUSD: expect.any(Number), minBalanceRequired: expect.stringMatching(/^\d+$/) });
    expect(res.body.data.costUSD).toBeGreaterThan(0);
    const after = await t.http().get('/api/user').query({ address }).expect(200);
    expect(after.body.data.availableBalance).toBe(before.body.data.availableBalance);
    const reverting = await t.http().post('/api/quote').set('api-key', apiKey).send({ ...okTx(), callData: concat(['0x8da5cb5b', AbiCoder.defaultAbiCoder().encode(['uint256'], [1])]) }).expect(500);
    expect(code(reverting)).toBe('TRANSACTION_004');
  });
});
