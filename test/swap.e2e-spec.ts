import { CurrencyAmount, Token } from '@uniswap/sdk-core';
import { Pair, Trade } from '@uniswap/v2-sdk';
import { Contract, HDNodeWallet, Interface, JsonRpcProvider, parseEther, parseUnits, Wallet, ZeroAddress } from 'ethers';
import Redis from 'ioredis';
import { REDIS } from '../src/redis/redis.module';
import { QuoteStore } from '../src/modules/swap/quotes/quote-store.service';
import { quoteKey } from '../src/modules/swap/quotes/quote-store.service';
import { SwapTxBuilder } from '../src/modules/swap/execution/swap-tx-builder.service';
import { PoolIndexer } from '../src/modules/swap/indexer/pool-indexer.service';
import { buildPoolGraph } from '../src/modules/swap/domain/pool-graph';
import { searchPlans } from '../src/modules/swap/routing/route-finder.service';
import { ChainReader } from '../src/modules/swap/indexer/chain-reader';
import { DEPLOYER_PRIVATE_KEY } from '../scripts/devnet/accounts';
import { provider as chainProvider, testChain, token, type TestChain } from './support/chain-fixtures';
import { createAccount, createTestApp, type TestApp } from './support/test-app';

const PAIR_ABI = ['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)'];
const ERC20 = new Interface([
  'function mint(address to, uint256 amount)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
]);

type Route = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('swap routing', () => {
  let t: TestApp;
  let chain: TestChain;
  let rpc: JsonRpcProvider;
  let key: string;
  let integrator: string;
  let trader: HDNodeWallet;
  let deployer: Wallet;

  const sdkToken = (symbol: string): Token => {
    const found = chain.tokens.find((x) => x.symbol === symbol)!;
    return new Token(chain.chainId, found.address, found.decimals, symbol);
  };

  /** Every pool of the devnet as a v2-sdk Pair, with the reserves on chain right now. */
  const sdkPairs = async (): Promise<Pair[]> => {
    const pools = Object.entries(chain.contracts).filter(([name]) => name.startsWith('pool:'));
    return Promise.all(
      pools.map(async ([name, address]) => {
        const [a, b] = name.split(':')[2].split('/');
        const pair = new Contract(address, PAIR_ABI, rpc);
        const [[r0, r1], token0] = (await Promise.all([pair.getReserves(), pair.token0()])) as [[bigint, bigint], string];
        const [t0, t1] = token0.toLowerCase() === token(chain, a).toLowerCase() ? [sdkToken(a), sdkToken(b)] : [sdkToken(b), sdkToken(a)];
        return new Pair(CurrencyAmount.fromRawAmount(t0, r0.toString()), CurrencyAmount.fromRawAmount(t1, r1.toString()));
      }),
    );
  };

  const sdkBest = async (from: string, to: string, amount: bigint): Promise<{ out: bigint; hops: number }> => {
    const [trade] = Trade.bestTradeExactIn(await sdkPairs(), CurrencyAmount.fromRawAmount(sdkToken(from), amount.toString()), sdkToken(to), { maxHops: 3, maxNumResults: 1 });
    return { out: BigInt(trade.outputAmount.quotient.toString()), hops: trade.route.pairs.length };
  };

  const quote = (query: Record<string, string | number>, apiKey = key) => t.http().get('/quote').set('api-key', apiKey).query({ fromChain: 31337, toChain: 31337, sender: trader.address, ...query });
  const legsOf = (route: Route): number => new Set(route.path.filter((s: Route, i: number, all: Route[]) => i === 0 || all[i - 1].toToken !== s.fromToken).map((_: Route, i: number) => i)).size;
  const singleLeg = (route: Route): boolean => route.path.every((s: Route, i: number, all: Route[]) => i === 0 || all[i - 1].toToken === s.fromToken);
  const balance = (symbol: string, who: string): Promise<bigint> => new Contract(token(chain, symbol), ERC20, rpc).balanceOf(who) as Promise<bigint>;

  const send = async (tx: { to: string; data: string; value: string; gasLimit: string }) => {
    const sent = await trader.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gasLimit: BigInt(tx.gasLimit) });
    const receipt = (await sent.wait())!;
    if (process.env.SWAP_GAS_LOG) console.log(`gasUsed ${receipt.gasUsed} of limit ${tx.gasLimit}`);
    return receipt;
  };

  /** Until the pool indexer has applied every block mined so far (quotes read its state). */
  const indexerCaughtUp = async (): Promise<void> => {
    const head = await rpc.getBlockNumber();
    for (let i = 0; i < 200 && (t.app.get(PoolIndexer).peek(31337)?.block ?? -1) < head; i++) await new Promise((r) => setTimeout(r, 25));
    expect(t.app.get(PoolIndexer).peek(31337)?.block).toBeGreaterThanOrEqual(head);
  };

  beforeAll(async () => {
    t = await createTestApp();
    chain = testChain(31337);
    rpc = chainProvider(chain);
    const account = await createAccount(t);
    key = account.apiKey;
    integrator = account.address;
    trader = Wallet.createRandom().connect(rpc);
    deployer = new Wallet(DEPLOYER_PRIVATE_KEY, rpc);
    await rpc.send('anvil_setBalance', [trader.address, '0x' + parseEther('1000').toString(16)]);
    for (const [symbol, amount] of [['DAI', '100000'], ['USDC', '100000']] as const) {
      const tx = await trader.sendTransaction({ to: token(chain, symbol), data: ERC20.encodeFunctionData('mint', [trader.address, parseUnits(amount, symbol === 'USDC' ? 6 : 18)]) });
      await tx.wait();
    }
  });

  afterAll(async () => {
    rpc.destroy();
    await t.close();
  });

  describe('token catalog', () => {
    it('lists the native currency and the configured tokens with their on-chain metadata', async () => {
      const res = await t.http().get('/tokens').set('api-key', key).query({ chain_id: 31337 }).expect(200);
      expect(res.body).toMatchObject({ code: 0, message: 'success' });
      const symbols = res.body.data.map((x: Route) => x.symbol);
      expect(symbols).toEqual(expect.arrayContaining(['ETH', 'WETH', 'USDC', 'DAI', 'WBTC', 'LINK', 'UNI']));
      const usdc = res.body.data.find((x: Route) => x.symbol === 'USDC');
      expect(usdc).toEqual({ address: token(chain, 'USDC'), chainId: 31337, decimals: 6, logoUrl: '', name: 'USD Coin', symbol: 'USDC' });
      expect(res.body.data.find((x: Route) => x.symbol === 'ETH').address).toBe(ZeroAddress);

      const all = await t.http().get('/tokens').set('api-key', key).expect(200);
      expect(new Set(all.body.data.map((x: Route) => x.chainId))).toEqual(new Set([31337, 84532]));
    });

    it('searches by case-insensitive symbol or name substring, or exact address', async () => {
      const bySymbol = await t.http().get('/search-token').set('api-key', key).query({ query: 'usd', chainId: 31337 }).expect(200);
      expect(bySymbol.body.data.map((x: Route) => x.symbol)).toEqual(['USDC']);
      const byName = await t.http().get('/search-token').set('api-key', key).query({ query: 'wrapped', chainId: 31337 }).expect(200);
      expect(byName.body.data.map((x: Route) => x.symbol).sort()).toEqual(['WBTC', 'WETH']);
      // The devnet deploys the same addresses on both chains, so an address matches once per chain.
      const byAddress = await t.http().get('/search-token').set('api-key', key).query({ query: token(chain, 'DAI').toLowerCase() }).expect(200);
      expect(byAddress.body.data.map((x: Route) => [x.symbol, x.chainId])).toEqual([['DAI', 31337], ['DAI', 84532]]);
      const onOne = await t.http().get('/search-token').set('api-key', key).query({ query: token(chain, 'DAI'), chainId: 84532 }).expect(200);
      expect(onOne.body.data).toEqual([expect.objectContaining({ symbol: 'DAI', chainId: 84532 })]);
      const none = await t.http().get('/search-token').set('api-key', key).query({ query: 'nothing-like-this' }).expect(200);
      expect(none.body.data).toEqual([]);
    });
  });

  describe('quotes', () => {
    it.each([
      ['direct', 'WETH', 'USDC', '1', 1],
      ['2-hop', 'DAI', 'WBTC', '5000', 2],
      ['3-hop', 'LINK', 'UNI', '100', 3],
    ])('%s: the best V2 single path pays exactly what @uniswap/v2-sdk computes on the same reserves; no route pays less', async (_, from, to, human, hops) => {
      const decimals = chain.tokens.find((x) => x.symbol === from)!.decimals;
      const amount = parseUnits(human, decimals);
      await indexerCaughtUp();
      const expected = await sdkBest(from, to, amount);
      expect(expected.hops).toBe(hops);
      const res = await quote({ fromToken: token(chain, from), toToken: token(chain, to), amount: amount.toString(), Integrator: 'acme' }).expect(200);
      expect(res.body.code).toBe(0);
      const routes: Route[] = res.body.data;
      expect(routes.length).toBeGreaterThan(0);
      // The SDK knows V2 pairs only: the router's best single path over the V2 pools it indexed pays exactly the SDK's best trade.
      const market = t.app.get(PoolIndexer).peek(31337)!;
      const v2Only = buildPoolGraph([...market.pools.values()].filter((p) => p.kind === 'v2'));
      const v2Plans = searchPlans({ graph: v2Only }, token(chain, from).toLowerCase(), token(chain, to).toLowerCase(), amount);
      const v2Single = v2Plans.filter((p) => p.legs.length === 1).reduce((a, b) => (b.amountOut > a.amountOut ? b : a));
      expect(v2Single.amountOut).toBe(expected.out);
      expect(v2Single.legs[0].path.hops).toHaveLength(hops);
      // Over V2 and V3 pools the best route pays at least that.
      const best = routes[0];
      expect(BigInt(best.amountOut)).toBeGreaterThanOrEqual(expected.out);
      const bestHops = best.path.length;
      expect(best).toMatchObject({
        amount: amount.toString(),
        routeKind: 'sameChainSwap',
        integratorId: 'acme',
        slippage: 0.5,
        sender: trader.address,
        receiver: trader.address,
        fromToken: { address: token(chain, from), chain: 31337, decimals, symbol: from, icon: '' },
        toToken: { address: token(chain, to), symbol: to },
        fees: { integratorFee: '0', routeFee: '0' },
      });
      expect(BigInt(best.minAmountOut)).toBe((BigInt(best.amountOut) * 995_000n) / 1_000_000n);
      expect(best.amountUsd).toBeGreaterThan(0);
      expect(best.amountOutUsd).toBeGreaterThan(0);
      expect(best.gasFee.gasFeeUsd).toBeGreaterThan(0);
      expect(BigInt(best.gasFee.gasFee)).toBe(BigInt(best.gasFee.gasLimit) * BigInt(best.gasFee.gasPrice));
      expect(best.expiry).toBeGreaterThan(Date.now() / 1000);
      expect(best.quoteId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(best.path[0]).toMatchObject({ fromToken: token(chain, from), type: 'swap', provider: { type: 'dex' } });
      // Legs start at the input token (after the previous leg reached the output): their inputs add up to the amount, their outputs to amountOut.
      const starts = best.path.filter((step: Route, i: number) => i === 0 || best.path[i - 1].toToken === token(chain, to));
      const ends = best.path.filter((step: Route) => step.toToken === token(chain, to));
      expect(starts.reduce((sum: bigint, step: Route) => sum + BigInt(step.amount), 0n)).toBe(amount);
      expect(ends.reduce((sum: bigint, step: Route) => sum + BigInt(step.amountOut), 0n)).toBe(BigInt(best.amountOut));
      expect(bestHops).toBeGreaterThanOrEqual(starts.length);
      // max_value: ranked by output net of gas in USD.
      const net = routes.map((r) => r.amountOutUsd - r.gasFee.gasFeeUsd);
      expect([...net].sort((a, b) => b - a)).toEqual(net);
    });

    it('3-hop LINK->UNI crosses both DEX deployments and names both providers', async () => {
      const res = await quote({ fromToken: token(chain, 'LINK'), toToken: token(chain, 'UNI'), amount: parseEther('100').toString() }).expect(200);
      const names = res.body.data[0].providers.map((p: Route) => p.name).sort();
      // LINK pairs only with DAI on sushiswap; WETH->UNI may go through the V2 or the V3 pool.
      expect(names).toEqual(expect.arrayContaining(['sushiswap-v2']));
      expect(names.some((n: string) => n === 'uniswap-v2' || n === 'uniswap-v3')).toBe(true);
    });

    it('splits a large trade across pools when that pays more than any single path', async () => {
      const amount = parseEther('300');
      const single = await sdkBest('WETH', 'USDC', amount);
      const res = await quote({ fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: amount.toString() }).expect(200);
      const split = res.body.data.find((r: Route) => !singleLeg(r));
      expect(split).toBeDefined();
      expect(BigInt(split.amountOut)).toBeGreaterThan(single.out);
      // The winner under max_value is the split: the extra output dwarfs the extra gas here.
      expect(res.body.data[0].quoteId).toBe(split.quoteId);
      // No pool is used twice: each leg starts from the input token with its share.
      const legStarts = split.path.filter((s: Route) => s.fromToken === token(chain, 'WETH'));
      expect(legStarts.length).toBeGreaterThan(1);
      expect(legStarts.reduce((sum: bigint, s: Route) => sum + BigInt(s.amount), 0n)).toBe(amount);
      expect(legsOf(split)).toBeGreaterThan(1);
    });

    it('ranks by fewest hops under fastest; an unknown mode falls back to max_value', async () => {
      // 300 WETH -> USDC: under max_value the split wins (previous test); fastest must prefer one direct pool.
      const query = { fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: parseEther('300').toString() };
      const fastest = await quote({ ...query, routeMode: 'fastest' }).expect(200);
      expect(fastest.body.data[0].path).toHaveLength(1);
      expect(fastest.body.data.some((r: Route) => !singleLeg(r))).toBe(true);
      const unknownMode = await quote({ ...query, routeMode: 'whatever' }).expect(200);
      expect(singleLeg(unknownMode.body.data[0])).toBe(false);
      const net = unknownMode.body.data.map((r: Route) => r.amountOutUsd - r.gasFee.gasFeeUsd);
      expect([...net].sort((a, b) => b - a)).toEqual(net);
    });

    it('returns an empty list for a cross-chain pair and for a token outside the catalog', async () => {
      const cross = await quote({ toChain: 84532, fromToken: token(chain, 'WETH'), toToken: token(testChain(84532), 'USDC'), amount: '1000' }).expect(200);
      expect(cross.body).toEqual({ code: 0, message: 'success', data: [] });
      const unknown = await quote({ fromToken: token(chain, 'WETH'), toToken: Wallet.createRandom().address, amount: '1000' }).expect(200);
      expect(unknown.body.data).toEqual([]);
    });

    it('records acquisitionMode and integrator with the stored quote', async () => {
      const res = await quote({ fromToken: token(chain, 'WETH'), toToken: token(chain, 'DAI'), amount: '1000000000000000', acquisitionMode: 2, Integrator: 'wallet-x' }).expect(200);
      const stored = await t.app.get(QuoteStore).load(res.body.data[0].quoteId);
      expect(stored).toMatchObject({ acquisitionMode: 2, integratorId: 'wallet-x', plan: { chainId: 31337 } });
    });
  });

  describe('execution', () => {
    it('an ERC-20 swap built by build-best-path delivers at least minAmountOut to the receiver and the fee to the integrator', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseEther('1000');
      const res = await t
        .http()
        .get('/build-best-path')
        .set('api-key', key)
        .query({ fromChain: 31337, toChain: 31337, fromToken: token(chain, 'DAI'), toToken: token(chain, 'WBTC'), amount: amount.toString(), sender: trader.address, receiver, feeBps: 25, slippage: 1 })
        .expect(200);
      const { Tx: tx, route } = res.body.data;
      expect(route.fees.integratorFee).toBe(((amount * 25n) / 10_000n).toString());
      expect(tx).toMatchObject({ chain: 31337, to: chain.contracts.swapExecutor, allowanceTarget: chain.contracts.swapExecutor, value: '0', simulation: false, expiry: route.expiry });
      const feeBefore = await balance('DAI', integrator);
      const approve = await trader.sendTransaction({ to: token(chain, 'DAI'), data: ERC20.encodeFunctionData('approve', [tx.allowanceTarget, amount]) });
      await approve.wait();
      const receipt = await send(tx);
      expect(receipt.status).toBe(1);
      // The route's gas figure is a model (domain/gas-model.ts); it must not undershoot a real swap.
      expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(route.gasFee.gasLimit));
      const got = await balance('WBTC', receiver);
      expect(got).toBeGreaterThanOrEqual(BigInt(route.minAmountOut));
      expect(got).toBe(BigInt(route.amountOut));
      expect((await balance('DAI', integrator)) - feeBefore).toBe(BigInt(route.fees.integratorFee));

      const status = await t.http().get('/status').set('api-key', key).query({ txHash: receipt.hash, fromChain: 31337 }).expect(200);
      expect(status.body.data).toMatchObject({
        status: 'completed',
        kind: 'swap',
        routeKind: 'sameChainSwap',
        userAddress: trader.address,
        srcTxDetails: { txHash: receipt.hash, chainId: 31337 },
        destTxDetails: { txHash: receipt.hash, chainId: 31337 },
        details: { quoteId: route.quoteId, receiver, amountOut: got.toString(), feeAmount: route.fees.integratorFee },
      });
      expect(status.body.data.provider.key).toContain('v2');
      expect(typeof status.body.data.updatedAtMs).toBe('number');
    });

    it('a split whose legs share a pool executes leg after leg and delivers exactly the quoted output', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseEther('400000');
      const mint = await trader.sendTransaction({ to: token(chain, 'DAI'), data: ERC20.encodeFunctionData('mint', [trader.address, amount]) });
      await mint.wait();
      await indexerCaughtUp();
      const single = await sdkBest('DAI', 'WBTC', amount);
      const q = await quote({ fromToken: token(chain, 'DAI'), toToken: token(chain, 'WBTC'), amount: amount.toString(), receiver }).expect(200);
      const stores = await Promise.all(q.body.data.map((r: Route) => t.app.get(QuoteStore).load(r.quoteId)));
      // The raw-best split: the candidate with the most output.
      const split = stores.filter((s) => s!.plan.legs.length > 1).reduce((a, b) => (BigInt(b!.plan.amountOut) > BigInt(a!.plan.amountOut) ? b : a))!;
      const pools = split.plan.legs.flatMap((leg: { hops: Array<{ pool: string }> }) => [...new Set(leg.hops.map((h) => h.pool))]);
      expect(new Set(pools).size).toBeLessThan(pools.length);
      expect(BigInt(split.plan.amountOut)).toBeGreaterThan(single.out);
      const built = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: split.quoteId }).expect(200);
      const approve = await trader.sendTransaction({ to: token(chain, 'DAI'), data: ERC20.encodeFunctionData('approve', [built.body.data.allowanceTarget, amount]) });
      await approve.wait();
      const receipt = await send(built.body.data);
      expect(receipt.status).toBe(1);
      expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(split.plan.gasLimit));
      const got = await balance('WBTC', receiver);
      expect(got).toBe(BigInt(split.plan.amountOut));
      expect(got).toBeGreaterThanOrEqual(BigInt(split.plan.minAmountOut));
      // The trade moved prices a lot: later quotes must see it.
      await indexerCaughtUp();
    });

    it('a swap routed through a V3 pool (WETH -> USDC, 0.05% tier) executes and delivers exactly the quoted output', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseEther('2');
      await indexerCaughtUp();
      const q = await quote({ fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: amount.toString(), receiver }).expect(200);
      const best: Route = q.body.data[0];
      expect(best.providers).toEqual([{ name: 'uniswap-v3', type: 'dex' }]);
      const stored = (await t.app.get(QuoteStore).load(best.quoteId))!;
      expect(stored.plan.legs).toHaveLength(1);
      expect(stored.plan.legs[0].hops).toEqual([expect.objectContaining({ kind: 'v3', pool: chain.contracts['v3pool:WETH/USDC:500'].toLowerCase(), feeBps: 0 })]);
      // Better than any V2 route: the V3 pool's fee and concentrated depth.
      expect(BigInt(best.amountOut)).toBeGreaterThan((await sdkBest('WETH', 'USDC', amount)).out);
      const wrap = await trader.sendTransaction({ to: token(chain, 'WETH'), data: new Interface(['function deposit() payable']).encodeFunctionData('deposit'), value: amount });
      await wrap.wait();
      const built = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: best.quoteId }).expect(200);
      const approve = await trader.sendTransaction({ to: token(chain, 'WETH'), data: ERC20.encodeFunctionData('approve', [built.body.data.allowanceTarget, amount]) });
      await approve.wait();
      const receipt = await send(built.body.data);
      expect(receipt.status).toBe(1);
      expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(best.gasFee.gasLimit));
      const got = await balance('USDC', receiver);
      expect(got).toBe(BigInt(best.amountOut));
      expect(got).toBeGreaterThanOrEqual(BigInt(best.minAmountOut));
      const status = await t.http().get('/status').set('api-key', key).query({ txHash: receipt.hash, fromChain: 31337 }).expect(200);
      expect(status.body.data).toMatchObject({ status: 'completed', provider: { key: 'uniswap-v3' } });

      // The indexer follows the pool from its Swap event: price, tick and liquidity as on chain.
      await indexerCaughtUp();
      const pool = new Contract(chain.contracts['v3pool:WETH/USDC:500'], ['function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)', 'function liquidity() view returns (uint128)'], rpc);
      const [[sqrtPriceX96, tick], liquidity] = (await Promise.all([pool.slot0(), pool.liquidity()])) as [[bigint, bigint], bigint];
      const indexed = t.app.get(PoolIndexer).peek(31337)!.pools.get(chain.contracts['v3pool:WETH/USDC:500'].toLowerCase())!;
      expect(indexed).toMatchObject({ kind: 'v3', sqrtPriceX96, tick: Number(tick), liquidity });
    });

    it('a split across V2 and V3 pools executes and delivers exactly the quoted output', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseEther('150');
      await indexerCaughtUp();
      const q = await quote({ fromToken: ZeroAddress, toToken: token(chain, 'USDC'), amount: amount.toString(), receiver }).expect(200);
      const stores = await Promise.all(q.body.data.map((r: Route) => t.app.get(QuoteStore).load(r.quoteId)));
      const split = stores.find((s) => s!.plan.legs.length > 1)!;
      const kinds = new Set(split.plan.legs.flatMap((leg: { hops: Array<{ kind?: string }> }) => leg.hops.map((h) => h.kind)));
      expect(kinds).toEqual(new Set(['v2', 'v3']));
      const built = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: split.quoteId }).expect(200);
      const receipt = await send(built.body.data);
      expect(receipt.status).toBe(1);
      expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(split.plan.gasLimit));
      const got = await balance('USDC', receiver);
      expect(got).toBe(BigInt(split.plan.amountOut));
      expect(got).toBeGreaterThanOrEqual(BigInt(split.plan.minAmountOut));
      await indexerCaughtUp();
    });

    it('the indexer follows V3 positions from Mint and Burn events: the same ticks and liquidity as a fresh read', async () => {
      const helper = new Contract(chain.contracts.uniswapV3LiquidityHelper, ['function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)'], deployer);
      const address = chain.contracts['v3pool:WETH/USDC:500'];
      const weth = new Contract(token(chain, 'WETH'), ['function deposit() payable', 'function transfer(address,uint256) returns (bool)'], deployer);
      await (await weth.deposit({ value: parseEther('50') })).wait();
      await (await weth.transfer(chain.contracts.uniswapV3LiquidityHelper, parseEther('50'))).wait();
      await (await new Contract(token(chain, 'USDC'), ['function mint(address,uint256)'], deployer).mint(chain.contracts.uniswapV3LiquidityHelper, parseUnits('200000', 6))).wait();
      // A new position around the current price (new ticks, active liquidity up) and one below it.
      const indexedBefore = t.app.get(PoolIndexer).peek(31337)!.pools.get(address.toLowerCase()) as { tick: number };
      const at = Math.floor(indexedBefore.tick / 10) * 10;
      await (await helper.mint(address, at - 370, at + 430, 10n ** 15n)).wait();
      await (await helper.mint(address, at - 2000, at - 1000, 10n ** 14n)).wait();
      await indexerCaughtUp();
      const fresh = await new ChainReader(rpc).v3State(address.toLowerCase());
      const indexed = t.app.get(PoolIndexer).peek(31337)!.pools.get(address.toLowerCase());
      expect(indexed).toMatchObject({ kind: 'v3', sqrtPriceX96: fresh.sqrtPriceX96, tick: fresh.tick, liquidity: fresh.liquidity, ticks: fresh.ticks });
      expect(fresh.ticks.map((x) => x.index)).toEqual(expect.arrayContaining([at - 370, at + 430, at - 2000, at - 1000]));
    });

    it('native in: ETH -> USDC through build-path-by-id, no approval needed', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseEther('0.5');
      const q = await quote({ fromToken: ZeroAddress, toToken: token(chain, 'USDC'), amount: amount.toString(), receiver, acquisitionMode: 1 }).expect(200);
      const route = q.body.data[0];
      expect(route.fromToken).toMatchObject({ address: ZeroAddress, symbol: 'ETH', decimals: 18 });
      const built = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: route.quoteId, simulation: true }).expect(200);
      expect(built.body.code).toBe(0);
      const tx = built.body.data;
      expect(tx).toMatchObject({ value: amount.toString(), allowanceTarget: ZeroAddress, simulation: true });
      const receipt = await send(tx);
      expect(receipt.status).toBe(1);
      expect(await balance('USDC', receiver)).toBeGreaterThanOrEqual(BigInt(route.minAmountOut));
    });

    it('native out: USDC -> ETH pays native currency to the receiver', async () => {
      const receiver = Wallet.createRandom().address;
      const amount = parseUnits('1500', 6);
      const res = await t
        .http()
        .get('/build-best-path')
        .set('api-key', key)
        .query({ fromChain: 31337, toChain: 31337, fromToken: token(chain, 'USDC'), toToken: ZeroAddress, amount: amount.toString(), sender: trader.address, receiver })
        .expect(200);
      const { Tx: tx, route } = res.body.data;
      const approve = await trader.sendTransaction({ to: token(chain, 'USDC'), data: ERC20.encodeFunctionData('approve', [tx.allowanceTarget, amount]) });
      await approve.wait();
      const receipt = await send(tx);
      expect(receipt.status).toBe(1);
      const got = await rpc.getBalance(receiver);
      expect(got).toBeGreaterThanOrEqual(BigInt(route.minAmountOut));
      expect(route.toToken.symbol).toBe('ETH');
    });

    it('a swap that cannot meet minAmountOut reverts, and /status reports it failed', async () => {
      const q = await quote({ fromToken: token(chain, 'USDC'), toToken: token(chain, 'DAI'), amount: parseUnits('10', 6).toString() }).expect(200);
      const stored = (await t.app.get(QuoteStore).load(q.body.data[0].quoteId))!;
      const call = t.app.get(SwapTxBuilder).executorCall(stored, { minAmountOut: BigInt(stored.plan.amountOut) * 2n });
      const approve = await trader.sendTransaction({ to: token(chain, 'USDC'), data: ERC20.encodeFunctionData('approve', [call.to, parseUnits('10', 6)]) });
      await approve.wait();
      const sent = await trader.sendTransaction({ to: call.to, data: call.data, gasLimit: 400_000n });
      await expect(sent.wait()).rejects.toMatchObject({ code: 'CALL_EXCEPTION' });
      const status = await t.http().get('/status').set('api-key', key).query({ txHash: sent.hash, fromChain: 31337, userAddress: trader.address }).expect(200);
      expect(status.body.data).toMatchObject({ status: 'failed', userAddress: trader.address, srcTxDetails: { txHash: sent.hash } });
    });

    it('an unknown hash is pending with empty destination details', async () => {
      const hash = '0x' + 'ab'.repeat(32);
      const res = await t.http().get('/status').set('api-key', key).query({ txHash: hash, fromChain: 31337 }).expect(200);
      expect(res.body.data).toMatchObject({ status: 'pending', srcTxDetails: { txHash: hash }, destTxDetails: { txHash: null, timestamp: null } });
    });
  });

  describe('quote lifetime and errors', () => {
    it('build-path-by-id: 404 for unknown, foreign and expired quotes; 400 for a malformed stored quote', async () => {
      const unknown = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: '0x' + '00'.repeat(32) }).expect(404);
      expect(unknown.body).toEqual({ code: 404, data: null, message: expect.any(String) });

      const q = await quote({ fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: '1000000000000000' }).expect(200);
      const other = await createAccount(t);
      await t.http().post('/build-path-by-id').set('api-key', other.apiKey).send({ quoteId: q.body.data[0].quoteId }).expect(404);

      const redis = t.app.get<Redis>(REDIS);
      const store = t.app.get(QuoteStore);
      const stored = (await store.load(q.body.data[0].quoteId))!;
      await redis.set(quoteKey('0xbad'), JSON.stringify({ ...stored, quoteId: '0xbad', plan: { ...stored.plan, tokenIn: '0x1234' } }), 'EX', 60);
      const malformed = await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: '0xbad' }).expect(400);
      expect(malformed.body.code).toBe(400);

      // An expired quote: the stored expiry decides even while the key lingers.
      await redis.set(quoteKey('0xold'), JSON.stringify({ ...stored, quoteId: '0xold', expiry: Math.floor(Date.now() / 1000) - 1 }), 'EX', 60);
      await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: '0xold' }).expect(404);
    });

    it('a quote is gone after SWAP_QUOTE_TTL_SECONDS', async () => {
      const short = await createTestApp({ env: { SWAP_QUOTE_TTL_SECONDS: '1' } });
      try {
        const account = await createAccount(short);
        const q = await short
          .http()
          .get('/quote')
          .set('api-key', account.apiKey)
          .query({ fromChain: 31337, toChain: 31337, fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: '1000000000000000', sender: trader.address })
          .expect(200);
        const route = q.body.data[0];
        expect(route.expiry - Date.now() / 1000).toBeLessThanOrEqual(1);
        await short.http().post('/build-path-by-id').set('api-key', account.apiKey).send({ quoteId: route.quoteId }).expect(200);
        await new Promise((r) => setTimeout(r, 2100));
        const gone = await short.http().post('/build-path-by-id').set('api-key', account.apiKey).send({ quoteId: route.quoteId }).expect(404);
        expect(gone.body).toMatchObject({ code: 404, data: null });
      } finally {
        await short.close();
      }
    });

    it('missing api-key is 401 in the code envelope on every swap endpoint', async () => {
      for (const [method, path] of [['get', '/quote'], ['get', '/build-best-path'], ['post', '/build-path-by-id'], ['get', '/tokens'], ['get', '/search-token'], ['get', '/status']] as const) {
        const res = await t.http()[method](path).expect(401);
        expect(res.body).toEqual({ code: 401, data: null, message: 'missing api-key header' });
      }
      await t.http().get('/tokens').set('api-key', 'rk_nope').expect(401);
    });

    const good = () => ({ fromChain: 31337, toChain: 31337, fromToken: token(chain, 'WETH'), toToken: token(chain, 'USDC'), amount: '1000', sender: Wallet.createRandom().address });
    it.each([
      ['amount with decimals', { amount: '1.5' }],
      ['amount in hex', { amount: '0x10' }],
      ['negative amount', { amount: '-1' }],
      ['zero amount', { amount: '0' }],
      ['amount beyond uint256', { amount: (2n ** 256n).toString() }],
      ['amount not a number', { amount: 'abc' }],
      ['bad fromToken', { fromToken: '0x1234' }],
      ['bad toToken', { toToken: 'usdc' }],
      ['bad sender', { sender: 'me' }],
      ['bad receiver', { receiver: '0xZZ' }],
      ['unsupported chain', { fromChain: 999, toChain: 999 }],
      ['chain not a number', { fromChain: 'one' }],
      ['same token', { toToken: '' }],
      ['fee too high', { feeBps: 5000 }],
      ['negative slippage', { slippage: -1 }],
      ['unknown acquisitionMode', { acquisitionMode: 7 }],
    ])('GET /quote and /build-best-path: 400 for %s', async (_, override) => {
      const query: Record<string, unknown> = { ...good(), ...override };
      if ((override as Record<string, unknown>).toToken === '') query.toToken = query.fromToken;
      for (const path of ['/quote', '/build-best-path']) {
        const res = await t.http().get(path).set('api-key', key).query(query).expect(400);
        expect(res.body).toEqual({ code: 400, data: null, message: expect.any(String) });
      }
    });

    it('build-best-path is 400 when there is no route; other endpoints reject bad input with 400', async () => {
      await t.http().get('/build-best-path').set('api-key', key).query({ ...good(), toChain: 84532 }).expect(400);
      await t.http().get('/tokens').set('api-key', key).query({ chain_id: 'x' }).expect(400);
      await t.http().get('/tokens').set('api-key', key).query({ chain_id: 999 }).expect(400);
      await t.http().get('/search-token').set('api-key', key).expect(400);
      await t.http().get('/search-token').set('api-key', key).query({ query: 'usd', chainId: 999 }).expect(400);
      await t.http().get('/status').set('api-key', key).query({ txHash: '0x12', fromChain: 31337 }).expect(400);
      await t.http().get('/status').set('api-key', key).query({ txHash: '0x' + 'ab'.repeat(32), fromChain: 999 }).expect(400);
      await t.http().post('/build-path-by-id').set('api-key', key).send({}).expect(400);
      await t.http().post('/build-path-by-id').set('api-key', key).send({ quoteId: 'x', simulation: 'yes' }).expect(400);
    });
  });
});
