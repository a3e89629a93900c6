import { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BaseWallet, Contract, JsonRpcProvider, MaxUint256, parseEther, parseUnits, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { fillKey, SPOKE_ABI } from '../src/modules/bridge';
import { request } from './support/bridge-http';
import { spawnWorker } from './support/chain-conditions/scenario';
import { erc20, provider as chainProvider, testChain, token, type TestChain } from './support/chain-fixtures';
import { TEST_CHAINS_FILE, TEST_STATE_DIR, testEnv } from './support/test-env';
import type { TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Fills are repaid once this deep on the destination: the window in which the filler is killed. */
const DEST_CONFIRMATIONS = 2;
const BRIDGE_ACCOUNT = Wallet.createRandom().address;

/**
 * The filler in real worker processes (APP_ROLE=worker, the BullMQ schedule): two workers never
 * fill one deposit twice, and a worker SIGKILLed between a fill and its repayment repays after a
 * restart. The API is in-process and sends nothing itself.
 */
describe('bridge filler in worker processes', () => {
  let t: TestApp;
  let db: DataSource;
  let apiKey: string;
  let src: TestChain;
  let dest: TestChain;
  let srcRpc: JsonRpcProvider;
  let destRpc: JsonRpcProvider;
  const workers: ChildProcess[] = [];
  const chainsFile = join(TEST_STATE_DIR, 'bridge-workers-chains.json');
  const env: Record<string, string> = { CHAINS_FILE: chainsFile, BRIDGE_ACCOUNT, BRIDGE_WATCH_INTERVAL_MS: '300' };
  const startWorker = async (): Promise<ChildProcess> => {
    const w = await spawnWorker({ ...testEnv(), ...env });
    workers.push(w);
    return w;
  };

  const balanceOf = (chain: TestChain, who: string): Promise<bigint> => new Contract(token(chain, 'USDC'), erc20, chainProvider(chain)).balanceOf(who) as Promise<bigint>;
  const rowOf = async (txHash: string): Promise<Json | undefined> => (await db.query(`SELECT * FROM bridge_deposits WHERE src_tx_hash = $1`, [txHash]))[0];
  const waitFor = async (what: string, done: () => Promise<boolean>, ms = 90_000): Promise<void> => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  /** A quoted USDC bridge deposit of `amount` from a fresh user to a fresh recipient. */
  const deposit = async (amount: bigint): Promise<{ txHash: string; recipient: string }> => {
    const user: BaseWallet = Wallet.createRandom().connect(srcRpc);
    await srcRpc.send('anvil_setBalance', [user.address, '0x' + parseEther('1').toString(16)]);
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('mint', [user.address, amount]) })).wait();
    const recipient = Wallet.createRandom().address;
    const built = await request(t, apiKey, { fromChain: 31337, toChain: 84532, fromToken: token(src, 'USDC'), toToken: token(dest, 'USDC'), amount: amount.toString(), sender: user.address, receiver: recipient });
    await (await user.sendTransaction({ to: token(src, 'USDC'), data: erc20.encodeFunctionData('approve', [built.Tx.allowanceTarget, MaxUint256]) })).wait();
    const sent = await user.sendTransaction({ to: built.Tx.to, data: built.Tx.data, gasLimit: BigInt(built.Tx.gasLimit) });
    expect((await sent.wait())?.status).toBe(1);
    return { txHash: sent.hash.toLowerCase(), recipient };
  };

  beforeAll(async () => {
    src = testChain(31337);
    dest = testChain(84532);
    srcRpc = chainProvider(src);
    destRpc = chainProvider(dest);
    const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8')) as { chains: Json[] };
    for (const chain of file.chains) if (chain.chainId === 84532) chain.confirmations = DEST_CONFIRMATIONS;
    mkdirSync(TEST_STATE_DIR, { recursive: true });
    writeFileSync(chainsFile, JSON.stringify(file, null, 2));
    const { createTestApp, createAccount, adminAuth } = await import('./support/test-app');
    t = await createTestApp({ env: { ...env, APP_ROLE: 'api' } });
    db = t.app.get(DataSource);
    await t.http().post('/admin/accounts').set(adminAuth).send({ address: BRIDGE_ACCOUNT, creditUsd: 1000 }).expect(201);
    ({ apiKey } = await createAccount(t, 100));
  }, 120_000);

  afterAll(async () => {
    for (const w of workers) w.kill('SIGKILL');
    await t?.close();
  });

  it('two worker processes fill each deposit once (one relayed fill, one payout) and repay it', async () => {
    await startWorker();
    await startWorker();
    const deposits: Array<{ txHash: string; recipient: string }> = [];
    for (let i = 0; i < 4; i++) deposits.push(await deposit(parseUnits(String(10 + i), 6)));
    // The destination grows (the fills' own blocks are not enough for the repayment's depth).
    const miner = setInterval(() => void destRpc.send('anvil_mine', ['0x1']).catch(() => undefined), 400);
    try {
      await waitFor('every deposit repaid', async () => {
        const rows = await Promise.all(deposits.map((d) => rowOf(d.txHash)));
        return rows.every((r) => r?.state === 'repaid');
      });
    } finally {
      clearInterval(miner);
    }
    for (const d of deposits) {
      const row = (await rowOf(d.txHash))!;
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM relay_transactions WHERE label = $1`, [`bridge-fill:${row.deposit_id}`]);
      expect(n).toBe(1);
      expect(await balanceOf(dest, d.recipient)).toBe(BigInt(row.fill_amount));
    }
    for (const w of workers.splice(0)) w.kill('SIGKILL');
  }, 300_000);

  it('a worker killed between the fill and the repayment repays after a restart, once', async () => {
    const worker = await startWorker();
    const d = await deposit(parseUnits('42', 6));
    await waitFor('the row', async () => (await rowOf(d.txHash)) !== undefined);
    const depositId = (await rowOf(d.txHash))!.deposit_id as string;
    const destSpoke = new Contract(dest.contracts.bridgeSpoke, SPOKE_ABI, destRpc);
    // The fill has landed; its repayment waits for DEST_CONFIRMATIONS blocks that nothing mines yet.
    await waitFor('the fill on chain', async () => Boolean(await destSpoke.filled(fillKey(31337, depositId))));
    worker.kill('SIGKILL');
    workers.splice(workers.indexOf(worker), 1);
    const killedIn = (await rowOf(d.txHash))!.state;
    expect(['filling', 'filled']).toContain(killedIn);
    const srcSpoke = new Contract(src.contracts.bridgeSpoke, SPOKE_ABI, srcRpc);
    expect(BigInt((await srcSpoke.escrows(depositId)).state)).toBe(1n);

    await destRpc.send('anvil_mine', ['0x' + (DEST_CONFIRMATIONS + 1).toString(16)]);
    await startWorker();
    await waitFor('the repayment', async () => (await rowOf(d.txHash))?.state === 'repaid');
    expect(BigInt((await srcSpoke.escrows(depositId)).state)).toBe(2n);
    const [{ fills }] = await db.query(`SELECT count(*)::int AS fills FROM relay_transactions WHERE label = $1`, [`bridge-fill:${depositId}`]);
    const [{ repays }] = await db.query(`SELECT count(*)::int AS repays FROM relay_transactions WHERE label = $1 AND status = 'EXECUTED'`, [`bridge-repay:${depositId}`]);
    expect([fills, repays]).toEqual([1, 1]);
    expect(await balanceOf(dest, d.recipient)).toBe(BigInt((await rowOf(d.txHash))!.fill_amount));
  }, 300_000);
});
