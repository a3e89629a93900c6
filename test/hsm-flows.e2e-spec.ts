import { BaseWallet, Contract, JsonRpcProvider, MaxUint256, parseEther, parseUnits, TypedDataEncoder, Wallet } from 'ethers';
import { signingTypes } from '../src/modules/gasless/domain/permit-typed-data';
import { erc20, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { softHsm, tokenTreasury } from './support/softhsm';
import { createAccount, createTestApp, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const REGION = 'hsmflows';
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

/**
 * The service's own flows with every relayer key in a SoftHSM2 token: a gasless swap (the
 * GaslessSettler takes any caller, no relayer list) and a vault deposit (a type-4 transaction
 * carrying the user's EIP-7702 authorization, signed by the token key).
 */
describe('gasless swap and vault deposit signed by token keys', () => {
  const chain = testChain(31337);
  const rpc: JsonRpcProvider = provider(chain);
  let keys: string[];
  let t: TestApp;
  let apiKey: string;
  let funder: BaseWallet;
  const balanceOf = (symbol: string, who: string): Promise<bigint> => new Contract(token(chain, symbol), erc20, rpc).balanceOf(who) as Promise<bigint>;
  const mint = async (symbol: string, to: string, amount: bigint) => (await funder.sendTransaction({ to: token(chain, symbol), data: erc20.encodeFunctionData('mint', [to, amount]) })).wait();

  beforeAll(async () => {
    const hsm = softHsm();
    keys = [hsm.generate(`relayer-${REGION}-0`).address, hsm.generate(`relayer-${REGION}-1`).address];
    const treasury = tokenTreasury(hsm);
    for (const a of [...keys, treasury]) await rpc.send('anvil_setBalance', [a, '0x' + parseEther('10').toString(16)]);
    funder = Wallet.createRandom().connect(rpc);
    await rpc.send('anvil_setBalance', [funder.address, '0x' + parseEther('10').toString(16)]);
    t = await createTestApp({
      env: { ...hsm.env, RELAY_REGIONS: REGION, RELAY_DEFAULT_REGION: REGION, SETTLEMENT_DELEGATE_31337: chain.contracts.settlementDelegate, VAULT_SAMPLE_INTERVAL_MS: '300', VAULT_APY_MIN_SPAN_SECONDS: '3' },
    });
    ({ apiKey } = await createAccount(t, 200));
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rpc.destroy();
  });

  it('gasless swap: the settlement is sent by a token key, the user gets at least minAmountOut and pays no ETH', async () => {
    const user = Wallet.createRandom().connect(rpc);
    await mint('USDC', user.address, parseUnits('5000', 6));
    await rpc.send('anvil_setBalance', [user.address, '0x' + parseEther('1').toString(16)]);
    await (await user.sendTransaction({ to: token(chain, 'USDC'), data: erc20.encodeFunctionData('approve', [chain.contracts.permit2, MaxUint256]) })).wait();
    await rpc.send('anvil_setBalance', [user.address, '0x0']);

    const amount = parseUnits('1000', 6);
    const res = await t
      .http()
      .get('/gasless/quote')
      .set('api-key', apiKey)
      .query({ fromChain: 31337, toChain: 31337, sender: user.address, acquisitionMode: 2, fromToken: token(chain, 'USDC'), toToken: token(chain, 'WETH'), amount: amount.toString() })
      .expect(200);
    const q = res.body.data[0] as Json;
    const signature = await user.signTypedData(q.eip712.domain, signingTypes(q.eip712), q.eip712.message);
    const sub = await t.http().post('/gasless/submit-swap').set('api-key', apiKey).send({ quoteId: q.quoteId, signature }).expect(200);
    let swap: Json = {};
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      swap = (await t.http().get('/gasless/status').set('api-key', apiKey).query({ id: sub.body.data.swapId }).expect(200)).body.data;
      if (swap.status === 'executed' || swap.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(swap.status).toBe('executed');
    const sent = (await rpc.getTransaction(swap.executionTxHash))!;
    expect(keys).toContain(sent.from);
    expect(sent.to).toBe(chain.contracts.gaslessSettler);
    expect(await balanceOf('WETH', user.address)).toBeGreaterThanOrEqual(BigInt(q.quote.minAmountOut));
    expect(await rpc.getBalance(user.address)).toBe(0n);
  });

  it('vault deposit: the type-4 settlement carrying the user’s authorization is sent by a token key', async () => {
    // Venues get an APY once their share prices are sampled at distinct blocks.
    const until = Date.now() + 40_000;
    for (;;) {
      await rpc.send('evm_mine', []);
      const res = await t.http().post('/v1/quotes').set('api-key', apiKey).send({ userAddress: randomAddress(), chain: 31337, asset: token(chain, 'USDC'), amount: '1000000', riskTier: 'aggressive' });
      if (res.status === 200) break;
      if (Date.now() > until) throw new Error(`venues never got an APY: ${JSON.stringify(res.body)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const user = Wallet.createRandom().connect(rpc);
    const amount = 500n * 10n ** 6n;
    await mint('USDC', user.address, amount);
    const quote = (await t.http().post('/v1/quotes').set('api-key', apiKey).send({ userAddress: user.address, chain: 31337, asset: token(chain, 'USDC'), amount: amount.toString(), riskTier: 'balanced' }).expect(200)).body.data;
    const p = quote.txPayload;
    const digest = TypedDataEncoder.hash({ name: 'SettlementDelegate', version: '1', chainId: 31337, verifyingContract: user.address }, EXECUTE_TYPES, { calls: p.calls, nonce: p.executeNonce, deadline: p.deadline });
    expect(digest).toBe(p.executeDigest);
    const auth = await user.authorize({ address: p.authorization.address, nonce: BigInt(p.authorization.nonce), chainId: BigInt(p.authorization.chainId) });
    const accepted = await t
      .http()
      .post('/v1/deposits')
      .set('api-key', apiKey)
      .send({ quoteId: quote.quoteId, executeSignature: user.signingKey.sign(digest).serialized, authorization: { ...p.authorization, yParity: `0x${auth.signature.yParity}`, r: auth.signature.r, s: auth.signature.s } })
      .expect(200);
    let order: Json = {};
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      order = (await t.http().get(`/v1/orders/${accepted.body.data.orderId}`).set('api-key', apiKey).expect(200)).body.data;
      if (order.status !== 'relaying') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(order.status).toBe('confirmed');
    const sent = (await rpc.getTransaction(order.executionTxHash))!;
    expect(sent.type).toBe(4);
    expect(keys).toContain(sent.from);
    expect((await rpc.getCode(user.address)).toLowerCase()).toBe(`0xef0100${chain.contracts.settlementDelegate.slice(2).toLowerCase()}`);
    expect(await balanceOf('USDC', user.address)).toBe(0n);
  }, 90_000);
});
