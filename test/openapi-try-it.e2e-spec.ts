import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { DataSource } from 'typeorm';
import { provider, testChain } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * "Try it out" against the real application: every operation with a request body is sent its
 * example from the served document (/docs-json), with the credentials its `security` names, and
 * must not be refused as an invalid request. Operations whose examples name things that exist
 * (the account the admin example creates, the chain of the relay examples) must succeed; the
 * rest may get a business answer (unknown quote, unknown transaction), never a validation 400.
 */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Codes that mean "this request is malformed", as opposed to "this request cannot be done now". */
const VALIDATION_CODES = /^(VALIDATION_\d{3}|USER_003|TRANSACTION_005)$/;
/** Examples that create or use what they name, so their answer must be a success. */
const MUST_SUCCEED: Record<string, number[]> = {
  'POST /admin/accounts': [201],
  'POST /api/submit-tx': [201],
  'POST /api/quote': [201],
  'POST /api/submit-tx-sync': [200, 202],
  'POST /api/user/register-webhooks': [200],
  'POST /api/policies': [201],
  'POST /api/auth/message': [200, 201],
  'POST /admin/accounts/{address}/credit': [200],
  'PATCH /admin/accounts/{address}/limits': [200],
};
/**
 * Run order: the relay examples first, then those that change the account (a policy whose window
 * starts later, then the admin limits, whose example IP allow-list shuts out 127.0.0.1).
 */
const rank = (id: string) => (id.includes('/admin/accounts/{address}/limits') ? 4 : id.includes('/admin/') ? 3 : id.includes('/api/policies') ? 2 : id.includes('submit') || id.includes('/quote') ? 0 : 1);

describe('OpenAPI Try-it-out: each example request is accepted by the running service', () => {
  let t: TestApp;
  let doc: OpenAPIObject;
  let apiKey: string;
  let receiver: WebhookReceiver;
  let seeded: { status: number; message: string };

  beforeAll(async () => {
    t = await createTestApp();
    receiver = await WebhookReceiver.start();
    doc = (await t.http().get('/docs-json').expect(200)).body as OpenAPIObject;
    // The relay examples' maxUSD covers their call at the local chain's usual fee (1 gwei base),
    // not at whatever base fee an earlier spec of the run left on the shared chain.
    const rpc = provider(testChain((exampleOf('POST', '/api/submit-tx') as { chainId: number }).chainId));
    await rpc.send('anvil_setNextBlockBaseFeePerGas', ['0x3b9aca00']);
    await rpc.send('evm_mine', []);
    rpc.destroy();
    // The account the examples name (POST /admin/accounts' own example), with an API key; in a
    // database another spec of the run already gave that address an account, a new key for it.
    const body = exampleOf('POST', '/admin/accounts') as { address: string };
    const created = await t.http().post('/admin/accounts').set(adminAuth).send(body);
    seeded = { status: created.status, message: created.body.error?.message ?? '' };
    if (created.status === 201) apiKey = created.body.data.apiKey;
    else {
      // Left by an earlier run of this spec on the same database: undo what its examples set
      // (the IP allow-list, a policy whose window has not started), so the relay examples can pass.
      apiKey = (await t.http().post(`/admin/accounts/${body.address}/keys`).set(adminAuth).expect(201)).body.data.apiKey;
      await t.http()
        .patch(`/admin/accounts/${body.address}/limits`)
        .set(adminAuth)
        .send({ ipWhitelist: [], domainWhitelist: [], allowedTargets: [], approvalWebhook: null, disabled: false, disabledChainIds: [] })
        .expect(200);
      const policies = (await t.http().get('/api/policies').set('api-key', apiKey).expect(200)).body.data as Array<{ id: string }>;
      for (const policy of policies) await t.http().delete(`/api/policies/${policy.id}`).set('api-key', apiKey).expect(200);
    }
  }, 120_000);
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const exampleOf = (method: string, path: string): unknown =>
    (doc.paths[path][method.toLowerCase() as 'post']!.requestBody as { content: Record<string, { example: unknown }> }).content['application/json'].example;

  const operations = () => {
    const ops: Array<{ id: string; method: string; path: string; op: OperationObject }> = [];
    for (const [path, item] of Object.entries(doc.paths)) for (const method of METHODS) if (item[method]?.requestBody) ops.push({ id: `${method.toUpperCase()} ${path}`, method, path, op: item[method]! });
    return ops.sort((a, b) => rank(a.id) - rank(b.id));
  };

  it('serves servers = PUBLIC_ORIGIN', () => {
    expect(doc.servers).toEqual([{ url: 'http://localhost:3000', description: expect.any(String) }]);
  });

  it('accepts every example request body (no validation 400), and succeeds where the example names what exists', async () => {
    const results: Array<{ id: string; status: number; code: string | undefined; message?: string }> = [];
    for (const { id, method, path, op } of operations()) {
      // Sent once already, by beforeAll (the seed); a second time it would only meet its own account.
      if (id === 'POST /admin/accounts') {
        const existed = seeded.status === 400 && /already exists/.test(seeded.message);
        results.push({ id, status: existed ? 201 : seeded.status, code: undefined });
        continue;
      }
      const params = (op.parameters ?? []) as ParameterObject[];
      const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(params.find((p) => p.name === name && p.in === 'path')?.example)));
      const query = Object.fromEntries(params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, String(p.example)]));
      const auth = (op as unknown as Record<string, string>)['x-auth'];
      let req = t.http()[method as 'post'](url).query(query);
      if (auth === 'admin') req = req.set(adminAuth);
      else if (auth !== 'public') req = req.set('api-key', apiKey);
      const example = (op.requestBody as { content: Record<string, { example: unknown }> }).content['application/json'].example;
      const res = await req.send(example as object);
      results.push({ id, status: res.status, code: res.headers['x-error-code'] as string | undefined, message: res.body?.error?.message ?? res.body?.message });
      // Webhook URLs are resolved at registration and only public addresses are accepted; this
      // machine may have no DNS, so the example's host can be refused as unreachable. The example
      // must then pass with only its URL pointed at a local receiver.
      const webhooks = results[results.length - 1];
      if (id === 'POST /api/user/register-webhooks' && webhooks.status === 400) {
        const local = (exampleOf('POST', '/api/user/register-webhooks') as Array<{ url: string }>).map((w) => ({ ...w, url: receiver.url('/try-it') }));
        expect(webhooks.message).toMatch(/^\[0\]\.url refused: address not allowed$/);
        const retried = await t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send(local);
        Object.assign(webhooks, { status: retried.status, code: retried.headers['x-error-code'], message: retried.body?.error?.message });
      }
      if (process.env.PRINT_TRY_IT) process.stdout.write(`${id} ${res.status} ${JSON.stringify(res.body).slice(0, 300)}\n`);
    }
    const refused = results.filter((r) => r.status === 400 && VALIDATION_CODES.test(r.code ?? ''));
    expect(refused).toEqual([]);
    const failedSuccesses = results.filter((r) => MUST_SUCCEED[r.id] && !MUST_SUCCEED[r.id].includes(r.status));
    expect(failedSuccesses).toEqual([]);
    // Every operation answered with a status its document declares.
    const undeclared = results.filter((r) => {
      const [method, path] = r.id.split(' ');
      return !Object.keys(doc.paths[path][method.toLowerCase() as 'post']!.responses).includes(String(r.status));
    });
    expect(undeclared).toEqual([]);
    expect(results.length).toBeGreaterThanOrEqual(18);
  }, 180_000);

  it('a real 429 carries the RateLimit-* headers and Retry-After the document declares for the route', async () => {
    const limited = await createAccount(t);
    await t.app.get(DataSource).query('UPDATE api_keys SET rate_limit_per_minute = 1 WHERE user_id = $1', [limited.userId]);
    const op = doc.paths['/api/quote'].post!;
    const example = (op.requestBody as { content: Record<string, { example: object }> }).content['application/json'].example;
    const first = await t.http().post('/api/quote').set('api-key', limited.apiKey).send(example).expect(201);
    const second = await t.http().post('/api/quote').set('api-key', limited.apiKey).send(example).expect(429);
    expect(second.body.error.code).toBe('RESOURCE_003');
    const declared429 = Object.keys((op.responses['429'] as ResponseObject).headers ?? {});
    const declared201 = Object.keys((op.responses['201'] as ResponseObject).headers ?? {});
    expect(declared429).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']));
    expect(declared201).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    for (const name of declared429.filter((h) => h.startsWith('RateLimit-') || h === 'Retry-After')) expect([name, second.headers[name.toLowerCase()]]).toEqual([name, expect.stringMatching(/^\d+$/)]);
    for (const name of declared201.filter((h) => h.startsWith('RateLimit-'))) expect([name, first.headers[name.toLowerCase()]]).toEqual([name, expect.stringMatching(/^\d+$/)]);
    expect(second.headers['ratelimit-limit']).toBe('1');
    expect(second.headers['ratelimit-remaining']).toBe('0');
  });
});
