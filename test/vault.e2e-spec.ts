import { BaseWallet, Contract, Interface, JsonRpcProvider, TypedDataEncoder, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { erc20, provider, randomAddress, testChain, token } from './support/chain-fixtures';

const VAULT = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function convertToAssets(uint256) view returns (uint256)',
]);
const EXECUTE_TYPES = {
  Execute: [
    { name: 'calls', type: 'Call[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
};
/** anvil #7: pays for minting the user's test tokens, so the user itself never needs ETH. */
const MINTER_KEY = '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356';

interface TxPayload {
  authorization: { chainId: number; address: string; nonce: number };
  executeDigest: string;
  calls: Array<{ target: string; value: string; data: string }>;
  executeNonce: string;
  deadline: number;
}

describe('vault deposits and withdrawals (solver auction, EIP-7702 settlement)', () => {
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const wbtc = token(chain, 'WBTC');
  const vaultOf = (venueId: string) => chain.contracts[`vault:${venueId}`];
  const rpc: JsonRpcProvider = provider(chain);
  const minter = new Wallet(MINTER_KEY, rpc);
  let t: TestApp;
  let apiKey: string;

  const post = (path: string, body: Record<string, unknown>, key = apiKey) => t.http().post(path).set('api-key', key).send(body);
  const shares = (venueId: string, owner: string): Promise<bigint> => new Contract(vaultOf(venueId), VAULT, rpc).balanceOf(owner);
  const mint = async (to: string, amount: bigint) => (await minter.sendTransaction({ to: usdc, data: erc20.encodeFunctionData('mint', [to, amount]) })).wait();

  /** Signs like a wallet would: the 7702 authorization and the raw EIP-712 digest (after recomputing it). */
  async function sign(user: BaseWallet, payload: TxPayload, withAuthorization = true) {
    const digest = TypedDataEncoder.hash(
      { name: 'SettlementDelegate', version: '1', chainId: 31337, verifyingContract: user.address },
      EXECUTE_TYPES,
      { calls: payload.calls, nonce: payload.executeNonce, deadline: payload.deadline },
    );
    expect(digest).toBe(payload.executeDigest);
    const executeSignature = user.signingKey.sign(digest).serialized;
    if (!withAuthorization) return { executeSignature };
    const auth = await user.authorize({ address: payload.authorization.address, nonce: BigInt(payload.authorization.nonce), chainId: BigInt(payload.authorization.chainId) });
    return {
      executeSignature,
      authorization: { ...payload.authorization, yParity: `0x${auth.signature.yParity}`, r: auth.signature.r, s: auth.signature.s },
    };
  }

  async function waitForOrder(orderId: string, timeoutMs = 30_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await t.http().get(`/v1/orders/${orderId}`).set('api-key', apiKey).expect(200);
      if (res.body.data.status !== 'relaying' || Date.now() > deadline) return res.body.data;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  beforeAll(async () => {
    t = await createTestApp({
      env: { SETTLEMENT_DELEGATE_31337: chain.contracts.settlementDelegate, VAULT_SAMPLE_INTERVAL_MS: '300', VAULT_APY_MIN_SPAN_SECONDS: '3' },
    });
    ({ apiKey } = await createAccount(t, 200));
    // APYs come from share prices sampled at distinct blocks: mine (at wall-clock time, no time
    // warp) until the samples span the minimum and the auction has venues to offer.
    const deadline = Date.now() + 40_000;
    for (;;) {
      await rpc.send('evm_mine', []);
      const res = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: '1000000', riskTier: 'aggressive' });
      if (res.status === 200) break;
      if (Date.now() > deadline) throw new Error(`venues never got an APY: ${JSON.stringify(res.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 60_000);
  afterAll(() => t.close());

  it('the auction picks the allocation with the highest net APY within the tier and stores every bid', async () => {
    const res = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: String(1_000n * 10n ** 6n), riskTier: 'balanced' }).expect(200);
    const quote = res.body.data;
    expect(quote).toMatchObject({ solverId: 'best-single', feeBps: 50, riskScore: 0.5, allocation: [{ venueId: 'usdc-balanced', vault: vaultOf('usdc-balanced').toLowerCase(), shareBps: 10000 }] });
    // usdc-balanced earns 8 % gross on its seed; 1,000 USDC dilutes it by 1 %, the fee takes 0.5 points.
    expect(quote.grossApy).toBeGreaterThan(7.2);
    expect(quote.grossApy).toBeLessThan(8.6);
    expect(quote.netApy).toBeCloseTo(quote.grossApy - 0.5, 6);
    expect(quote.expiresAt).toBeGreaterThan(Date.now() / 1000);

    const bids: Array<{ solver_id: string; net_apy: string; won: boolean; rejected_reason: string | null }> = await t
      .app.get(DataSource)
      .query('SELECT solver_id, net_apy, won, rejected_reason FROM vault_bids WHERE quote_id = $1', [quote.quoteId]);
    expect(bids.map((b) => b.solver_id).sort()).toEqual(['best-single', 'diversified', 'lowest-risk']);
    const valid = bids.filter((b) => b.rejected_reason === null);
    const best = Math.max(...valid.map((b) => Number(b.net_apy)));
    expect(bids.filter((b) => b.won)).toEqual([expect.objectContaining({ solver_id: 'best-single', net_apy: expect.any(String) })]);
    expect(Number(bids.find((b) => b.won)!.net_apy)).toBe(best);

    // Conservative (ceiling 0.3): the paused and the full venue (risk 0.1, far higher APYs) are
    // unhealthy and left out, so the steady one wins; aggressive reaches the riskiest venue.
    const conservative = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: '1000000', riskTier: 'conservative' }).expect(200);
    expect(conservative.body.data.allocation).toEqual([expect.objectContaining({ venueId: 'usdc-steady', shareBps: 10000 })]);
    const aggressive = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: '1000000', riskTier: 'aggressive' }).expect(200);
    expect(aggressive.body.data.allocation).toEqual([expect.objectContaining({ venueId: 'usdc-max', shareBps: 10000 })]);
  });

  it('a tier whose ceiling excludes every venue, or an unreachable minApyBps, gets no bid: 404 RESOURCE_001', async () => {
    const wbtcConservative = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: wbtc, amount: '100000', riskTier: 'conservative' }).expect(404);
    expect(wbtcConservative.body).toMatchObject({ success: false, error: { code: 'RESOURCE_001', category: 'RESOURCE' } });
    await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: wbtc, amount: '100000', riskTier: 'balanced' }).expect(200);
    const tooGreedy = await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: '1000000', riskTier: 'aggressive', minApyBps: 5000 }).expect(404);
    expect(tooGreedy.body.error.code).toBe('RESOURCE_001');
  });

  it('a user without ETH deposits through the auction, holds the shares in the allocated proportions, then withdraws everything', async () => {
    const user = Wallet.createRandom();
    const amount = 100_000n * 10n ** 6n; // as large as each venue: dilution makes the diversified split win
    await mint(user.address, amount);

    const quote = (await post('/v1/quotes', { userAddress: user.address, chain: 31337, asset: usdc, amount: amount.toString(), riskTier: 'balanced', minApyBps: 100 }).expect(200)).body.data;
    expect(quote.solverId).toBe('diversified');
    expect(quote.allocation).toEqual([
      expect.objectContaining({ venueId: 'usdc-balanced', shareBps: 6000 }),
      expect.objectContaining({ venueId: 'usdc-steady', shareBps: 4000 }),
    ]);
    expect(quote.txPayload.authorization).toEqual({ chainId: 31337, address: chain.contracts.settlementDelegate.toLowerCase(), nonce: 0 });
    expect(quote.txPayload.calls).toHaveLength(4); // approve + deposit per venue

    // A signature by anyone but the user is refused, and leaves the quote usable.
    const signed = await sign(user, quote.txPayload);
    const badSignature = Wallet.createRandom().signingKey.sign(quote.txPayload.executeDigest).serialized;
    const bad = await post('/v1/deposits', { quoteId: quote.quoteId, authorization: signed.authorization, executeSignature: badSignature }).expect(400);
    expect(bad.body.error.code).toBe('VALIDATION_001');
    const malformed = await post('/v1/deposits', { quoteId: quote.quoteId, authorization: signed.authorization, executeSignature: '0x1234' }).expect(400);
    expect(malformed.body.error.code).toBe('VALIDATION_001');

    const accepted = await post('/v1/deposits', { quoteId: quote.quoteId, ...signed }).expect(200);
    expect(accepted.body.data).toMatchObject({ status: 'relaying', kind: 'deposit', chain: 31337, asset: usdc.toLowerCase(), amount: amount.toString(), venueId: 'usdc-balanced' });
    const reused = await post('/v1/deposits', { quoteId: quote.quoteId, ...signed }).expect(404);
    expect(reused.body.error.code).toBe('RESOURCE_001');

    const order = await waitForOrder(accepted.body.data.orderId);
    expect(order).toMatchObject({ status: 'confirmed', relayTxId: accepted.body.data.relayTxId, executionTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await rpc.getTransaction(order.executionTxHash))?.type).toBe(4);
    expect((await rpc.getCode(user.address)).toLowerCase()).toBe(`0xef0100${chain.contracts.settlementDelegate.slice(2).toLowerCase()}`);

    // The delegate's own replay protection: the same signed batch sent again reverts (nonce used).
    const relayed = (await t.http().get('/api/tx').query({ id: order.relayTxId }).expect(200)).body.data;
    const replay = await post('/api/submit-tx', { chainId: 31337, to: user.address, callData: relayed.callData }).expect(500);
    expect(replay.body.error.code).toBe('TRANSACTION_004');
    // The settlement delegate's own error, by name and argument.
    expect(replay.body.error.message).toMatch(/^execution reverted: NonceAlreadyUsed\(nonce=\d+\)$/);

    // 60 / 40 of the deposit, in shares worth exactly that much at deposit time.
    const db = t.app.get(DataSource);
    const positions: Array<{ venue_id: string; shares: string; cost_basis: string }> = await db.query(
      'SELECT venue_id, shares, cost_basis FROM vault_positions WHERE user_address = $1 ORDER BY venue_id',
      [user.address.toLowerCase()],
    );
    expect(positions.map((p) => [p.venue_id, p.cost_basis])).toEqual([
      ['usdc-balanced', ((amount * 6n) / 10n).toString()],
      ['usdc-steady', ((amount * 4n) / 10n).toString()],
    ]);
    const [balancedShares, steadyShares] = await Promise.all([shares('usdc-balanced', user.address), shares('usdc-steady', user.address)]);
    expect(positions.map((p) => BigInt(p.shares))).toEqual([balancedShares, steadyShares]);
    const worth = async (venueId: string, s: bigint): Promise<bigint> => new Contract(vaultOf(venueId), VAULT, rpc).convertToAssets(s);
    const [balancedWorth, steadyWorth] = await Promise.all([worth('usdc-balanced', balancedShares), worth('usdc-steady', steadyShares)]);
    expect(Number(balancedWorth) / Number(balancedWorth + steadyWorth)).toBeCloseTo(0.6, 3);
    expect(await rpc.getBalance(user.address)).toBe(0n);

    // Withdraw max from the larger venue; the EOA is delegated already, so no authorization.
    const assetBefore: bigint = await new Contract(usdc, erc20, rpc).balanceOf(user.address);
    const withdrawal = (await post('/v1/withdrawals', { userAddress: user.address, chain: 31337, vault: vaultOf('usdc-balanced'), shares: 'max' }).expect(200)).body.data;
    expect(withdrawal).toMatchObject({ kind: 'withdraw', shares: balancedShares.toString() });
    expect(withdrawal.txPayload.authorization.nonce).toBe(1); // the 7702 authorization used nonce 0
    const withdrawn = await post('/v1/deposits', { quoteId: withdrawal.quoteId, ...(await sign(user, withdrawal.txPayload, false)) }).expect(200);
    expect(withdrawn.body.data).toMatchObject({ kind: 'withdraw', status: 'relaying', venueId: 'usdc-balanced' });
    expect(await waitForOrder(withdrawn.body.data.orderId)).toMatchObject({ status: 'confirmed' });

    const assetAfter: bigint = await new Contract(usdc, erc20, rpc).balanceOf(user.address);
    // At least what the shares were worth before (yield only adds), and the principal give or take
    // the one unit ERC-4626 rounds in the vault's favour when no second has passed in between.
    expect(assetAfter - assetBefore).toBeGreaterThanOrEqual(balancedWorth);
    expect(assetAfter - assetBefore).toBeGreaterThanOrEqual((amount * 6n) / 10n - 1n);
    expect(await shares('usdc-balanced', user.address)).toBe(0n);
    expect(await rpc.getBalance(user.address)).toBe(0n);
    const [position] = await db.query('SELECT shares, cost_basis FROM vault_positions WHERE user_address = $1 AND venue_id = $2', [user.address.toLowerCase(), 'usdc-balanced']);
    expect(position).toEqual({ shares: '0', cost_basis: '0' });

    const nothingLeft = await post('/v1/withdrawals', { userAddress: user.address, chain: 31337, vault: vaultOf('usdc-balanced') }).expect(400);
    expect(nothingLeft.body.error.code).toBe('TRANSACTION_002');
  });

  it("counts against the account's sponsorship policies with userAddress as end user; a refused deposit leaves the quote usable", async () => {
    const team = await createAccount(t, 200);
    const user = Wallet.createRandom();
    await mint(user.address, 5_000_000n);
    const policies = (body: object) => t.http().post('/api/policies').set('api-key', team.apiKey).send(body).expect(201);
    const deny = (await policies({ name: 'not this user', endUsers: { deny: [user.address] } })).body.data;
    const quote = (await post('/v1/quotes', { userAddress: user.address, chain: 31337, asset: usdc, amount: '5000000' }, team.apiKey).expect(200)).body.data;
    const signed = await sign(user, quote.txPayload);
    const denied = await post('/v1/deposits', { quoteId: quote.quoteId, ...signed }, team.apiKey).expect(403);
    expect(denied.body.error.code).toBe('TRANSACTION_010');
    expect(denied.body.error.message).toMatch(/^end_user_denied:/);
    const db = t.app.get(DataSource);
    expect(await db.query('SELECT 1 FROM relay_transactions WHERE user_id = $1', [team.userId])).toHaveLength(0);

    await t.http().delete(`/api/policies/${deny.id}`).set('api-key', team.apiKey).expect(200);
    const only = (await policies({ name: 'only this user', endUsers: { allow: [user.address] } })).body.data;
    const accepted = await post('/v1/deposits', { quoteId: quote.quoteId, ...signed }, team.apiKey).expect(200);
    const [row] = await db.query('SELECT end_user, policy_id FROM relay_transactions WHERE id = $1', [accepted.body.data.relayTxId]);
    expect(row).toEqual({ end_user: user.address.toLowerCase(), policy_id: only.id });
  });

  it('an expired quote is 404, and an EOA that is not delegated must send the authorization', async () => {
    const user = Wallet.createRandom();
    const quote = (await post('/v1/quotes', { userAddress: user.address, chain: 31337, asset: usdc, amount: '1000000' }).expect(200)).body.data;
    const withoutAuthorization = await post('/v1/deposits', { quoteId: quote.quoteId, ...(await sign(user, quote.txPayload, false)) }).expect(400);
    expect(withoutAuthorization.body.error.code).toBe('VALIDATION_001');
    await t.app.get(DataSource).query(`UPDATE vault_quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [quote.quoteId]);
    const expired = await post('/v1/deposits', { quoteId: quote.quoteId, ...(await sign(user, quote.txPayload)) }).expect(404);
    expect(expired.body.error.code).toBe('RESOURCE_001');
  });

  it('answers bad input with the catalog codes', async () => {
    const unknownOrder = await t.http().get('/v1/orders/7d3f1c2a-0000-4000-8000-000000000000').set('api-key', apiKey).expect(404);
    expect(unknownOrder.body).toMatchObject({ success: false, error: { code: 'RESOURCE_001' } });
    expect((await t.http().get('/v1/orders/not-an-id').set('api-key', apiKey).expect(404)).body.error.code).toBe('RESOURCE_001');
    expect((await post('/v1/quotes', { userAddress: '0x1234', chain: 31337, asset: usdc, amount: '1' }).expect(400)).body.error.code).toBe('USER_003');
    expect((await post('/v1/withdrawals', { userAddress: 'nope', chain: 31337, vault: vaultOf('usdc-steady') }).expect(400)).body.error.code).toBe('USER_003');
    expect((await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: usdc, amount: '1.5' }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await post('/v1/quotes', { userAddress: randomAddress(), chain: 31337, asset: '0xzz', amount: '1' }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await post('/v1/withdrawals', { userAddress: randomAddress(), chain: 31337, vault: randomAddress() }).expect(404)).body.error.code).toBe('RESOURCE_001');
    // Chain 84532 has venues but no SETTLEMENT_DELEGATE_84532 in this app.
    const base = testChain(84532);
    const noDelegate = await post('/v1/quotes', { userAddress: randomAddress(), chain: 84532, asset: token(base, 'USDC'), amount: '1000000' }).expect(500);
    expect(noDelegate.body.error).toMatchObject({ code: 'SYSTEM_002', category: 'SYSTEM' });
    const noDelegateWithdrawal = await post('/v1/withdrawals', { userAddress: randomAddress(), chain: 84532, vault: base.contracts['vault:usdc-steady'] }).expect(500);
    expect(noDelegateWithdrawal.body.error.code).toBe('SYSTEM_002');
    expect((await t.http().post('/v1/quotes').send({}).expect(401)).body.error.code).toBe('AUTH_001');
  });
});
