import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { encodeExchangeCallData, signExchangeAction } from '../src/modules/relay/intake/exchange/exchange-action';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';

const EXCHANGE_CHAIN = 10200001;
const trader = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'); // anvil #1, a known trader
const order = { type: 'order', asset: 'ETH', isBuy: true, price: '3012.5', size: '0.25' };

/** A raw HTTP/1.1 exchange over one socket: what Node's parser sees before Express does. */
function rawHttp(port: number, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

/** A request from a chosen loopback address, so per-IP windows of different tests never meet. */
function fromIp(port: number, localAddress: string, path: string, body: unknown): Promise<{ status: number; headers: Record<string, unknown>; body: { error?: { code: string } } }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('API edge: upstream errors, transport limits, login limit, exchange signatures, funding quotes', () => {
  let t: TestApp;
  let port: number;
  let apiKey: string;
  const chain = testChain(31337);

  beforeAll(async () => {
    t = await createTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '3', HTTP_HEADERS_TIMEOUT_MS: '7000', HTTP_REQUEST_TIMEOUT_MS: '90000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '61000' } });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    ({ apiKey } = await createAccount(t, 20));
  });
  afterAll(() => t.close());

  describe("Node's HTTP parser", () => {
    it('answers oversized headers with 431 in the envelope of the path', async () => {
      const big = 'x'.repeat(20_000);
      const api = await rawHttp(port, `GET /api/tx?id=1 HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
      expect(api.status).toBe(431);
      expect(JSON.parse(api.body)).toMatchObject({ success: false, error: { code: 'VALIDATION_004', category: 'VALIDATION', traceId: expect.any(String) } });
      const swap = await rawHttp(port, `GET /quote?x=1 HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`);
      expect(swap.status).toBe(431);
      expect(JSON.parse(swap.body)).toEqual({ code: 431, data: null, message: 'request headers too large' });
    });

    it('answers a malformed request with 400 in the envelope', async () => {
      const res = await rawHttp(port, 'GET /api/tx HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      expect(res.status).toBe(400);
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: 'VALIDATION_004', message: 'malformed HTTP request' } });
    });

    it('runs with the configured server timeouts', () => {
      const server = t.app.getHttpServer();
      expect({ headers: server.headersTimeout, request: server.requestTimeout, keepAlive: server.keepAliveTimeout }).toEqual({ headers: 7000, request: 90000, keepAlive: 61000 });
    });
  });

  describe('upstream errors are redacted', () => {
    it('CHAIN_003 carries the stable catalog message, not the upstream error', async () => {
      const previous = process.env[`EXCHANGE_API_URL_${EXCHANGE_CHAIN}`];
      process.env[`EXCHANGE_API_URL_${EXCHANGE_CHAIN}`] = 'http://127.0.0.1:1';
      try {
        const callData = encodeExchangeCallData(await signExchangeAction(trader, EXCHANGE_CHAIN, order, Date.now()));
        const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: EXCHANGE_CHAIN, callData }).expect(500);
        expect(res.body.error).toEqual({ code: 'CHAIN_003', message: 'blockchain RPC error', category: 'CHAIN', traceId: res.headers['x-trace-id'] });
      } finally {
        if (previous === undefined) delete process.env[`EXCHANGE_API_URL_${EXCHANGE_CHAIN}`];
        else process.env[`EXCHANGE_API_URL_${EXCHANGE_CHAIN}`] = previous;
      }
    });
  });

  describe('wallet login is rate-limited per client IP', () => {
    it('answers 429 RESOURCE_003 with Retry-After past the limit, counting message and verify together, per IP', async () => {
      const ip = `127.0.${1 + Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
      const address = Wallet.createRandom().address;
      expect((await fromIp(port, ip, '/api/auth/message', { address })).status).toBe(200);
      expect((await fromIp(port, ip, '/api/auth/verify', { messageId: 'nope', signature: '0x' + '11'.repeat(65) })).status).not.toBe(429);
      expect((await fromIp(port, ip, '/api/auth/message', { address })).status).toBe(200);
      const limited = await fromIp(port, ip, '/api/auth/message', { address });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ success: false, error: { code: 'RESOURCE_003' } });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await fromIp(port, ip, '/api/auth/verify', { messageId: 'nope', signature: '0x' }).then((r) => r.status))).toBe(429);
      const other = ip.replace(/\.\d+$/, (last) => `.${(Number(last.slice(1)) % 250) + 2}`);
      expect((await fromIp(port, other, '/api/auth/message', { address })).status).toBe(200);
    });
  });

  describe('exchange signatures', () => {
    it('POST /api/submit-tx with signature {r, s, v} is accepted and reaches EXECUTED', async () => {
      const signed = await signExchangeAction(trader, EXCHANGE_CHAIN, order, Date.now() + 7);
      const sig = signed.signature;
      const body = { action: signed.action, nonce: signed.nonce, signature: { r: `0x${sig.slice(2, 66)}`, s: `0x${sig.slice(66, 130)}`, v: parseInt(sig.slice(130), 16) } };
      const callData = Buffer.from(JSON.stringify(body)).toString('base64');
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: EXCHANGE_CHAIN, callData }).expect(201);
      const record = await waitForTx(t, res.body.data.txId);
      expect(record).toMatchObject({ status: 'EXECUTED', chainId: EXCHANGE_CHAIN, costUSD: 0 });
    });
  });

  describe('POST /api/quote of a funding-signed call', () => {
    it('answers 201 with the minBalanceRequired submit-signed-tx tops up to', async () => {
      const call = { chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()), gasLimit: '120000', gasPrice: '3000000000' };
      const plain = await t.http().post('/api/quote').set('api-key', apiKey).send(call).expect(201);
      const funding = await t.http().post('/api/quote').set('api-key', apiKey).send({ ...call, transactionType: 'funding-signed' }).expect(201);
      expect(funding.body.data).toEqual({ costUSD: expect.any(Number), minBalanceRequired: expect.stringMatching(/^[1-9]\d*$/) });
      // 120000 gas × 3 gwei, plus the 8% funding fee.
      expect(funding.body.data.minBalanceRequired).toBe(((120_000n * 3_000_000_000n * 108n + 99n) / 100n).toString());
      expect(funding.body.data.minBalanceRequired).toBe(plain.body.data.minBalanceRequired);
      // The account pays the top-up plus 8% and the transfer's gas: more than the plain relay cost.
      expect(funding.body.data.costUSD).toBeGreaterThan(plain.body.data.costUSD);
    });

    it('refuses derived senders with VALIDATION_001', async () => {
      const res = await t
        .http()
        .post('/api/quote')
        .set('api-key', apiKey)
        .send({ chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()), transactionType: 'funding-signed', isAuthenticatedTx: true, derivationPath: "m/44'/60'/0'/0/1" })
        .expect(400);
      expect(res.body.error.code).toBe('VALIDATION_001');
    });
  });
});
