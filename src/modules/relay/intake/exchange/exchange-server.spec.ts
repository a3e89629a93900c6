import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Signer, Wallet } from 'ethers';
import { NONCE_MAX_AGE_MS, NONCE_MAX_AHEAD_MS } from '../../../../../scripts/exchange/nonce-book';
import { RunningExchangeServer, startExchangeServer } from '../../../../../scripts/exchange/server';
import { ExchangeRequest, MAX_EXCHANGE_REQUEST_BYTES, signExchangeAction } from './exchange-action';
import { ExchangeClient, ExchangeUnavailableError } from './exchange-client';

const CHAIN = 10200001;
const NOW = 1_763_700_000_000;
const trader = Wallet.createRandom();
const stranger = Wallet.createRandom();
const order = { type: 'order', asset: 'ETH', isBuy: true, price: '3012.5', size: '0.25' };

let exchange: RunningExchangeServer;
let nonce = NOW;
const sign = (overrides: { chainId?: number; nonce?: number; wallet?: Signer } = {}): Promise<ExchangeRequest> =>
  signExchangeAction(overrides.wallet ?? trader, overrides.chainId ?? CHAIN, order, overrides.nonce ?? ++nonce);

async function post(body: string, path = '/exchange'): Promise<{ status: number; body: { status: string; response: unknown } }> {
  const res = await fetch(`${exchange.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as { status: string; response: unknown } };
}

beforeAll(async () => {
  exchange = await startExchangeServer({ port: 0, chainId: CHAIN, traders: [trader.address, stranger.address], now: () => NOW });
});
afterAll(() => exchange.stop());

describe('local exchange server', () => {
  it('answers health checks', async () => {
    const res = await fetch(`${exchange.url}/health`);
    expect(res.status).toBe(200);
  });

  it('accepts a fresh signed action and names the trader', async () => {
    const request = await sign();
    expect(await post(JSON.stringify(request))).toEqual({
      status: 200,
      body: { status: 'ok', response: { type: 'default', trader: trader.address.toLowerCase(), nonce: request.nonce } },
    });
  });

  it('rejects a reused nonce, but only for the same trader', async () => {
    const first = await sign();
    expect((await post(JSON.stringify(first))).status).toBe(200);
    expect(await post(JSON.stringify(first))).toEqual({ status: 400, body: { status: 'err', response: expect.stringMatching(/already used/) } });
    const other = await sign({ wallet: stranger, nonce: first.nonce });
    expect((await post(JSON.stringify(other))).status).toBe(200);
  });

  it('rejects nonces outside the freshness window', async () => {
    const stale = await post(JSON.stringify(await sign({ nonce: NOW - NONCE_MAX_AGE_MS })));
    expect(stale).toEqual({ status: 400, body: { status: 'err', response: expect.stringMatching(/stale nonce/) } });
    const future = await post(JSON.stringify(await sign({ nonce: NOW + NONCE_MAX_AHEAD_MS })));
    expect(future).toEqual({ status: 400, body: { status: 'err', response: expect.stringMatching(/in the future/) } });
    expect((await post(JSON.stringify(await sign({ nonce: NOW - NONCE_MAX_AGE_MS + 1 })))).status).toBe(200);
  });

  it('rejects a signature made for another chain, another key or another action', async () => {
    const wrongChain = await sign({ chainId: 10200000 });
    expect(await post(JSON.stringify(wrongChain))).toEqual({ status: 400, body: { status: 'err', response: expect.stringMatching(/unknown trader/) } });
    const unknownKey = await sign({ wallet: Wallet.createRandom() });
    expect((await post(JSON.stringify(unknownKey))).body.response).toMatch(/unknown trader/);
    const tampered = { ...(await sign()), action: { ...order, size: '250' } };
    expect((await post(JSON.stringify(tampered))).body.response).toMatch(/unknown trader/);
  });

  it.each([
    ['malformed JSON', '{"action":'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['a missing signature', JSON.stringify({ action: order, nonce: NOW })],
    ['a malformed signature', JSON.stringify({ action: order, nonce: NOW, signature: '0x12' })],
    ['an off-curve signature', JSON.stringify({ action: order, nonce: NOW, signature: `0x${'0'.repeat(63)}5${'1'.repeat(64)}1b` })],
  ])('answers 400 to %s', async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.status).toBe('err');
    expect(typeof res.body.response).toBe('string');
  });

  it('refuses oversize bodies and unknown routes without falling over', async () => {
    expect((await post(`"${'a'.repeat(MAX_EXCHANGE_REQUEST_BYTES + 1)}"`)).status).toBe(413);
    expect((await post('{}', '/info')).status).toBe(404);
    expect((await fetch(`${exchange.url}/exchange`)).status).toBe(405);
    expect((await fetch(`${exchange.url}/health`)).status).toBe(200);
  });

  it('accepts any recovered address when no traders are configured', async () => {
    const open = await startExchangeServer({ port: 0, chainId: CHAIN });
    try {
      const res = await fetch(`${open.url}/exchange`, { method: 'POST', body: JSON.stringify(await sign({ nonce: Date.now() })) });
      expect(res.status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});

describe('ExchangeClient', () => {
  const client = new ExchangeClient();

  it('reports acceptance with the exchange response', async () => {
    const request = await sign();
    expect(await client.submit(`${exchange.url}/`, request, 5000)).toEqual({
      accepted: true,
      status: 200,
      response: { type: 'default', trader: trader.address.toLowerCase(), nonce: request.nonce },
    });
  });

  it('reports a rejection with its reason', async () => {
    const request = await sign();
    await client.submit(exchange.url, request, 5000);
    const again = await client.submit(exchange.url, request, 5000);
    expect(again).toEqual({ accepted: false, status: 400, response: expect.any(String), reason: expect.stringMatching(/already used/) });
  });

  it('throws ExchangeUnavailableError when nothing listens', async () => {
    const port = await freePort();
    const error = await client.submit(`http://127.0.0.1:${port}`, await sign(), 5000).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ExchangeUnavailableError);
    expect((error as ExchangeUnavailableError).kind).toBe('unreachable');
  });

  describe('against a misbehaving exchange', () => {
    let stub: Server;
    let url: string;
    let answer: { status: number; body: string; delayMs?: number };

    beforeAll(async () => {
      stub = createServer((req, res) => {
        req.resume();
        setTimeout(() => res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body), answer.delayMs ?? 0);
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      stub.closeAllConnections();
      return new Promise<void>((resolve) => stub.close(() => resolve()));
    });

    it.each<[string, typeof answer, string]>([
      ['a timeout', { status: 200, body: '{"status":"ok","response":{}}', delayMs: 1000 }, 'timeout'],
      ['a server error', { status: 502, body: '{"status":"err","response":"bad gateway"}' }, 'http-status'],
      ['rate limiting', { status: 429, body: '{"status":"err","response":"slow down"}' }, 'http-status'],
      ['a non-protocol 404', { status: 404, body: '<html>not found</html>' }, 'bad-response'],
      ['an "ok" on a 4xx', { status: 400, body: '{"status":"ok"}' }, 'bad-response'],
      ['a 200 without a status', { status: 200, body: '{"result":1}' }, 'bad-response'],
    ])('treats %s as unavailable, not as a rejection', async (_name, reply, kind) => {
      answer = reply;
      const error = await client.submit(url, await sign(), 200).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ExchangeUnavailableError);
      expect((error as ExchangeUnavailableError).kind).toBe(kind);
    });

    it('treats an "err" on a 200 as a rejection', async () => {
      answer = { status: 200, body: '{"status":"err","response":{"code":7}}' };
      expect(await client.submit(url, await sign(), 1000)).toEqual({ accepted: false, status: 200, response: { code: 7 }, reason: '{"code":7}' });
    });
  });
});

/** A port that was free a moment ago: bound, read and released. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
