import { BaseWallet, Contract, HDNodeWallet, JsonRpcProvider, MaxUint256, Mnemonic, parseEther, parseUnits, Wallet } from 'ethers';
import { DEV_RELAYER_MNEMONIC } from '../scripts/local-stack/dev-keys';
import { signingTypes } from '../src/modules/gasless/domain/permit-typed-data';
import { encodeSettlement, GASLESS_SETTLER_ABI, settlementNonceWord, type Settlement } from '../src/modules/gasless/domain/settlement-call';
import { SWAP_EXECUTOR_ABI } from '../src/modules/swap/execution/executor-abi';
import { provider as chainProvider, erc20, testChain, token, type TestChain } from './support/chain-fixtures';
import { createAccount, createTestApp, type TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Mode = 2 | 3;

/**
 * The settler on chain, called directly (not through the relay): whatever a copied signature is
 * put into, only the settlement the user signed can run, and it needs no privileged caller.
 */
describe('gasless settler: what the user signs is all that can happen (on chain)', () => {
  let t: TestApp;
  let chain: TestChain;
  let rpc: JsonRpcProvider;
  let key: string;

  /** A key of the relay's own pool, as allowed on the settler before (region 0, key 7: not used by the test app). */
  const relayerKey = (): HDNodeWallet => HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_RELAYER_MNEMONIC), "m/44'/60'/0'/0/7").connect(rpc);
  const balanceOf = (symbol: string, who: string): Promise<bigint> => new Contract(token(chain, symbol), erc20, rpc).balanceOf(who) as Promise<bigint>;
  const fundEth = (who: string) => rpc.send('anvil_setBalance', [who, '0x' + parseEther('1').toString(16)]);
  const anyone = async (): Promise<BaseWallet> => {
    const w = Wallet.createRandom().connect(rpc);
    await fundEth(w.address);
    return w;
  };

  const newUser = async (approve: boolean): Promise<BaseWallet> => {
    const user = Wallet.createRandom().connect(rpc);
    const minter = await anyone();
    await (await minter.sendTransaction({ to: token(chain, 'USDC'), data: erc20.encodeFunctionData('mint', [user.address, parseUnits('10000', 6)]) })).wait();
    if (approve) await approvePermit2(user);
    return user;
  };
  const approvePermit2 = async (user: BaseWallet): Promise<void> => {
    await fundEth(user.address);
    await (await user.sendTransaction({ to: token(chain, 'USDC'), data: erc20.encodeFunctionData('approve', [chain.contracts.permit2, MaxUint256]) })).wait();
    await rpc.send('anvil_setBalance', [user.address, '0x0']);
  };

  /** A gasless quote of the service for `user`, signed by `user`; the settlement as the quote planned it. */
  const signedQuote = async (user: BaseWallet, mode: Mode, extra: Json = {}): Promise<{ q: Json; settlement: Settlement; signature: string }> => {
    const res = await t
      .http()
      .get('/gasless/quote')
      .set('api-key', key)
      .query({ fromChain: 31337, toChain: 31337, sender: user.address, acquisitionMode: mode, fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('500', 6).toString(), slippage: 1, ...extra })
      .expect(200);
    const q = res.body.data[0] as Json;
    const signature = await user.signTypedData(q.eip712.domain, signingTypes(q.eip712), q.eip712.message);
    const [s] = GASLESS_SETTLER_ABI.decodeFunctionData(mode === 2 ? 'settle' : 'settleWithWitness', q.calldataTemplate.innerData);
    const settlement: Settlement = {
      owner: s.owner,
      tokenIn: s.tokenIn,
      amountIn: s.amountIn,
      nonce: s.nonce,
      deadline: s.deadline,
      tokenOut: s.tokenOut,
      minAmountOut: s.minAmountOut,
      receiver: s.receiver,
      feeAmount: s.feeAmount,
      executorData: s.executorData,
    };
    return { q, settlement, signature };
  };

  /** Sends the settlement as a plain transaction (fixed gas, so a revert lands on chain); true when it succeeded. */
  const settleOnChain = async (from: BaseWallet, mode: Mode, s: Settlement, signature: string): Promise<boolean> => {
    const tx = await from.sendTransaction({ to: chain.contracts.gaslessSettler, data: encodeSettlement(mode, s, signature), gasLimit: 3_000_000n });
    const receipt = await rpc.waitForTransaction(tx.hash);
    return receipt!.status === 1;
  };

  /** The executor call of `s` with its receiver, minimum and integrator-fee slice replaced (another route to another payee). */
  const reroute = (s: Settlement, change: { receiver?: string; minAmountOut?: bigint; skim?: { amount: bigint; to: string } }): string => {
    const [p] = SWAP_EXECUTOR_ABI.decodeFunctionData('swap', s.executorData);
    const skim = change.skim?.amount ?? 0n;
    const legs = p.legs.map((leg: Json, i: number) => ({
      amountIn: i === 0 ? leg.amountIn - skim : leg.amountIn,
      hops: leg.hops.map((h: Json) => ({ pool: h.pool, zeroForOne: h.zeroForOne, feeBps: h.feeBps, kind: h.kind })),
    }));
    return SWAP_EXECUTOR_ABI.encodeFunctionData('swap', [
      {
        tokenIn: p.tokenIn,
        tokenOut: p.tokenOut,
        amountIn: p.amountIn,
        minAmountOut: change.minAmountOut ?? p.minAmountOut,
        receiver: change.receiver ?? p.receiver,
        feeAmount: p.feeAmount + skim,
        feeRecipient: change.skim ? change.skim.to : p.feeRecipient,
        deadline: p.deadline,
        ref: p.ref,
        legs,
      },
    ]);
  };

  beforeAll(async () => {
    t = await createTestApp();
    chain = testChain(31337);
    rpc = chainProvider(chain);
    key = (await createAccount(t, 100)).apiKey;
  });

  afterAll(async () => {
    rpc.destroy();
    await t.close();
  });

  it('(a) a copied mode-3 signature with another route (executorData skimming the slippage) is refused on chain from any account', async () => {
    const user = await newUser(true);
    const { settlement, signature } = await signedQuote(user, 3);
    const attacker = await anyone();
    // Same outcome fields (tokenOut, minAmountOut, receiver, feeAmount) as signed; only the route differs:
    // 0.3 % of the swapped input goes to the attacker as an executor "fee", within the 1 % slippage.
    const skimmed = (settlement.amountIn - settlement.feeAmount) * 3n / 1000n;
    const stolen = { ...settlement, executorData: reroute(settlement, { skim: { amount: skimmed, to: attacker.address } }) };
    const usdcBefore = await balanceOf('USDC', user.address);

    expect(await settleOnChain(attacker, 3, stolen, signature)).toBe(false);
    expect(await balanceOf('USDC', attacker.address)).toBe(0n);
    expect(await balanceOf('USDC', user.address)).toBe(usdcBefore);
  });

  it('(b) a copied mode-2 signature with another receiver and route is refused on chain, even from a relayer key', async () => {
    const user = await newUser(true);
    const { settlement, signature } = await signedQuote(user, 2);
    const relayer = relayerKey();
    await fundEth(relayer.address);
    const stolen = { ...settlement, receiver: relayer.address, minAmountOut: 0n, executorData: reroute(settlement, { receiver: relayer.address, minAmountOut: 0n }) };
    const usdcBefore = await balanceOf('USDC', user.address);

    expect(await settleOnChain(relayer, 2, stolen, signature)).toBe(false);
    expect(await balanceOf('DAI', relayer.address)).toBe(0n);
    expect(await balanceOf('USDC', user.address)).toBe(usdcBefore);
  });

  it('(c) the exact signed settlement, in either mode, runs from an account the settler has never heard of', async () => {
    for (const mode of [2, 3] as const) {
      const user = await newUser(true);
      const { q, settlement, signature } = await signedQuote(user, mode);
      const stranger = await anyone();
      const usdcBefore = await balanceOf('USDC', user.address);
      const feeBefore = await balanceOf('USDC', q.fee.feeRecipient);

      expect(await settleOnChain(stranger, mode, settlement, signature)).toBe(true);
      expect(await balanceOf('USDC', user.address)).toBe(usdcBefore - settlement.amountIn);
      expect(await balanceOf('DAI', user.address)).toBeGreaterThanOrEqual(settlement.minAmountOut);
      expect((await balanceOf('USDC', q.fee.feeRecipient)) - feeBefore).toBe(settlement.feeAmount);
      expect(await balanceOf('DAI', stranger.address)).toBe(0n);
      // Run once: the permit's nonce is spent.
      expect(await settleOnChain(stranger, mode, settlement, signature)).toBe(false);
    }
  });

  it('(d) after a reverted settlement the permit runs no other settlement, and the signed one can still be retried', async () => {
    // No Permit2 approval yet: the first settlement reverts on chain with its calldata (and signature) public.
    const user = await newUser(false);
    const { settlement, signature } = await signedQuote(user, 2);
    expect(await settleOnChain(await anyone(), 2, settlement, signature)).toBe(false);

    await approvePermit2(user);
    const relayer = relayerKey();
    await fundEth(relayer.address);
    const daiBefore = await balanceOf('DAI', relayer.address);
    const other = { ...settlement, receiver: relayer.address, minAmountOut: 0n, executorData: reroute(settlement, { receiver: relayer.address, minAmountOut: 0n }) };
    expect(await settleOnChain(relayer, 2, other, signature)).toBe(false);
    expect(await balanceOf('DAI', relayer.address)).toBe(daiBefore);

    const usdcBefore = await balanceOf('USDC', user.address);
    expect(await settleOnChain(await anyone(), 2, settlement, signature)).toBe(true);
    expect(await balanceOf('USDC', user.address)).toBe(usdcBefore - settlement.amountIn);
    expect(await balanceOf('DAI', user.address)).toBeGreaterThanOrEqual(settlement.minAmountOut);
  });

  it('the quote nonce carries the settlement commitment the settler computes; two quotes of one swap get two nonces and both settle', async () => {
    const user = await newUser(true);
    const settler = new Contract(chain.contracts.gaslessSettler, GASLESS_SETTLER_ABI, rpc);
    const first = await signedQuote(user, 3);
    const second = await signedQuote(user, 3);
    for (const { settlement } of [first, second]) {
      expect(settlement.nonce >> 8n).toBe(await settler.nonceWord(settlement));
      expect(settlement.nonce >> 8n).toBe(settlementNonceWord(chain.contracts.gaslessSettler, chain.contracts.swapExecutor, settlement));
    }
    expect(second.settlement.nonce).not.toBe(first.settlement.nonce);
    const usdcBefore = await balanceOf('USDC', user.address);
    for (const { q, signature } of [first, second]) {
      const sub = await t.http().post('/gasless/submit-swap').set('api-key', key).send({ quoteId: q.quoteId, signature }).expect(200);
      expect(sub.body.data.status).toBe('submitted');
    }
    const deadline = Date.now() + 30_000;
    while ((await balanceOf('USDC', user.address)) !== usdcBefore - first.settlement.amountIn - second.settlement.amountIn && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await balanceOf('USDC', user.address)).toBe(usdcBefore - first.settlement.amountIn - second.settlement.amountIn);
  });
});
