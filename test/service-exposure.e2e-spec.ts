import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { ChainHealthService } from '../src/modules/chains';
import { OpsListener } from '../src/modules/health';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { TEST_ADMIN_TOKEN, TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';

const SECRET = 'SECRETKEY123';
type Mode = 'forward' | 'nonce429' | '429' | '503' | 'refuse';

/**
 * A provider whose URL holds an API key (`/v3/SECRETKEY123`, as Infura's), in front of the
 * local anvil: it forwards, answers HTTP 429 (with Retry-After, as hosted providers do) to every
 * call or only to eth_getTransactionCount, answers 503, or refuses connections (the listener
 * closed, the port kept).
 */
async function keyedProvider(anvilPort: number): Promise<{ url: string; set(mode: Mode): Promise<void>; close(): Promise<void> }> {
  let mode: Mode = 'forward';
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const throttled = mode === '429' || (mode === 'nonce429' && body.includes('"eth_getTransactionCount"'));
      if (throttled || mode === '503' || req.url !== `/v3/${SECRET}`) {
        res.writeHead(throttled ? 429 : mode === '503' ? 503 : 404, { 'content-type': 'application/json', 'retry-after': '1' }).end(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'daily request count exceeded, request rate limited' } }));
        return;
      }
      fetch(`http://127.0.0.1:${anvilPort}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (upstream) => res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text()),
        () => res.destroy(),
      );
    });
  };
  let server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const stop = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    url: `http://127.0.0.1:${port}/v3/${SECRET}`,
    async set(next) {
      if (next === 'refuse') await stop();
      else if (!server.listening) {
        server = createServer(handle);
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      }
      mode = next;
    },
    close: stop,
  };
}

/** Everything the process writes to stdout and stderr while `on`. */
function captureOutput(): { text: () => string; stop: () => void } {
  const chunks: string[] = [];
  const originals = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  const tap = (original: typeof process.stdout.write) =>
    ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString());
      return (original as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  process.stdout.write = tap(originals.out);
  process.stderr.write = tap(originals.err);
  return {
    text: () => chunks.join(''),
    stop: () => {
      process.stdout.write = originals.out;
      process.stderr.write = originals.err;
    },
  };
}

const ADDRESS = /0x[0-9a-fA-F]{40}/;

describe('what the service shows about itself', () => {
  describe('a provider whose URL holds a key', () => {
    let t: TestApp;
    let provider: Awaited<ReturnType<typeof keyedProvider>>;
    let output: ReturnType<typeof captureOutput>;
    let apiKey: string;
    const chain = testChain(31337);
    const tx = () => ({ chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()) });
    const previousLogs = process.env.TEST_LOGS;

    beforeAll(async () => {
      const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
      const local = file.chains.find((c: { chainId: number }) => c.chainId === 31337);
      provider = await keyedProvider(Number(new URL(local.rpcUrl).port));
      local.rpcUrl = provider.url;
      const path = join(TEST_STATE_DIR, 'chains-keyed-provider.json');
      writeFileSync(path, JSON.stringify(file));
      // From the start: the workers' first nonce reads of 31337 meet the 429.
      await provider.set('nonce429');
      output = captureOutput();
      process.env.TEST_LOGS = '1';
      // The reconciler's nonce checks at the default interval (5 s): at the tests' 1 s, each pass met
      // the 429 again just as its 1 s Retry-After ran out, so the provider could stay backed off for
      // good and no estimate reached it (seen once in CI).
      t = await createTestApp({ env: { CHAINS_FILE: path, CHAIN_HEALTH_INTERVAL_MS: '600000', RPC_TIMEOUT_MS: '3000', RELAY_RECONCILE_INTERVAL_MS: '5000' } });
      ({ apiKey } = await createAccount(t, 50));
    });
    afterAll(async () => {
      output.stop();
      if (previousLogs === undefined) delete process.env.TEST_LOGS;
      else process.env.TEST_LOGS = previousLogs;
      await t.close();
      await provider.close();
    });

    it('a provider answering 429 to nonce reads is backed off for its Retry-After: a submission is refused with the code or waits, never FAILED, never showing the key', async () => {
      // The workers' nonce reads met the 429 at start: the provider is backed off (Retry-After 1 s),
      // so the estimate is either refused with the code or, once the back-off ran out, accepted.
      let accepted: request.Response | undefined;
      for (let i = 0; i < 20 && !accepted; i++) {
        const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx());
        expect(res.text).not.toContain(SECRET);
        if (res.status === 201) accepted = res;
        else {
          expect(res.body.error).toMatchObject({ code: 'CHAIN_003', message: 'blockchain RPC error (http 429)' });
          await new Promise((r) => setTimeout(r, 300));
        }
      }
      expect(accepted).toBeDefined();
      // Its nonce read keeps meeting 429s: the chain has no provider to send through, so it waits.
      await new Promise((r) => setTimeout(r, 4000));
      const record = (await t.http().get('/api/tx').query({ id: accepted!.body.data.txId }).expect(200)).body.data;
      expect(record.status).toBe('PENDING');
      expect(JSON.stringify(record)).not.toContain(SECRET);
    });

    it('a provider answering 429: quote and submit say CHAIN_003 (http 429); /health, /admin/health, supported-chains and /metrics never show the key', async () => {
      await provider.set('429');
      for (const path of ['/api/quote', '/api/submit-tx']) {
        const res = await t.http().post(path).set('api-key', apiKey).send(tx()).expect(500);
        expect(res.text).not.toContain(SECRET);
        expect(res.body.error).toMatchObject({ code: 'CHAIN_003', message: 'blockchain RPC error (http 429)' });
      }
      await t.app.get(ChainHealthService).checkAll();
      const health = await t.http().get('/health').expect(200);
      expect(health.body.status).toBe('degraded');
      expect(health.body.checks.chains).toContainEqual(expect.objectContaining({ chainId: 31337, healthy: false }));
      const detail = await t.http().get('/admin/health').set(adminAuth).expect(200);
      expect(detail.body.data.checks.chains.find((c: { chainId: number }) => c.chainId === 31337)).toMatchObject({ healthy: false, error: 'http 429' });
      const chains = await t.http().get('/api/supported-chains').expect(200);
      expect(chains.body.data.map((c: { id: number }) => c.id)).not.toContain(31337);
      const metrics = await t.http().get('/metrics').expect(200);
      for (const res of [health, detail, chains, metrics]) expect(res.text).not.toContain(SECRET);
      // A provider appears only as its redacted form (scheme, host and port), never with its path.
      expect(metrics.text).toContain(`chain_rpc_provider_healthy{chain="31337",provider="http://127.0.0.1:${new URL(provider.url).port}/***"} 0`);
      expect(metrics.text).not.toContain('/v3/');
      expect(health.body.checks.chains.find((c: { chainId: number }) => c.chainId === 31337).providers).toEqual([
        expect.objectContaining({ url: `http://127.0.0.1:${new URL(provider.url).port}/***`, healthy: false, backedOffUntil: expect.any(String) }),
      ]);
    });

    it('a provider answering 503: public /health shows neither the key nor the error, the answers and /admin/health say http 503', async () => {
      await provider.set('503');
      await t.app.get(ChainHealthService).checkAll();
      const health = await t.http().get('/health').expect(200);
      expect(health.text).not.toContain(SECRET);
      expect(health.body.checks.chains).toContainEqual(expect.objectContaining({ chainId: 31337, healthy: false }));
      const res = await t.http().post('/api/quote').set('api-key', apiKey).send(tx()).expect(500);
      expect(res.text).not.toContain(SECRET);
      expect(res.body.error).toMatchObject({ code: 'CHAIN_003', message: 'blockchain RPC error (http 503)' });
      const detail = await t.http().get('/admin/health').set(adminAuth).expect(200);
      expect(detail.text).not.toContain(SECRET);
      expect(detail.body.data.checks.chains.find((c: { chainId: number }) => c.chainId === 31337)).toMatchObject({ healthy: false, error: 'http 503' });
    });

    it('a provider refusing connections: the answers say CHAIN_003 (connection refused), the admin health the same code', async () => {
      await provider.set('refuse');
      const res = await t.http().post('/api/quote').set('api-key', apiKey).send(tx()).expect(500);
      expect(res.body.error).toMatchObject({ code: 'CHAIN_003', message: 'blockchain RPC error (connection refused)' });
      await t.app.get(ChainHealthService).checkAll();
      const detail = await t.http().get('/admin/health').set(adminAuth).expect(200);
      expect(detail.body.data.checks.chains.find((c: { chainId: number }) => c.chainId === 31337)).toMatchObject({ healthy: false, error: 'connection refused' });
      expect(res.text + detail.text).not.toContain(SECRET);
    });

    it('public /health is status only: no addresses, balances, latencies, hosts or error text; the detail is at /admin/health', async () => {
      await provider.set('forward');
      await t.app.get(ChainHealthService).checkAll();
      const health = await t.http().get('/health').expect(200);
      expect(Object.keys(health.body).sort()).toEqual(['checks', 'status', 'timestamp']);
      expect(health.body.checks.database).toEqual({ ok: true });
      expect(health.body.checks.redis).toEqual({ ok: true });
      for (const c of health.body.checks.chains) expect(Object.keys(c).sort()).toEqual(['chainId', 'healthy', 'providers']);
      // The providers block of extensions.md: each provider by its redacted URL and numbers, nothing else.
      for (const c of health.body.checks.chains) {
        for (const p of c.providers) expect(Object.keys(p).sort()).toEqual(['backedOffUntil', 'errorRate', 'headBlock', 'healthy', 'lagBlocks', 'latencyMsP50', 'url']);
      }
      expect(health.text).not.toMatch(ADDRESS);
      const { chains, ...rest } = health.body.checks;
      expect(JSON.stringify({ ...rest, chains: chains.map((c: { chainId: number; healthy: boolean }) => ({ chainId: c.chainId, healthy: c.healthy })) })).not.toMatch(/balance|treasury|relayer|latency|error|http/i);

      await t.http().get('/admin/health').expect(401);
      const detail = await t.http().get('/admin/health').set(adminAuth).expect(200);
      const local = detail.body.data.checks.chains.find((c: { chainId: number }) => c.chainId === 31337);
      expect(local).toMatchObject({ healthy: true, error: null, blockNumber: expect.any(Number) });
      expect(local.relayers.keys[0]).toMatchObject({ address: expect.stringMatching(ADDRESS), region: expect.any(String) });
      expect(local.relayers.treasury).toMatchObject({ address: expect.stringMatching(ADDRESS) });
      expect(detail.text).not.toContain(SECRET);
    });

    it('the logs never show the key (the failures above are logged with their codes)', () => {
      const logs = output.text();
      expect(logs).not.toContain(SECRET);
      expect(logs).toContain('http 429');
      expect(logs).toContain('http 503');
      expect(logs).toContain('connection refused');
    });
  });

  describe('/metrics access', () => {
    it('in production, /metrics on the API port needs a token: refused without, served to the admin token', async () => {
      // What production may also require of its config elsewhere (a public origin, no treasury path on the relayer mnemonic).
      const t = await createTestApp({ env: { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://relay.example.com', RELAYER_TREASURY_PATH: undefined } });
      try {
        const refused = await t.http().get('/metrics').expect(401);
        expect(refused.body.error.code).toBe('AUTH_001');
        expect(refused.text).not.toContain('relayer_balance_wei');
        await t.http().get('/metrics').set('authorization', 'Bearer not-the-token-0123456789').expect(401);
        const served = await t.http().get('/metrics').set(adminAuth).expect(200);
        expect(served.text).toContain('process_cpu_user_seconds_total');
      } finally {
        await t.close();
      }
    });

    it('METRICS_TOKEN and METRICS_PORT: the API port serves the token (or the admin token) only, the internal port serves /metrics alone without one', async () => {
      const metricsToken = 'metrics-token-0123456789abcdef';
      const t = await createTestApp({ env: { METRICS_TOKEN: metricsToken, METRICS_PORT: '0' } });
      try {
        await t.http().get('/metrics').expect(401);
        await t.http().get('/metrics').set('authorization', `Bearer ${metricsToken}x`).expect(401);
        expect((await t.http().get('/metrics').set('authorization', `Bearer ${metricsToken}`).expect(200)).text).toContain('process_cpu_user_seconds_total');
        await t.http().get('/metrics').set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`).expect(200);
        const port = t.app.get(OpsListener).port;
        expect(port).toEqual(expect.any(Number));
        const internal = request(`http://127.0.0.1:${port}`);
        const scraped = await internal.get('/metrics').expect(200);
        expect(scraped.headers['content-type']).toContain('text/plain');
        expect(scraped.text).toContain('process_cpu_user_seconds_total');
        await internal.get('/health').expect(404);
        await internal.get('/api/supported-chains').expect(404);
      } finally {
        await t.close();
      }
      expect(t.app.get(OpsListener).port).toBeNull();
    });
  });
});
