import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CHAINS_FILE, TEST_STATE_DIR } from './support/test-env';
import { adminAuth, createTestApp, TestApp } from './support/test-app';

describe('chains, health, metrics and docs', () => {
  describe('with the two local chains', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('GET /api/supported-chains lists the local chains with their capabilities', async () => {
      const res = await t.http().get('/api/supported-chains').expect(200);
      const byId: Record<number, { capabilities: unknown }> = Object.fromEntries((res.body.data as Array<{ id: number; capabilities: unknown }>).map((c) => [c.id, c]));
      expect(Object.keys(byId).map(Number).sort()).toEqual([10200001, 31337, 84532]);
      expect(byId[31337]).toEqual({
        id: 31337,
        name: 'Devnet',
        iconUrl: '',
        isTestnet: true,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        blockExplorers: { default: { name: expect.any(String), url: expect.any(String), apiUrl: expect.any(String) } },
        capabilities: { eip7702: true, flashBlocks: false, exchangeAction: false },
      });
      expect(byId[84532].capabilities).toEqual({ eip7702: true, flashBlocks: true, exchangeAction: false });
      expect(byId[10200001].capabilities).toEqual({ eip7702: false, flashBlocks: false, exchangeAction: true });
    });

    it('/health is ok with database, Redis and each chain', async () => {
      const res = await t.http().get('/health').expect(200);
      expect(res.body.status).toBe('ok');
      expect(res.body.checks.database.ok).toBe(true);
      expect(res.body.checks.redis.ok).toBe(true);
      expect(res.body.checks.chains.map((c: { chainId: number; healthy: boolean }) => [c.chainId, c.healthy])).toEqual([
        [31337, true],
        [84532, true],
        [10200001, true],
      ]);
    });

    it('/metrics exposes Prometheus text with request timings', async () => {
      await t.http().get('/api/supported-chains');
      const res = await t.http().get('/metrics').expect(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/api\/supported-chains"/);
      expect(res.text).toContain('process_cpu_user_seconds_total');
    });

    it('/docs renders and /docs-json lists every endpoint with the api-key scheme', async () => {
      const html = await t.http().get('/docs').redirects(1).expect(200);
      expect(html.text).toContain('swagger-ui');
      const res = await t.http().get('/docs-json').expect(200);
      expect(res.body.components.securitySchemes['api-key']).toEqual({ type: 'apiKey', in: 'header', name: 'api-key' });
      for (const path of ['/api/user', '/api/supported-chains', '/health', '/admin/health', '/admin/accounts', '/api/submit-tx', '/api/submit-tx-sync', '/api/quote', '/api/tx', '/api/submit-signed-tx']) expect(res.body.paths).toHaveProperty([path]);
      const userSchema = res.body.paths['/api/user'].get.responses['200'].content['application/json'].schema;
      expect(userSchema.properties.data.$ref).toContain('AccountViewDto');
      const txSchema = res.body.paths['/api/tx'].get.responses['200'].content['application/json'].schema;
      expect(txSchema.properties.data.$ref).toContain('TxRecordDto');
      expect(res.body.paths['/api/submit-tx'].post.requestBody.content['application/json'].schema.$ref).toContain('SubmitTxDto');
      // What clients generate from /docs-json is what the SDK's types were generated from.
      expect(res.body).toEqual(JSON.parse(readFileSync(join(__dirname, '..', 'packages', 'sdk', 'openapi.json'), 'utf8')));
    });
  });

  describe('with an unreachable and a disabled chain configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      const file = JSON.parse(readFileSync(TEST_CHAINS_FILE, 'utf8'));
      const template = file.chains[0];
      file.chains.push({ ...template, chainId: 999001, name: 'Down', rpcUrl: 'http://127.0.0.1:9' });
      file.chains.push({ ...template, chainId: 999002, name: 'Off', enabled: false });
      const path = join(TEST_STATE_DIR, 'chains-with-down.json');
      writeFileSync(path, JSON.stringify(file));
      t = await createTestApp({ env: { CHAINS_FILE: path } });
    });
    afterAll(() => t.close());

    it('starts anyway, leaves both out of supported-chains, and reports degraded health', async () => {
      const chains = await t.http().get('/api/supported-chains').expect(200);
      expect(chains.body.data.map((c: { id: number }) => c.id).sort()).toEqual([10200001, 31337, 84532]);
      const health = await t.http().get('/health').expect(200);
      expect(health.body.status).toBe('degraded');
      expect(health.body.checks.chains).toContainEqual(expect.objectContaining({ chainId: 999001, healthy: false }));
      expect(health.body.checks.chains.find((c: { chainId: number }) => c.chainId === 999002)).toBeUndefined();
      // Why it is down (a short code, never the provider's text) is the operators'.
      const detail = await t.http().get('/admin/health').set(adminAuth).expect(200);
      expect(detail.body.data.checks.chains.find((c: { chainId: number }) => c.chainId === 999001)).toMatchObject({ healthy: false, error: 'connection refused' });
    });
  });
});
