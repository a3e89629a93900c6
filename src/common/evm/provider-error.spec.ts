import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import { providerErrorCode, providerErrorDetail, ProviderCallError, shownErrorText } from './provider-error';
import { redactUrl, redactUrls, registerProviderUrl, scrubProviderUrls } from './provider-url';

describe('provider URLs', () => {
  it('redacts to scheme, host and port; the path and query become *** when they hold more than /', () => {
    expect(redactUrl('https://mainnet.infura.io/v3/abc123')).toBe('https://mainnet.infura.io/***');
    expect(redactUrl('https://rpc.example.com:8443/?apikey=abc')).toBe('https://rpc.example.com:8443/***');
    expect(redactUrl('https://user:pass@rpc.example.com/')).toBe('https://rpc.example.com');
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(redactUrl('wss://eth.example.org/ws/key')).toBe('wss://eth.example.org/***');
    expect(redactUrl('not a url')).toBe('***');
  });

  it('redacts every URL inside a text, and scrubs registered URLs and their paths alone', () => {
    expect(redactUrls('info={ "requestUrl": "https://x.io/v3/KEY1", "other": "http://h:1/p?q" }')).toBe('info={ "requestUrl": "https://x.io/***", "other": "http://h:1/***" }');
    registerProviderUrl('https://eth.example.net/v2/REGISTEREDKEY');
    expect(scrubProviderUrls('GET https://eth.example.net/v2/REGISTEREDKEY failed; path /v2/REGISTEREDKEY')).toBe('GET https://eth.example.net/*** failed; path /***');
  });
});

describe('provider errors', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const status = Number(req.url?.split('/')[1]);
      req.resume();
      req.on('end', () => {
        if (status === 200) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'header not found' } }));
        else res.writeHead(status, { 'retry-after': '1' }).end('{"error":"no"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function failure(url: string): Promise<unknown> {
    const request = new FetchRequest(url);
    request.timeout = 2000;
    request.retryFunc = async () => false;
    const network = Network.from(1);
    const provider = new JsonRpcProvider(request, network, { staticNetwork: network, batchMaxCount: 1 });
    try {
      await provider.getBlockNumber();
      throw new Error('expected a failure');
    } catch (err) {
      return err;
    } finally {
      provider.destroy();
    }
  }

  it.each([
    ['/429/v3/SECRET', 'http 429'],
    ['/503/v3/SECRET', 'http 503'],
    ['/200/v3/SECRET', 'rpc -32000'],
  ])('%s is %s, and the detail names no URL', async (path, code) => {
    const err = await failure(`${base}${path}`);
    // ethers' message quotes the request URL of HTTP failures.
    if (code.startsWith('http')) expect((err as Error).message).toContain('SECRET');
    expect(providerErrorCode(err)).toBe(code);
    expect(providerErrorDetail(err)).toMatch(new RegExp(`^${code}: `));
    expect(providerErrorDetail(err)).not.toContain('SECRET');
    expect(shownErrorText(err)).toBe(code);
    const wrapped = new ProviderCallError('simulation failed', err);
    expect(wrapped.publicMessage).toBe(`blockchain RPC error (${code})`);
    expect(wrapped.message).not.toContain('SECRET');
  });

  it('a refused connection and a timeout have their own codes', async () => {
    expect(providerErrorCode(await failure('http://127.0.0.1:9/v3/SECRET'))).toBe('connection refused');
    const stall = createServer(() => undefined);
    await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
    const request = new FetchRequest(`http://127.0.0.1:${(stall.address() as AddressInfo).port}/v3/SECRET`);
    request.timeout = 200;
    const network = Network.from(1);
    const provider = new JsonRpcProvider(request, network, { staticNetwork: network });
    const err = await provider.getBlockNumber().catch((e: unknown) => e);
    provider.destroy();
    stall.closeAllConnections();
    await new Promise<void>((resolve) => stall.close(() => resolve()));
    expect(providerErrorCode(err)).toBe('timeout');
  });

  it('an error that is no node failure is shown as its first line, URLs redacted', () => {
    expect(shownErrorText(new Error('no key for sender 0xabc at https://x.io/v3/K\nstack'))).toBe('no key for sender 0xabc at https://x.io/***');
  });
});
