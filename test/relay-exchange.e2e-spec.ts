import { Wallet } from 'ethers';
import { encodeExchangeCallData, signExchangeAction } from '../src/modules/relay/intake/exchange/exchange-action';
import { createAccount, createTestApp, TestApp } from './support/test-app';

const CHAIN = 10200001;
const trader = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'); // anvil #1, a known trader
const order = { type: 'order', asset: 'ETH', isBuy: true, price: '3012.5', size: '0.25' };

describe('relay: exchange-action chains', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createAccount(t, 10));
  });
  afterAll(() => t.close());

  const submit = (body: Record<string, unknown>) => t.http().post('/api/submit-tx').set('api-key', apiKey).send(body);
  const signed = async (signer = trader, nonce = Date.now() + Math.floor(Math.random() * 1000)) =>
    encodeExchangeCallData(await signExchangeAction(signer, CHAIN, order, nonce));

  it('an accepted action is EXECUTED at once, costs nothing and charges nothing', async () => {
    const res = await submit({ chainId: CHAIN, callData: await signed() }).expect(201);
    expect(res.body.data).toEqual({ txId: expect.any(String), estimatedCostUSD: 0 });
    const tx = await t.http().get('/api/tx').query({ id: res.body.data.txId }).expect(200);
    expect(tx.body.data).toMatchObject({ status: 'EXECUTED', costUSD: 0, isAccountCharged: false, chainId: CHAIN, to: null });
  });

  it('a rejected action (reused nonce, unknown trader) is FAILED at once, with the reason', async () => {
    const callData = await signed();
    await submit({ chainId: CHAIN, callData }).expect(201);
    const again = await submit({ chainId: CHAIN, callData }).expect(201);
    const reused = await t.http().get('/api/tx').query({ id: again.body.data.txId, includeRevertInfo: 'true' }).expect(200);
    expect(reused.body.data).toMatchObject({ status: 'FAILED', costUSD: 0, retries: 0 });
    expect(reused.body.data.revert.reason).toMatch(/nonce/i);

    const stranger = await submit({ chainId: CHAIN, callData: await signed(Wallet.createRandom() as unknown as Wallet) }).expect(201);
    const unknown = await t.http().get('/api/tx').query({ id: stranger.body.data.txId }).expect(200);
    expect(unknown.body.data.status).toBe('FAILED');
  });

  it('submit-tx-sync answers with the terminal record straight away', async () => {
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: CHAIN, callData: await signed() } }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
  });

  it.each([
    ['to', { to: '0x0000000000000000000000000000000000000001' }],
    ['value', { value: '1' }],
    ['gas fields', { gasLimit: '100000' }],
    ['authorizationList', { authorizationList: [] }],
  ])('%s is rejected with VALIDATION_001', async (_, extra) => {
    const res = await submit({ chainId: CHAIN, callData: await signed(), ...extra }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_001');
  });

  it('callData that is not a base64 signed request is VALIDATION_001', async () => {
    for (const callData of ['0xdeadbeef', 'not base64!', Buffer.from('{"action":1}').toString('base64')]) {
      const res = await submit({ chainId: CHAIN, callData }).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_001');
    }
  });

  it('quotes cost nothing', async () => {
    const res = await t.http().post('/api/quote').set('api-key', apiKey).send({ chainId: CHAIN, callData: await signed() }).expect(201);
    expect(res.body.data).toEqual({ costUSD: 0, minBalanceRequired: '0' });
  });
});
