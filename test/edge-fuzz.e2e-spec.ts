import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import fc from 'fast-check';
import { envelopeKindFor } from '../src/common/envelope/envelope-kind';
import { ERROR_CATALOG, ErrorCode } from '../src/common/errors/error-catalog';
import { mintCall, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, ISO_MS, TestApp } from './support/test-app';
import { TEST_ADMIN_TOKEN } from './support/test-env';

/**
 * Property-based fuzzing of the whole HTTP surface: generated malformed bodies, queries and
 * headers for every endpoint. Every answer must come within 5 s, never be a 5xx the contract
 * does not assign to the endpoint, and be in the path's envelope with a catalog code.
 * Seeded (FUZZ_SEED to replay another run) and bounded (FUZZ_REQUESTS).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 5200);
const ONLY = process.env.FUZZ_ENDPOINT;
const CONCURRENCY = 8;
const SLOW_MS = 5000;

type Auth = 'key' | 'none' | 'admin';
interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  auth: Auth;
  /** Field names the endpoint knows, so generated inputs reach past the schema now and then. */
  fields: string[];
  /** 5xx codes interface.md assigns to the endpoint (the catalog code of a success-envelope answer). */
  assigned5xx?: ErrorCode[];
  /** A valid input (body, or query for GET) that generated requests mutate one field of, to get past the schema. */
  base?: (f: Fixtures) => unknown;
}

/** Fixed values for valid bases, so a seed always replays the same requests. */
interface Fixtures {
  usdc: string;
  dai: string;
  user: string;
  target: string;
  signedTx: string;
}

const TX_FIELDS = ['to', 'callData', 'chainId', 'value', 'gasLimit', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'maxUSD', 'label', 'transactionType', 'region', 'isAuthenticatedTx', 'derivationPath', 'authorizationList', 'validUntil'];
const SWAP_QUERY = ['fromChain', 'toChain', 'fromToken', 'toToken', 'amount', 'sender', 'receiver', 'slippage', 'feeBps', 'routeMode', 'Integrator', 'acquisitionMode'];
// interface.md: a call that reverts in simulation is 500 TRANSACTION_004; an RPC failure 500 CHAIN_003.
const RELAY_5XX: ErrorCode[] = ['TRANSACTION_004', 'CHAIN_003'];

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: '/api/auth/message', auth: 'none', fields: ['address'], base: (f) => ({ address: f.user }) },
  { method: 'POST', path: '/api/auth/verify', auth: 'none', fields: ['messageId', 'signature'], base: () => ({ messageId: '00000000-0000-0000-0000-000000000000', signature: '0x' + '11'.repeat(65) }) },
  { method: 'POST', path: '/api/submit-tx', auth: 'key', fields: TX_FIELDS, assigned5xx: RELAY_5XX, base: (f) => validTx(f) },
  { method: 'POST', path: '/api/submit-tx-sync', auth: 'key', fields: ['tx', 'timeoutMs', 'includeReceipt', 'includeRevertInfo', 'returnOnTxHash'], assigned5xx: RELAY_5XX, base: (f) => ({ tx: validTx(f), timeoutMs: 3000, returnOnTxHash: true }) },
  { method: 'POST', path: '/api/quote', auth: 'key', fields: TX_FIELDS, assigned5xx: RELAY_5XX, base: (f) => ({ ...validTx(f), transactionType: 'funding-signed' }) },
  { method: 'POST', path: '/api/submit-signed-tx', auth: 'key', fields: ['chainId', 'signedTx', 'label', 'maxUSD'], assigned5xx: RELAY_5XX, base: (f) => ({ chainId: 31337, signedTx: f.signedTx, label: 'fuzz' }) },
  { method: 'GET', path: '/api/tx', auth: 'none', fields: ['id', 'includeReceipt', 'includeRevertInfo'] },
  { method: 'POST', path: '/api/tx/{id}/cancel', auth: 'key', fields: [] },
  { method: 'POST', path: '/api/tx/{id}/speed-up', auth: 'key', fields: ['bumpPercent', 'maxFeePerGas', 'maxPriorityFeePerGas'], base: () => ({ bumpPercent: 20 }) },
  { method: 'GET', path: '/api/user', auth: 'none', fields: ['address'], base: (f) => ({ address: f.target }) },
  { method: 'GET', path: '/api/supported-chains', auth: 'none', fields: [] },
  { method: 'POST', path: '/api/user/register-webhooks', auth: 'key', fields: ['url', 'authType', 'secret', 'apiKeyVar', 'apiKeyPlacement', 'enabled'], base: () => ({ url: 'http://127.0.0.1:9/hook', authType: 'bearer', secret: 's3cret', enabled: true }) },
  { method: 'GET', path: '/quote', auth: 'key', fields: [...SWAP_QUERY, 'allowMultiBridge', 'priorityProvider', 'Referrer'], base: (f) => swapQuery(f) },
  { method: 'GET', path: '/build-best-path', auth: 'key', fields: SWAP_QUERY, base: (f) => swapQuery(f) },
  { method: 'POST', path: '/build-path-by-id', auth: 'key', fields: ['quoteId', 'simulation'] },
  { method: 'GET', path: '/tokens', auth: 'key', fields: ['chain_id'] },
  { method: 'GET', path: '/search-token', auth: 'key', fields: ['query', 'chainId'] },
  { method: 'GET', path: '/status', auth: 'key', fields: ['txHash', 'fromChain', 'userAddress'], base: (f) => ({ txHash: '0x' + 'ab'.repeat(32), fromChain: '31337', userAddress: f.user }) },
  { method: 'GET', path: '/gasless/quote', auth: 'key', fields: ['fromToken', 'toToken', 'amount', 'fromChain', 'toChain', 'sender', 'acquisitionMode', 'receiver', 'feeBps', 'slippage', 'deadlineMinutes', 'rankingMode'], base: (f) => ({ ...swapQuery(f), acquisitionMode: '2' }) },
  { method: 'POST', path: '/gasless/submit-swap', auth: 'key', fields: ['quoteId', 'signature'] },
  { method: 'GET', path: '/gasless/status', auth: 'key', fields: ['id'] },
  // interface.md: no settlement delegate for the chain is 500 SYSTEM_002; a failed share read 500 CHAIN_003; a failed relay 500 TRANSACTION_004.
  { method: 'POST', path: '/v1/quotes', auth: 'key', fields: ['userAddress', 'chain', 'asset', 'amount', 'riskTier', 'minApyBps'], assigned5xx: ['SYSTEM_002'], base: (f) => ({ userAddress: f.user, chain: 31337, asset: f.usdc, amount: '1000000', riskTier: 'balanced' }) },
  { method: 'POST', path: '/v1/withdrawals', auth: 'key', fields: ['userAddress', 'chain', 'vault', 'shares'], assigned5xx: ['CHAIN_003', 'SYSTEM_002'], base: (f) => ({ userAddress: f.user, chain: 31337, vault: f.usdc, shares: 'max' }) },
  { method: 'POST', path: '/v1/deposits', auth: 'key', fields: ['quoteId', 'authorization', 'executeSignature'], assigned5xx: ['TRANSACTION_004', 'SYSTEM_002'] },
  { method: 'GET', path: '/v1/orders/{id}', auth: 'key', fields: [] },
  { method: 'POST', path: '/admin/accounts', auth: 'admin', fields: ['address', 'creditUsd'], base: (f) => ({ address: f.target, creditUsd: 1 }) },
  { method: 'GET', path: '/admin/accounts/{address}', auth: 'admin', fields: [] },
  { method: 'GET', path: '/admin/accounts/{address}/audit', auth: 'admin', fields: [] },
  { method: 'POST', path: '/admin/accounts/{address}/credit', auth: 'admin', fields: ['usd'], base: () => ({ usd: 1 }) },
  { method: 'PATCH', path: '/admin/accounts/{address}/limits', auth: 'admin', fields: ['perTxLimit', 'dailyLimit', 'maxRetries', 'circuitBreakerEnabled', 'failureCountStreakLimit', 'disabledChainIds', 'disabled', 'rateLimitPerMinute'], base: () => ({ perTxLimit: 10, dailyLimit: 100, maxRetries: 2 }) },
  { method: 'POST', path: '/admin/accounts/{address}/keys', auth: 'admin', fields: [] },
  { method: 'POST', path: '/admin/keys/revoke', auth: 'admin', fields: ['key'] },
  { method: 'GET', path: '/admin/webhooks/dead-letters', auth: 'admin', fields: ['limit', 'cursor', 'userId'] },
  { method: 'GET', path: '/admin/audit-log', auth: 'admin', fields: ['limit', 'cursor'] },
  { method: 'POST', path: '/admin/webhooks/dead-letters/{id}/replay', auth: 'admin', fields: [] },
  { method: 'GET', path: '/api/{unknown}', auth: 'none', fields: [] },
];

const validTx = (f: Fixtures) => ({ chainId: 31337, to: f.usdc, callData: mintCall(f.user), value: '0', label: 'fuzz', maxUSD: 1 });
const swapQuery = (f: Fixtures) => ({ fromChain: '31337', toChain: '31337', fromToken: f.dai, toToken: f.usdc, amount: '100000000000000000000', sender: f.user });

interface Sample {
  endpoint: Endpoint;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body?: string;
}

function samples(apiKey: string, fixtures: Fixtures): Sample[] {
  const usdc = fixtures.usdc;
  // Values that have broken parsers, columns or conversions somewhere: boundaries, encodings, types.
  const nasty = fc.constantFrom<unknown>(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '💥'.repeat(50),
    'x'.repeat(5000),
    '0x',
    '0x0',
    '0xZZ',
    '-1',
    '0',
    '1e21',
    '1.5',
    'NaN',
    'Infinity',
    'true',
    'null',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    "'; DROP TABLE accounts; --",
    (2n ** 256n).toString(),
    '9'.repeat(80),
    '0x' + 'f'.repeat(64),
    '0x' + 'f'.repeat(130),
    '0x' + '1'.repeat(40),
    usdc,
    usdc.toLowerCase(),
    usdc.replace(/[a-f]/, (c) => c.toUpperCase()),
    '0x' + usdc.slice(2).toUpperCase(),
    mintCall(fixtures.user),
    "m/44'/60'/0'/0/1",
    "m/44'/60'/0'/0/99999999999",
    'http://127.0.0.1:1/hook',
    'ftp://x',
    'flash',
    'funding-signed',
    'flash-blocks',
    'max',
    -1,
    0,
    1,
    31337,
    84532,
    10200001,
    2 ** 31,
    2 ** 53,
    1e21,
    1e308,
    -1e308,
    0.1,
    -0,
    true,
    false,
    null,
    [],
    {},
    [null],
    { r: '0x1', s: '0x2', v: 27 },
  );
  const value: fc.Arbitrary<unknown> = fc.oneof({ weight: 3, arbitrary: nasty }, { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) });

  const objectFor = (fields: string[]): fc.Arbitrary<Record<string, unknown>> =>
    fields.length === 0
      ? fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 })
      : fc
          .tuple(fc.subarray(fields), fc.array(value, { minLength: fields.length, maxLength: fields.length }), fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 2 }))
          .map(([chosen, values, extra]) => ({ ...extra, ...Object.fromEntries(chosen.map((f, i) => [f, values[i]])) }));

  const rawBody = fc.constantFrom(
    '',
    '{',
    '{"a":',
    'null',
    '"string"',
    '42',
    '[]',
    '[[[[[[',
    '{"a":1,"a":2}',
    '\u0000',
    '\ufeff{}',
    '{"__proto__":{"polluted":true}}',
    '['.repeat(5000) + ']'.repeat(5000),
    '{"a":'.repeat(200) + '1' + '}'.repeat(200),
    '{"x":"' + 'y'.repeat(300_000) + '"}',
  );

  /** The endpoint's valid input with one field (nested `tx.` fields of submit-tx-sync too) replaced by a generated value, or removed. */
  const mutated = (e: Endpoint): fc.Arbitrary<Record<string, unknown>> => {
    const base = e.base!(fixtures) as Record<string, unknown>;
    const nested = typeof base.tx === 'object' ? TX_FIELDS.map((f) => `tx.${f}`) : [];
    const keys = [...new Set([...Object.keys(base), ...e.fields, ...nested])];
    return fc.tuple(fc.constantFrom(...keys), fc.option(value, { freq: 8, nil: undefined })).map(([key, v]) => {
      const [outer, inner] = key.split('.');
      const copy: Record<string, unknown> = { ...base };
      const target = inner ? (copy[outer] = { ...(base[outer] as object) }) as Record<string, unknown> : copy;
      const field = inner ?? outer;
      if (v === undefined) delete target[field];
      else target[field] = v;
      return copy;
    });
  };

  const bodyFor = (e: Endpoint): fc.Arbitrary<string | undefined> =>
    fc.oneof(
      { weight: e.base ? 5 : 0, arbitrary: e.base ? mutated(e).map((o) => JSON.stringify(e.path === '/api/user/register-webhooks' ? [o] : o)) : fc.constant(undefined) },
      { weight: 4, arbitrary: objectFor(e.fields).map((o) => JSON.stringify(o)) },
      { weight: 1, arbitrary: fc.array(objectFor(e.fields), { maxLength: 3 }).map((a) => JSON.stringify(a)) },
      { weight: 1, arbitrary: objectFor(['tx']).map((o) => JSON.stringify(e.path === '/api/submit-tx-sync' ? { tx: o } : o)) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: rawBody },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );

  const asQuery = (o: Record<string, unknown>): Record<string, string | string[]> =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')]));
  const randomQuery = (e: Endpoint): fc.Arbitrary<Record<string, string | string[]>> =>
    fc
      .tuple(fc.subarray(e.fields), fc.array(fc.oneof(value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '')), fc.array(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 3 })), { minLength: e.fields.length, maxLength: e.fields.length }))
      .map(([chosen, values]) => Object.fromEntries(chosen.map((f, i) => [f, values[i] as string | string[]])));
  const queryFor = (e: Endpoint): fc.Arbitrary<Record<string, string | string[]>> =>
    e.base ? fc.oneof({ weight: 2, arbitrary: mutated(e).map(asQuery) }, { weight: 1, arbitrary: randomQuery(e) }) : randomQuery(e);

  const headersFor = (e: Endpoint): fc.Arbitrary<Record<string, string>> =>
    fc
      .record(
        {
          auth: fc.constantFrom('right', 'right', 'right', 'wrong', 'absent', 'bearer-junk'),
          contentType: fc.constantFrom('application/json', 'application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', ''),
          region: fc.option(fc.constantFrom('us-east', 'nowhere', '\u00ff', 'x'.repeat(500)), { nil: undefined }),
          extra: fc.option(fc.constantFrom<[string, string]>(['idempotency-key', 'k'], ['x-trace-id', '../../x'], ['origin', 'http://evil.example'], ['x-forwarded-for', '1.2.3.4, ::1'], ['accept', 'text/html'], ['x-long', 'v'.repeat(8000)]), { nil: undefined }),
        },
        { requiredKeys: ['auth', 'contentType'] },
      )
      .map(({ auth, contentType, region, extra }) => {
        const headers: Record<string, string> = {};
        const right = e.auth === 'admin' ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : { 'api-key': apiKey };
        if (auth === 'right') Object.assign(headers, right);
        if (auth === 'wrong') Object.assign(headers, e.auth === 'admin' ? { authorization: 'Bearer nope' } : { 'api-key': 'rk_wrong' });
        if (auth === 'bearer-junk') headers.authorization = 'Bearer a.b.c';
        if (contentType) headers['content-type'] = contentType;
        if (region) headers['x-relay-region'] = region;
        if (extra) headers[extra[0]] = extra[1];
        return headers;
      });

  const pathParam = fc.oneof(nasty.map((v) => String(v)), fc.string({ maxLength: 20 }), fc.constant(fixtures.target), fc.constant('00000000-0000-0000-0000-000000000000'));
  const sampleFor = (e: Endpoint): fc.Arbitrary<Sample> =>
    fc.record({ query: queryFor(e), headers: headersFor(e), body: e.method === 'GET' ? fc.constant(undefined) : bodyFor(e), param: pathParam }).map(({ query, headers, body, param }) => ({
      endpoint: e,
      path: e.path.replace(/\{\w+\}/, percentEncode(param) || '%20'),
      query: e.method === 'GET' ? query : {},
      headers,
      body,
    }));

  const perEndpoint = Math.ceil(TOTAL / ENDPOINTS.length);
  // FUZZ_ENDPOINT (a path substring) replays one endpoint's share of a run: the same samples.
  return ENDPOINTS.flatMap((e, i) => (ONLY && !e.path.includes(ONLY) ? [] : fc.sample(sampleFor(e), { seed: SEED + i, numRuns: perEndpoint })));
}

/** Byte-wise, so lone surrogates and NUL travel as what a client could send. */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');
}

interface Outcome {
  sample: Sample;
  status: number;
  ms: number;
  body: string;
  problem?: string;
}

function send(port: number, agent: Agent, s: Sample): Promise<Outcome> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(s.query)) for (const one of Array.isArray(v) ? v : [v]) qs.append(k, one);
  const path = qs.size ? `${s.path}?${qs}` : s.path;
  const started = Date.now();
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...s.headers };
    if (s.body !== undefined) headers['content-length'] = Buffer.byteLength(s.body);
    const req = httpRequest({ host: '127.0.0.1', port, path, method: s.endpoint.method, headers, agent, timeout: SLOW_MS * 2 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ sample: s, status: res.statusCode ?? 0, ms: Date.now() - started, body: text }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ sample: s, status: 0, ms: Date.now() - started, body: '', problem: `transport: ${err.message}` }));
    req.end(s.body);
  });
}

/** Every field any of the three response shapes may have; judge checks which are there. */
interface Envelope {
  success?: unknown;
  data?: unknown;
  timestamp?: string;
  code?: unknown;
  message?: unknown;
  error?: { code: string; message?: unknown; category?: unknown; traceId?: unknown };
}

/** What is wrong with an answer, or undefined. */
function judge(o: Outcome): string | undefined {
  if (o.problem) return o.problem;
  if (o.ms > SLOW_MS) return `slow: ${o.ms} ms`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(o.body);
  } catch {
    return 'off envelope: not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'off envelope: not a JSON object';
  const body = parsed as Envelope;
  const kind = envelopeKindFor(o.sample.path);
  if (o.status < 400) {
    if (kind === 'code') return body.code === 0 && 'data' in body ? undefined : 'off envelope: code-envelope success';
    // register-webhooks answers a bare object (interface.md).
    if (o.sample.endpoint.path === '/api/user/register-webhooks') return undefined;
    return body.success === true && 'data' in body && ISO_MS.test(body.timestamp ?? '') ? undefined : 'off envelope: success envelope';
  }
  if (kind === 'code') {
    if (body.code !== o.status || body.data !== null || typeof body.message !== 'string') return 'off envelope: code-envelope error';
    if (o.status >= 500) return 'unassigned 5xx';
    return undefined;
  }
  const error = body.error;
  if (body.success !== false || !error || typeof error.message !== 'string' || typeof error.traceId !== 'string' || !ISO_MS.test(body.timestamp ?? '')) return 'off envelope: error envelope';
  if (!(error.code in ERROR_CATALOG)) return `not a catalog code: ${error.code}`;
  if (ERROR_CATALOG[error.code as ErrorCode].status !== o.status) return `status ${o.status} does not match ${error.code}`;
  if (error.category !== error.code.split('_')[0]) return 'wrong category';
  if (o.status >= 500 && !(o.sample.endpoint.assigned5xx ?? []).includes(error.code as ErrorCode)) return `unassigned 5xx: ${error.code}`;
  return undefined;
}

describe('API edge fuzz: every endpoint, generated malformed input', () => {
  let t: TestApp;
  let port: number;
  let apiKey: string;
  let fixtures: Fixtures;

  beforeAll(async () => {
    // The per-key limit would answer most of the run with 429 and hide what lies behind it.
    t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
    ({ apiKey } = await createAccount(t, 5));
    const target = await createAccount(t, 1);
    const chain = testChain(31337);
    const usdc = token(chain, 'USDC');
    const user = new Wallet('0x' + '42'.repeat(32));
    fixtures = {
      usdc,
      dai: token(chain, 'DAI'),
      user: user.address,
      target: target.address,
      // nonce far ahead of the wallet's: refused after parsing, so replays never broadcast.
      signedTx: await user.signTransaction({ chainId: 31337, to: usdc, data: mintCall(user.address), nonce: 1_000_000, gasLimit: 100_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, type: 2 }),
    };
  });
  afterAll(() => t.close());

  it(`answers ${TOTAL}+ generated requests with no unassigned 5xx, none slower than ${SLOW_MS} ms, all in the envelope with a catalog code`, async () => {
    const all = samples(apiKey, fixtures);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const outcomes: Outcome[] = [];
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < all.length) outcomes.push(await send(port, agent, all[next++]));
      }),
    );
    agent.destroy();
    const seconds = (Date.now() - started) / 1000;

    const failures = outcomes.map((o) => ({ o, why: judge(o) })).filter((f) => f.why !== undefined);
    const count = (prefix: string) => failures.filter((f) => f.why!.startsWith(prefix)).length;
    const byStatus = outcomes.reduce<Record<string, number>>((acc, o) => ((acc[o.status] = (acc[o.status] ?? 0) + 1), acc), {});
    const assigned = outcomes
      .filter((o) => o.status >= 500)
      .reduce<Record<string, number>>((acc, o) => {
        const key = `${o.sample.endpoint.path} ${/"code":"(\w+)"/.exec(o.body)?.[1] ?? o.status}`;
        return (acc[key] = (acc[key] ?? 0) + 1), acc;
      }, {});
    const endpoints = new Set(outcomes.map((o) => `${o.sample.endpoint.method} ${o.sample.endpoint.path}`));
    console.log(
      [
        `edge fuzz: seed ${SEED}, ${outcomes.length} requests across ${endpoints.size} endpoints in ${seconds.toFixed(1)} s`,
        `  statuses: ${JSON.stringify(byStatus)}; 5xx by endpoint and code: ${JSON.stringify(assigned)}`,
        `  unassigned 5xx: ${count('unassigned 5xx')}, slow (> ${SLOW_MS} ms): ${count('slow')}, off envelope: ${count('off envelope')}, ` +
          `not a catalog code or wrong status: ${count('not a catalog code') + count('status ') + count('wrong category')}, transport errors: ${count('transport')}`,
        ...failures.slice(0, 15).map(({ o, why }) => `  ${why}: ${o.sample.endpoint.method} ${o.sample.path} ${JSON.stringify(o.sample.query).slice(0, 400)} ${String(o.sample.body).slice(0, 1000)} -> ${o.status} ${o.body.slice(0, 200)}`),
      ].join('\n'),
    );
    if (!ONLY) {
      expect(outcomes.length).toBeGreaterThanOrEqual(5000);
      expect(endpoints.size).toBe(ENDPOINTS.length);
    }
    expect(failures.map(({ o, why }) => `${why}: ${o.sample.endpoint.method} ${o.sample.path} -> ${o.status} ${o.body.slice(0, 300)}`)).toEqual([]);
  }, 180_000);
});
