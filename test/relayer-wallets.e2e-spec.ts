import { parseEther } from 'ethers';
import { DataSource } from 'typeorm';
import { devTreasuryAddress } from '../scripts/local-stack/dev-keys';
import { SignerPool } from '../src/modules/relay';
import { RelayerWalletsService } from '../src/modules/relayer-wallets';
import { TreasuryTopUps } from '../src/modules/relayer-wallets/domain/treasury-top-ups.service';
import { mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTxs } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

const FLOOR = parseEther('1');
const TARGET = parseEther('2');
const FULL = parseEther('10000');
const ALERT_PORT = 18950;
const hex = (wei: bigint) => '0x' + wei.toString(16);

/**
 * Relayer keys on chain 31337 with a 1 ETH floor and a 2 ETH target: a key moved under its floor
 * gets no new work and is refilled once from the treasury while submissions continue; with every
 * key and the treasury empty, a submission is refused with RELAYER_001 and nothing is recorded.
 */
describe('relayer wallets: floors, treasury top-ups, alerts', () => {
  let t: TestApp;
  let alerts: WebhookReceiver;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);
  const treasury = devTreasuryAddress();
  let keys: string[];

  beforeAll(async () => {
    alerts = await WebhookReceiver.start(ALERT_PORT);
    t = await createTestApp({
      env: {
        RELAYER_MIN_BALANCE_WEI: FLOOR.toString(),
        RELAYER_TARGET_BALANCE_WEI: TARGET.toString(),
        RELAYER_BALANCE_INTERVAL_MS: '300',
        OPERATOR_WEBHOOK_URL: alerts.url('/alerts'),
      },
    });
    keys = t.app.get(SignerPool).poolAddresses();
    await rpc.send('anvil_setBalance', [treasury, hex(parseEther('100'))]);
  });
  afterAll(async () => {
    // Later specs share this chain: every key full again.
    for (const k of [...keys, treasury]) await rpc.send('anvil_setBalance', [k, hex(FULL)]);
    await t.close();
    await alerts.close();
  });

  const keyState = (address: string) =>
    t.app.get(RelayerWalletsService).snapshot().find((c) => c.chainId === 31337)!.keys.find((k) => k.address === address)!;
  async function until<T>(read: () => Promise<T> | T, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (done(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('a key drained under its floor is topped up once from the treasury while submissions continue, with no failed transaction', async () => {
    const { apiKey } = await createAccount(t, 100);
    const drained = t.app.get(SignerPool).poolAddresses('us-east')[0];
    expect((await until(() => keyState(drained), (k) => k.state === 'ok')).state).toBe('ok');

    await rpc.send('anvil_setBalance', [drained, hex(parseEther('0.5'))]);
    const ids: string[] = [];
    const deadline = Date.now() + 20_000;
    // Submissions keep coming while the key is low and refilled.
    while (Date.now() < deadline) {
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).set('X-Relay-Region', 'us-east').send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201);
      ids.push(res.body.data.txId);
      const balance = await rpc.getBalance(drained);
      if (ids.length >= 10 && balance >= FLOOR && keyState(drained).state === 'ok') break;
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(await rpc.getBalance(drained)).toBeGreaterThanOrEqual(FLOOR);
    expect(keyState(drained).state).toBe('ok');

    const rows = await waitForTxs(t, ids, { timeoutMs: 30_000 });
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'EXECUTED'));

    const topUps = await until(
      () => t.app.get(DataSource).query(`SELECT status, amount_wei::text AS amount, hash FROM relayer_top_ups WHERE chain_id = 31337 AND address = lower($1)`, [drained]),
      (r: Array<{ status: string; amount: string; hash: string }>) => r.every((x) => x.status !== 'open'),
    );
    expect(topUps).toHaveLength(1);
    expect(topUps[0].status).toBe('mined');
    // Up to the target from the balance the monitor read: the key may have relayed a few of the
    // submissions (each well under 0.001 ETH of gas) before the monitor's pass saw it low.
    const drainedTo = TARGET - parseEther('0.5');
    expect(BigInt(topUps[0].amount)).toBeGreaterThanOrEqual(drainedTo);
    expect(BigInt(topUps[0].amount)).toBeLessThan(drainedTo + parseEther('0.01'));
    expect((await rpc.getTransactionReceipt(topUps[0].hash))?.status).toBe(1);

    const calls = await alerts.waitFor((c) => c.some((x) => x.body.kind === 'relayer.top_up_mined' && x.body.address === drained.toLowerCase()));
    const kinds = calls.filter((c) => c.body.chainId === 31337 && String(c.body.address).toLowerCase() === drained.toLowerCase()).map((c) => c.body.kind);
    expect(kinds).toEqual(expect.arrayContaining(['relayer.low_balance', 'relayer.top_up_sent', 'relayer.top_up_mined']));

    const metrics = (await t.http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/relayer_top_ups_total\{chain="31337",result="sent"\} 1\b/);
    expect(metrics).toMatch(/relayer_top_ups_total\{chain="31337",result="mined"\} 1\b/);
    expect(metrics).toContain(`relayer_balance_wei{chain="31337",region="us-east",address="${drained}"}`);
    expect(metrics).toMatch(/relayer_low_keys\{chain="31337"\} 0\b/);

    const health = (await t.http().get('/admin/health').set(adminAuth).expect(200)).body.data;
    const relayers = health.checks.chains.find((c: { chainId: number }) => c.chainId === 31337).relayers;
    expect(relayers).toMatchObject({ floorWei: FLOOR.toString(), targetWei: TARGET.toString(), treasury: { address: treasury } });
    expect(relayers.keys.find((k: { address: string }) => k.address === drained)).toMatchObject({ region: 'us-east', state: 'ok' });
  }, 90_000);

  it('several keys topped up at once (workers of their own) take the treasury\'s nonces one after another: every top-up is mined', async () => {
    const topUps = t.app.get(TreasuryTopUps);
    const floors = { floorWei: FLOOR, targetWei: TARGET };
    const targets = keys.slice(-3);
    // As if each key's balance had just been read under its floor by a different worker.
    const rows = await Promise.all(targets.map((address) => topUps.topUp(31337, 'test', address, 0n, floors)));
    expect(rows.every((r) => r !== null)).toBe(true);
    expect(new Set(rows.map((r) => r!.nonce)).size).toBe(targets.length);
    const receipts = await Promise.all(rows.map((r) => rpc.waitForTransaction(r!.hash!, 1, 20_000)));
    expect(receipts.map((r) => r?.status)).toEqual(targets.map(() => 1));
    await until(
      () => t.app.get(DataSource).query(`SELECT status FROM relayer_top_ups WHERE hash = ANY($1)`, [rows.map((r) => r!.hash)]),
      (found: Array<{ status: string }>) => found.length === targets.length && found.every((f) => f.status === 'mined'),
    );
  });

  it('with every key and the treasury drained, a submission gets 503 RELAYER_001 and leaves no record', async () => {
    const { apiKey, userId } = await createAccount(t, 100);
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);
    // The treasury first: a key drained while the treasury still holds funds can be topped up back to ok in between.
    for (const k of [treasury, ...keys]) await rpc.send('anvil_setBalance', [k, '0x0']);
    const states = await until(() => keys.map((k) => keyState(k).state), (s) => s.every((x) => x === 'empty'));
    expect(states).toEqual(keys.map(() => 'empty'));

    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(503);
    expect(res.body.error).toMatchObject({ code: 'RELAYER_001', category: 'RELAYER' });
    const [{ n }] = await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
    expect(n).toBe(0);
    expect((await t.http().get('/health').expect(200)).body.status).toBe('degraded');
    await alerts.waitFor((c) => c.some((x) => x.body.kind === 'relayer.treasury_short'));

    for (const k of [...keys, treasury]) await rpc.send('anvil_setBalance', [k, hex(FULL)]);
    await until(() => keys.map((k) => keyState(k).state), (s) => s.every((x) => x === 'ok'));
    await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201);
  }, 60_000);
});
