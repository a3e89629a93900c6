import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { QUEUES } from '../src/queue/queue-names';
import { BaseWallet, Contract, Interface, JsonRpcProvider, Log, MaxUint256, parseEther, parseUnits, TransactionReceipt, Wallet } from 'ethers';
import { DEPLOYER_PRIVATE_KEY } from '../scripts/devnet/accounts';
import { BridgeFiller, bridgeFillerWallet, SPOKE_ABI } from '../src/modules/bridge';
import { FillerSigner } from '../src/modules/bridge/domain/spoke';
import { DEV_AUTH_MNEMONIC } from '../scripts/local-stack/dev-keys';
import { erc20, provider as chainProvider, testChain, token, type TestChain } from './support/chain-fixtures';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';
import { WebhookReceiver } from './support/webhook-receiver';
import { adminAuth, createAccount, createTestApp, type TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The spoke's errors, to name what the chain refused. */
const SPOKE_ERRORS = new Interface([
  'error NotFiller()',
  'error AlreadyFilled()',
  'error FillDeadlinePassed()',
  'error NotOpen()',
  'error DeadlineNotPassed()',
  'error InsufficientLiquidity(uint256 available, uint256 wanted)',
  'error OwnableUnauthorizedAccount(address account)',
]);
const WETH = new Interface(['function deposit() payable', 'function approve(address,uint256) returns (bool)']);

/**
 * This spec runs the filler's schedule an hour apart (it drives the passes itself). The schedule
 * lives in the shared Redis: drop it after, so the next app's schedule starts afresh (an upsert
 * keeps the next run already planned an hour out).
 */
async function dropSchedule(t: TestApp | undefined): Promise<void> {
  await t?.app.get<Queue>(getQueueToken(QUEUES.bridge)).removeJobScheduler('bridge-fill').catch(() => undefined);
}

/** Source confirmations in this spec's chains file: a deposit is filled only this deep. */
const SRC_CONFIRMATIONS = 2;
const BRIDGE_ACCOUNT = Wallet.createRandom().address;

/**
 * Cross-chain swaps on the two local chains (extensions.md, "Cross-chain swaps"; issue 30). The
 * app runs with the filler's schedule far apart, and the spec drives the filler's passes itself,
 * so every tracking state is seen in order.
 */
describe('cross-chain swaps through the bridge spokes', () => {
  let t: TestApp;
  let src: TestChain;
  let dest: TestChain;
  let srcRpc: JsonRpcProvider;
  let destRpc: JsonRpcProvider;
  let apiKey: string;
  let filler: BridgeFiller;
  const chainsFile = join(TEST_STATE_DIR, 'bridge-chains.json');

  const env = (): Record<string, string> => ({ CHAINS_FILE: chainsFile, BRIDGE_ACCOUNT, BRIDGE_WATCH_INTERVAL_MS: '3600000', BRIDGE_LOW_INVENTORY_UNITS: '1000' });
  const fundEth = (rpc: JsonRpcProvider, who: string) => rpc.send('anvil_setBalance', [who, '0x' + parseEther('10').toString(16)]);
  const balanceOf = (chain: TestChain, symbol: string, who: string): Promise<bigint> => new Contract(token(chain, symbol), erc20, chainProvider(chain)).balanceOf(who) as Promise<bigint>;
  const mine = (rpc: JsonRpcProvider, n: number) => rpc.send('anvil_mine', ['0x' + n.toString(16)]);
  /** Both chains' latest block time, in seconds. */
  const chainTime = async (): Promise<number> => Math.max(...(await Promise.all([srcRpc, destRpc].map(async (rpc) => (await rpc.getBlock('latest'))!.timestamp))));
  /**
   * Waits (in real time, one block a second on both chains) until both chains' blocks are past
   * `deadline`. Chain time is never moved ahead of the clock: later specs share these chains.
   */
  const blocksPast = async (deadline: number): Promise<void> => {
    for (;;) {
      const times = await Promise.all([srcRpc, destRpc].map(async (rpc) => (await rpc.getBlock('latest'))!.timestamp));
      if (times.every((x) => x > deadline)) return;
      await new Promise((r) => setTimeout(r, 1000));
      await Promise.all([srcRpc, destRpc].map((rpc) => rpc.send('evm_mine', [])));
    }
  };

  const newUser = async (usdc: bigint): Promise<BaseWallet> => {
    const user = Wallet.createRandom().connect(srcRpc);
    await fundEth(srcRpc, user.address);
    if (usdc > 0n) await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('mint', [user.address, usdc]) })).wait();
    return user;
  };

  const status = async (txHash: string): Promise<Json> => {
    const res = await t.http().get('/status').set('api-key', apiKey).query({ txHash, fromChain: src.chainId }).expect(200);
    return res.body.data as Json;
  };

  /** Runs filler passes until `done` (mining source blocks in between), at most `max`. */
  const passUntil = async (done: () => Promise<boolean>, max = 40): Promise<void> => {
    for (let i = 0; i < max; i++) {
      await filler.passAll();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error('filler passes did not get there');
  };

  /** Sends the `Tx` of /build-best-path from `user` (approving its allowance target first). */
  const sendBuilt = async (user: BaseWallet, fromToken: string, built: Json): Promise<string> => {
    if (built.Tx.allowanceTarget !== '0x0000000000000000000000000000000000000000') {
      await (await user.sendTransaction({ to: fromToken, data: erc20.encodeFunctionData('approve', [built.Tx.allowanceTarget, MaxUint256]) })).wait();
    }
    const sent = await user.sendTransaction({ to: built.Tx.to, data: built.Tx.data, value: BigInt(built.Tx.value), gasLimit: BigInt(built.Tx.gasLimit) });
    const receipt = await sent.wait();
    expect(receipt?.status).toBe(1);
    return sent.hash;
  };

  /** Follows a deposit through every state with passes; returns the states seen in order. */
  const track = async (txHash: string): Promise<string[]> => {
    const seen: string[] = [(await status(txHash)).status];
    await filler.passAll();
    seen.push((await status(txHash)).status);
    await mine(srcRpc, SRC_CONFIRMATIONS);
    await filler.passAll();
    seen.push((await status(txHash)).status);
    await passUntil(async () => (await status(txHash)).status === 'completed');
    seen.push('completed');
    return seen.filter((s, i) => i === 0 || s !== seen[i - 1]);
  };

  beforeAll(async () => {
    src = testChain(31337);
    dest = testChain(84532);
    srcRpc = chainProvider(src);
    destRpc = chainProvider(dest);
    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8')) as { chains: Json[] };
    for (const chain of file.chains) if (chain.chainId === 31337) chain.confirmations = SRC_CONFIRMATIONS;
    mkdirSync(TEST_STATE_DIR, { recursive: true });
    writeFileSync(chainsFile, JSON.stringify(file, null, 2));
    t = await createTestApp({ env: env() });
    filler = t.app.get(BridgeFiller);
    await t.http().post('/admin/accounts').set(adminAuth).send({ address: BRIDGE_ACCOUNT, creditUsd: 1000 }).expect(201);
    ({ apiKey } = await createAccount(t, 100));
  }, 120_000);

  afterAll(async () => {
    await dropSchedule(t);
    await t?.close();
  });

  it('USDC 31337 → USDC 84532: a "bridge" route, pending → src_confirmed → completed, the recipient paid at least minAmountOut, the filler repaid', async () => {
    const amount = parseUnits('250', 6);
    const user = await newUser(amount);
    const recipient = Wallet.createRandom().address;
    const res = await t
      .http()
      .get('/build-best-path')
      .set('api-key', apiKey)
      .query({ fromChain: 31337, toChain: 84532, fromToken: token(src, 'USDC'), toToken: token(dest, 'USDC'), amount: amount.toString(), sender: user.address, receiver: recipient, allowMultiBridge: 'true' })
      .expect(200);
    const built = res.body.data as Json;
    expect(built.route.routeKind).toBe('bridge');
    expect(built.route.path.map((s: Json) => s.type)).toEqual(['bridge']);
    expect(built.route.path[0].provider.type).toBe('bridge');
    expect(BigInt(built.route.fees.routeFee)).toBeGreaterThan(0n);
    expect(built.route.estimatedTimeMs).toBeGreaterThan(0);
    expect(built.Tx.chain).toBe(31337);
    expect(built.Tx.to.toLowerCase()).toBe(src.contracts.bridgeSpoke.toLowerCase());
    const minAmountOut = BigInt(built.route.minAmountOut);

    const srcSpokeBefore = await balanceOf(src, 'USDC', src.contracts.bridgeSpoke);
    const txHash = await sendBuilt(user, token(src, 'USDC'), built);
    const states = await track(txHash);
    expect(states).toEqual(['pending', 'src_confirmed', 'completed']);

    const done = await status(txHash);
    expect(done.kind).toBe('bridge');
    expect(done.routeKind).toBe('crossChainSwap');
    expect(done.destTxDetails.chainId).toBe(84532);
    expect(done.destTxDetails.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const fill = await destRpc.getTransactionReceipt(done.destTxDetails.txHash);
    expect(fill?.status).toBe(1);
    expect(await balanceOf(dest, 'USDC', recipient)).toBeGreaterThanOrEqual(minAmountOut);
    expect(await balanceOf(dest, 'USDC', recipient)).toBe(BigInt(done.details.fillAmount));

    // Repayment: the escrow becomes the source spoke's liquidity.
    await passUntil(async () => {
      const escrow = await new Contract(src.contracts.bridgeSpoke, SPOKE_ABI, srcRpc).escrows(done.details.depositId);
      return BigInt(escrow.state) === 2n;
    });
    expect(await balanceOf(src, 'USDC', src.contracts.bridgeSpoke)).toBe(srcSpokeBefore + amount);
  }, 120_000);

  it('WETH 31337 → USDC 84532: a "crossChainSwap" route (source swap, bridge), through every state, the recipient paid at least minAmountOut', async () => {
    const user = await newUser(0n);
    const weth = src.contracts.weth;
    const amount = parseEther('0.2');
    await (await user.sendTransaction({ to: weth, data: WETH.encodeFunctionData('deposit'), value: amount })).wait();
    const recipient = Wallet.createRandom().address;
    const res = await t
      .http()
      .get('/build-best-path')
      .set('api-key', apiKey)
      .query({ fromChain: 31337, toChain: 84532, fromToken: weth, toToken: token(dest, 'USDC'), amount: amount.toString(), sender: user.address, receiver: recipient, slippage: 1 })
      .expect(200);
    const built = res.body.data as Json;
    expect(built.route.routeKind).toBe('crossChainSwap');
    const kinds = built.route.path.map((s: Json) => s.type);
    expect(kinds[0]).toBe('swap');
    expect(kinds[kinds.length - 1]).toBe('bridge');
    const minAmountOut = BigInt(built.route.minAmountOut);

    const txHash = await sendBuilt(user, weth, built);
    expect(await track(txHash)).toEqual(['pending', 'src_confirmed', 'completed']);
    expect(await balanceOf(dest, 'USDC', recipient)).toBeGreaterThanOrEqual(minAmountOut);
  }, 120_000);

  it('GET /quote answers routes for a cross-chain pair (no longer an empty list)', async () => {
    const res = await t
      .http()
      .get('/quote')
      .set('api-key', apiKey)
      .query({ fromChain: 31337, toChain: 84532, fromToken: token(src, 'USDC'), toToken: token(dest, 'USDC'), amount: parseUnits('10', 6).toString(), sender: Wallet.createRandom().address })
      .expect(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].routeKind).toBe('bridge');
  });

  it('a deposit the inventory cannot pay waits (no fill), then is refunded to its depositor after its fill deadline: status failed with details.refundTxHash', async () => {
    const liquidity = BigInt(await new Contract(dest.contracts.bridgeSpoke, SPOKE_ABI, destRpc).liquidity(token(dest, 'USDC')));
    const amount = liquidity + parseUnits('1000', 6);
    const user = await newUser(amount);
    const spoke = new Contract(src.contracts.bridgeSpoke, SPOKE_ABI, user);
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('approve', [src.contracts.bridgeSpoke, amount]) })).wait();
    const deadline = (await chainTime()) + 15;
    const sent = await spoke.deposit({
      inputToken: token(src, 'USDC'),
      inputAmount: amount,
      destinationChainId: 84532,
      outputToken: token(dest, 'USDC'),
      outputAmount: amount - parseUnits('10', 6),
      recipient: user.address,
      fillDeadline: deadline,
      ref: '0x' + '00'.repeat(32),
    });
    await sent.wait();
    await mine(srcRpc, SRC_CONFIRMATIONS);
    for (let i = 0; i < 3; i++) await filler.passAll();
    expect((await status(sent.hash)).status).toBe('src_confirmed');
    const admin = await t.http().get('/admin/bridge').set(adminAuth).expect(200);
    const order = (admin.body.data.orders as Json[]).find((o) => o.srcTxHash === sent.hash);
    expect(order?.state).toBe('confirmed');
    expect(order?.fillTxHash).toBeNull();

    // Past the deadline on both chains: no fill can land any more; the filler refunds.
    await blocksPast(deadline);
    const before = await balanceOf(src, 'USDC', user.address);
    await passUntil(async () => (await status(sent.hash)).status === 'failed');
    const failed = await status(sent.hash);
    expect(failed.details.refundTxHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(failed.destTxDetails.txHash).toBeNull();
    expect(await balanceOf(src, 'USDC', user.address)).toBe(before + amount);
  }, 120_000);

  it('a deposit asking more than it carries (outputAmount above its input) is never filled, and is refunded after its deadline', async () => {
    const amount = parseUnits('10', 6);
    const user = await newUser(amount);
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('approve', [src.contracts.bridgeSpoke, amount]) })).wait();
    const deadline = (await chainTime()) + 15;
    const recipient = Wallet.createRandom().address;
    const sent = await new Contract(src.contracts.bridgeSpoke, SPOKE_ABI, user).deposit({
      inputToken: token(src, 'USDC'),
      inputAmount: amount,
      destinationChainId: 84532,
      outputToken: token(dest, 'USDC'),
      outputAmount: amount * 1000n,
      recipient,
      fillDeadline: deadline,
      ref: '0x' + '00'.repeat(32),
    });
    await sent.wait();
    await mine(srcRpc, SRC_CONFIRMATIONS);
    for (let i = 0; i < 3; i++) await filler.passAll();
    expect((await status(sent.hash)).status).toBe('src_confirmed');
    expect(await balanceOf(dest, 'USDC', recipient)).toBe(0n);
    await blocksPast(deadline);
    await passUntil(async () => (await status(sent.hash)).status === 'failed');
    expect(await balanceOf(src, 'USDC', user.address)).toBe(amount);
    expect(await balanceOf(dest, 'USDC', recipient)).toBe(0n);
  }, 120_000);

  it('two fillers racing over the same deposits send one fill each (the database move), and the spoke refuses a second fill of a deposit (on chain)', async () => {
    const second = await createTestApp({ env: env() });
    try {
      const other = second.app.get(BridgeFiller);
      const recipients: string[] = [];
      const hashes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const amount = parseUnits('20', 6);
        const user = await newUser(amount);
        const recipient = Wallet.createRandom().address;
        recipients.push(recipient);
        const res = await t
          .http()
          .get('/build-best-path')
          .set('api-key', apiKey)
          .query({ fromChain: 31337, toChain: 84532, fromToken: token(src, 'USDC'), toToken: token(dest, 'USDC'), amount: amount.toString(), sender: user.address, receiver: recipient })
          .expect(200);
        hashes.push(await sendBuilt(user, token(src, 'USDC'), res.body.data));
      }
      await Promise.all([filler.passAll(), other.passAll()]);
      await mine(srcRpc, SRC_CONFIRMATIONS);
      for (let round = 0; round < 30; round++) {
        await Promise.all([filler.passAll(), other.passAll()]);
        const states = await Promise.all(hashes.map(async (h) => (await status(h)).status));
        if (states.every((s) => s === 'completed')) break;
        await new Promise((r) => setTimeout(r, 150));
      }
      for (const h of hashes) expect((await status(h)).status).toBe('completed');
      // One fill each: what each recipient holds is exactly one fill.
      for (const [i, h] of hashes.entries()) expect(await balanceOf(dest, 'USDC', recipients[i])).toBe(BigInt((await status(h)).details.fillAmount));
      // One relayed fill per deposit, whichever filler sent it.
      const db = t.app.get(DataSource);
      for (const h of hashes) {
        const { depositId } = (await status(h)).details;
        const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE label = $1`, [`bridge-fill:${depositId}`]);
        expect(n).toBe(1);
      }

      // The same fill sent again (a signature copied from the chain) is refused by the spoke.
      const first = await status(hashes[0]);
      const fillTx = await destRpc.getTransaction(first.destTxDetails.txHash);
      const anyone = Wallet.createRandom().connect(destRpc);
      await fundEth(destRpc, anyone.address);
      const again = await anyone.call({ to: dest.contracts.bridgeSpoke, data: fillTx!.data }).catch((e: { data?: string }) => e.data ?? 'reverted');
      expect(SPOKE_ERRORS.parseError(again)?.name).toBe('AlreadyFilled');
    } finally {
      await second.close();
    }
  }, 180_000);

  it('a source reorg before the deposit is confirmed: the deposit is never filled (orphaned), its status pending', async () => {
    const amount = parseUnits('30', 6);
    const user = await newUser(amount);
    const recipient = Wallet.createRandom().address;
    const res = await t
      .http()
      .get('/build-best-path')
      .set('api-key', apiKey)
      .query({ fromChain: 31337, toChain: 84532, fromToken: token(src, 'USDC'), toToken: token(dest, 'USDC'), amount: amount.toString(), sender: user.address, receiver: recipient })
      .expect(200);
    // Earlier deposits' repayments on the source chain land first: the reorg below takes only the deposit.
    await passUntil(async () => {
      const admin = await t.http().get('/admin/bridge').set(adminAuth).expect(200);
      return (admin.body.data.orders as Json[]).every((o) => ['repaid', 'refunded'].includes(o.state));
    });
    const built = res.body.data as Json;
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('approve', [built.Tx.allowanceTarget, MaxUint256]) })).wait();
    const before = await srcRpc.send('evm_snapshot', []);
    const txHash = await sendBuilt(user, token(src, 'USDC'), built);
    await filler.passAll();
    expect((await status(txHash)).status).toBe('pending');
    // The block holding the deposit leaves the chain (a reorg dropping it), which then grows past the depth.
    await srcRpc.send('evm_revert', [before]);
    await mine(srcRpc, SRC_CONFIRMATIONS + 3);
    for (let i = 0; i < 4; i++) await filler.passAll();
    expect(await srcRpc.getTransactionReceipt(txHash)).toBeNull();
    expect((await status(txHash)).status).toBe('pending');
    expect(await balanceOf(dest, 'USDC', recipient)).toBe(0n);
    const admin = await t.http().get('/admin/bridge').set(adminAuth).expect(200);
    expect((admin.body.data.orders as Json[]).some((o) => o.srcTxHash === txHash)).toBe(false);
  }, 120_000);
});

/** docs/security.md, "Bridge": who may call what on the spokes and the bridge's surfaces. */
describe('bridge refusals (docs/security.md, "Bridge")', () => {
  let t: TestApp;
  let src: TestChain;
  let dest: TestChain;
  let srcRpc: JsonRpcProvider;
  let destRpc: JsonRpcProvider;
  let alerts: WebhookReceiver;

  const revertOf = async (rpc: JsonRpcProvider, to: string, data: string, from?: string): Promise<string | undefined> => {
    const caller = from ?? Wallet.createRandom().address;
    try {
      await rpc.call({ to, data, from: caller });
      return undefined;
    } catch (err) {
      const e = err as { data?: string; info?: { error?: { data?: string } } };
      const raw = e.data ?? e.info?.error?.data;
      return raw ? SPOKE_ERRORS.parseError(raw)?.name : 'reverted';
    }
  };
  const fillOrder = async (deadlineOffset: number) => {
    const now = (await destRpc.getBlock('latest'))!.timestamp;
    return {
      originChainId: 31337,
      depositId: '0x' + Buffer.from(Wallet.createRandom().address.slice(2).padEnd(64, '0'), 'hex').toString('hex'),
      outputToken: token(dest, 'USDC'),
      amount: 1_000_000n,
      recipient: Wallet.createRandom().address,
      fillDeadline: now + deadlineOffset,
      minAmountOut: 0n,
      swapTokenOut: token(dest, 'USDC'),
      executorData: '0x',
    };
  };

  beforeAll(async () => {
    src = testChain(31337);
    dest = testChain(84532);
    srcRpc = chainProvider(src);
    destRpc = chainProvider(dest);
    alerts = await WebhookReceiver.start(0);
    // Every spoke's inventory is "low" under a threshold of 10^12 whole tokens: the alert fires.
    t = await createTestApp({ env: { BRIDGE_WATCH_INTERVAL_MS: '3600000', BRIDGE_LOW_INVENTORY_UNITS: '1000000000000', OPERATOR_WEBHOOK_URL: alerts.url('/alerts') } });
  }, 120_000);

  afterAll(async () => {
    await dropSchedule(t);
    await t?.close();
    await alerts?.close();
  });

  it('fill: a signature by any key but the filler is refused (NotFiller), from any sender; a relayer key holds no bridge power', async () => {
    const order = await fillOrder(600);
    const stranger = new FillerSigner(Wallet.createRandom());
    const sig = await stranger.fill(84532, dest.contracts.bridgeSpoke, order);
    expect(await revertOf(destRpc, dest.contracts.bridgeSpoke, SPOKE_ABI.encodeFunctionData('fill', [order, sig]))).toBe('NotFiller');
    // The filler's own signature for another order (amount changed) is no signature for this one.
    const real = new FillerSigner(bridgeFillerWallet(DEV_AUTH_MNEMONIC));
    const signed = await real.fill(84532, dest.contracts.bridgeSpoke, order);
    expect(await revertOf(destRpc, dest.contracts.bridgeSpoke, SPOKE_ABI.encodeFunctionData('fill', [{ ...order, amount: order.amount * 2n }, signed]))).toBe('NotFiller');
    // Signed for the other chain's spoke: refused here (EIP-712 domain names chain and spoke).
    const elsewhere = await real.fill(31337, src.contracts.bridgeSpoke, order);
    expect(await revertOf(destRpc, dest.contracts.bridgeSpoke, SPOKE_ABI.encodeFunctionData('fill', [order, elsewhere]))).toBe('NotFiller');
  });

  it('fill: after its fill deadline even the filler\'s signature is refused (FillDeadlinePassed), so a refunded deposit can never be filled', async () => {
    const order = await fillOrder(-10);
    const sig = await new FillerSigner(bridgeFillerWallet(DEV_AUTH_MNEMONIC)).fill(84532, dest.contracts.bridgeSpoke, order);
    expect(await revertOf(destRpc, dest.contracts.bridgeSpoke, SPOKE_ABI.encodeFunctionData('fill', [order, sig]))).toBe('FillDeadlinePassed');
  });

  it('repay and refund: refused without the filler\'s signature (NotFiller), a refund before the deadline (DeadlineNotPassed), and inventory withdrawal by anyone but the owner', async () => {
    // An open deposit of a fresh user.
    const user = Wallet.createRandom().connect(srcRpc);
    await srcRpc.send('anvil_setBalance', [user.address, '0x' + parseEther('1').toString(16)]);
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('mint', [user.address, 5_000_000n]) })).wait();
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('approve', [src.contracts.bridgeSpoke, 5_000_000n]) })).wait();
    const now = (await srcRpc.getBlock('latest'))!.timestamp;
    const receipt: TransactionReceipt | null = await (
      await new Contract(src.contracts.bridgeSpoke, SPOKE_ABI, user).deposit({
        inputToken: token(src, 'USDC'),
        inputAmount: 5_000_000n,
        destinationChainId: 84532,
        outputToken: token(dest, 'USDC'),
        outputAmount: 4_000_000n,
        recipient: user.address,
        fillDeadline: now + 600,
        ref: '0x' + '00'.repeat(32),
      })
    ).wait();
    const depositId = SPOKE_ABI.parseLog(receipt!.logs.find((l: Log) => l.address.toLowerCase() === src.contracts.bridgeSpoke.toLowerCase())!)!.args.depositId as string;
    const stranger = new FillerSigner(Wallet.createRandom());
    const real = new FillerSigner(bridgeFillerWallet(DEV_AUTH_MNEMONIC));
    const spoke = src.contracts.bridgeSpoke;
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('repay', [depositId, await stranger.repay(31337, spoke, depositId)]))).toBe('NotFiller');
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('refund', [depositId, await real.refund(31337, spoke, depositId)]))).toBe('DeadlineNotPassed');
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('refund', [depositId, '0x']))).toBe('DeadlineNotPassed');
    // A repay signature is not a refund signature (and the reverse).
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('repay', [depositId, await real.refund(31337, spoke, depositId)]))).toBe('NotFiller');
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('withdrawLiquidity', [token(src, 'USDC'), 1n, user.address]))).toBe('OwnableUnauthorizedAccount');
    // The owner can take inventory, never the escrowed deposits.
    const deployer = new Wallet(DEPLOYER_PRIVATE_KEY).address;
    const liquidity = BigInt(await new Contract(spoke, SPOKE_ABI, srcRpc).liquidity(token(src, 'USDC')));
    expect(await revertOf(srcRpc, spoke, SPOKE_ABI.encodeFunctionData('withdrawLiquidity', [token(src, 'USDC'), liquidity + 1n, deployer]), deployer)).toBe('InsufficientLiquidity');
  });

  it('a team cannot target the spoke with its own calldata (403 TRANSACTION_007), and GET /admin/bridge needs the admin token (401)', async () => {
    const { apiKey } = await createAccount(t, 10);
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: src.contracts.bridgeSpoke, callData: SPOKE_ABI.encodeFunctionData('refund', ['0x' + '11'.repeat(32), '0x']) });
    expect([res.status, res.body.error?.code]).toEqual([403, 'TRANSACTION_007']);
    await t.http().get('/admin/bridge').expect(401);
    const admin = await t.http().get('/admin/bridge').set(adminAuth).expect(200);
    expect(admin.body.data.filler).toBe(bridgeFillerWallet(DEV_AUTH_MNEMONIC).address.toLowerCase());
    expect((admin.body.data.inventory as Json[]).some((l) => l.chainId === 84532 && l.symbol === 'USDC' && BigInt(l.available) > 0n)).toBe(true);
  });

  it('GET /admin/bridge flags inventory below BRIDGE_LOW_INVENTORY_UNITS, and the operator alert bridge.low_inventory fires once per crossing', async () => {
    const first = await t.http().get('/admin/bridge').set(adminAuth).expect(200);
    expect((first.body.data.inventory as Json[]).every((l) => l.low === true)).toBe(true);
    await t.http().get('/admin/bridge').set(adminAuth).expect(200);
    const deadline = Date.now() + 5_000;
    while (alerts.calls.length < first.body.data.inventory.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const bridgeAlerts = alerts.calls.filter((c) => c.body.kind === 'bridge.low_inventory');
    // One per (chain, token) line, not one per read.
    expect(bridgeAlerts.map((c) => `${c.body.chainId}:${c.body.symbol}`).sort()).toEqual((first.body.data.inventory as Json[]).map((l) => `${l.chainId}:${l.symbol}`).sort());
  });
});
