import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer, Socket, connect } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import type { TestApp } from './support/test-app';
import { waitForTxs } from './support/wait-for-tx';
import { TEST_ADMIN_TOKEN, TEST_STATE_DIR, testEnv } from './support/test-env';

const ROOT = join(__dirname, '..');

interface Role {
  child: ChildProcess;
  port: number;
  /** Every line the process wrote (stdout and stderr), in order. */
  lines: string[];
}

/**
 * A real process of the given role (ts-node src/main.ts, as spawnWorker does), JSON logs, on an
 * ephemeral port; resolves once it names its port. Killed by the caller (or if it never starts).
 */
function startRole(role: 'api' | 'worker', env: Record<string, string>): Promise<Role> {
  const child = spawn(join(ROOT, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...testEnv(), LOG_FORMAT: 'json', ...env, APP_ROLE: role, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const log = createWriteStream(join(TEST_STATE_DIR, `observability-${role}-${child.pid}.log`));
  let rest = '';
  const collect = (chunk: Buffer) => {
    log.write(chunk);
    const parts = (rest + chunk.toString()).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts.filter(Boolean));
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${role} did not start in 90 s`));
    }, 90_000);
    const started = role === 'worker' ? /worker started; .* on port (\d+)/ : /API listening on http:\/\/localhost:(\d+)/;
    child.stdout?.on('data', () => {
      for (const line of lines) {
        const m = started.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve({ child, port: Number(m[1]), lines });
          return;
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited with ${code}`));
    });
  });
}

/** A TCP pass-through to the test Redis that the test can cut: the "Redis unreachable" of one process, for real. */
async function redisProxy(): Promise<{ url: string; cut: () => Promise<void>; close: () => Promise<void> }> {
  const target = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15');
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return { url: `redis://127.0.0.1:${port}${target.pathname}`, cut: close, close };
}

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  role: string;
}

/** An OTLP/HTTP receiver in this process: parses the JSON the exporter posts to /v1/traces. */
async function otlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; close: () => Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).includes('json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as OtlpBody;
        for (const rs of body.resourceSpans ?? []) {
          const resource = attrs(rs.resource?.attributes);
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              spans.push({ traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId ?? ''), name: s.name, kind: s.kind, attributes: attrs(s.attributes), role: String(resource['gas_relay.role']) });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise<void>((r) => server.close(() => r())) };
}

interface OtlpBody {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpAttr[] }; scopeSpans?: Array<{ spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttr[] }> }> }>;
}
type OtlpAttr = { key: string; value: Record<string, unknown> };

function attrs(list: OtlpAttr[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
}

/** Ids come as hex in the JSON encoding; base64 is accepted too. */
function hex(id: string): string {
  return /^[0-9a-f]*$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');
}

async function until<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('observability of the api/worker split', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
  });

  it('a worker-role process answers /metrics (settlement, webhook and top-up metrics, build_info), /livez and /readyz; /readyz is 503 once its Redis is unreachable', async () => {
    const redis = await redisProxy();
    try {
      const worker = await startRole('worker', { REDIS_URL: redis.url });
      children.push(worker.child);
      const ops = request(`http://127.0.0.1:${worker.port}`);
      const metrics = await ops.get('/metrics').expect(200);
      expect(metrics.headers['content-type']).toContain('text/plain');
      for (const name of ['relay_stage_duration_seconds', 'relay_settlement_finality_total', 'webhook_delivery_attempts_total', 'webhook_deliveries_total', 'relayer_top_ups_total', 'relayer_balance_wei']) {
        expect(metrics.text).toContain(`# TYPE ${name} `);
      }
      expect(metrics.text).toMatch(/^build_info\{version="[^"]+",commit="[^"]+",role="worker",node_version="v[^"]+"\} 1$/m);
      const live = await ops.get('/livez').expect(200);
      expect(live.body).toMatchObject({ status: 'alive', uptimeSeconds: expect.any(Number), eventLoopDelayMsP99: expect.any(Number) });
      // Ready once its chain probes have run: PostgreSQL, Redis and the chains' providers answer.
      const ready = await until('ready', async () => {
        const r = await ops.get('/readyz');
        return r.status === 200 ? r : undefined;
      });
      expect(ready.body).toMatchObject({ status: 'ready', checks: { database: { ok: true }, redis: { ok: true }, chains: expect.arrayContaining([{ chainId: 31337, ready: true }]) } });
      await ops.get('/health').expect(404);

      await redis.cut();
      const down = await until('not ready', async () => {
        const r = await ops.get('/readyz');
        return r.status === 503 ? r : undefined;
      });
      expect(down.body).toMatchObject({ status: 'not_ready', checks: { database: { ok: true }, redis: { ok: false } } });
      // Liveness does not depend on Redis: the process is not restarted for an outage.
      await ops.get('/livez').expect(200);
      worker.child.kill('SIGKILL');
    } finally {
      await redis.close().catch(() => undefined);
    }
  }, 150_000);

  it('one relayed transaction is one trace: the HTTP request (continuing the caller traceparent), SQL, Redis, RPC and every pipeline stage, in the worker through the job; two at once are two traces', async () => {
    const receiver = await otlpReceiver();
    try {
      const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '200' };
      // One at a time: two ts-node start-ups side by side on a busy machine take longer than both in turn.
      const api = await startRole('api', otel);
      children.push(api.child);
      const worker = await startRole('worker', otel);
      children.push(worker.child);
      const http = () => request(`http://127.0.0.1:${api.port}`);

      const address = randomAddress();
      const account = await http().post('/admin/accounts').set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`).send({ address, creditUsd: 50 }).expect(201);
      const apiKey = account.body.data.apiKey as string;
      const traceId = 'b7ad6b7169203331' + Date.now().toString(16).padStart(16, '0');
      // A second transaction submitted beside it, in a trace of its own: the worker's receipt
      // passes and settlement batches serve both, and must file each stage under its own trace.
      const otherTraceId = 'c8be7c827a314442' + Date.now().toString(16).padStart(16, '0');
      const callerSpan = '00f067aa0ba902b7';
      const chain = testChain(31337);
      const submit = (trace: string) =>
        http()
          .post('/api/submit-tx')
          .set('api-key', apiKey)
          .set('traceparent', `00-${trace}-${callerSpan}-01`)
          .send({ chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress(), 3n) })
          .expect(201);
      const [submitted, other] = await Promise.all([submit(traceId), submit(otherTraceId)]);
      const txId = submitted.body.data.txId as string;
      const otherTxId = other.body.data.txId as string;
      for (const id of [txId, otherTxId]) await until('EXECUTED', async () => ((await http().get('/api/tx').query({ id })).body.data?.status === 'EXECUTED' ? true : undefined), 60_000);

      const stages = ['queue_dwell', 'sign', 'broadcast', 'inclusion', 'settlement'].map((s) => `relay.stage.${s}`);
      const stagesOf = (trace: string) => until(
        'the stage spans',
        () => {
          const mine = receiver.spans.filter((s) => s.traceId === trace);
          return stages.every((n) => mine.some((s) => s.name === n)) ? mine : undefined;
        },
        30_000,
      );
      const spans = await stagesOf(traceId);
      const otherSpans = await stagesOf(otherTraceId);
      // The stages the receipt tracker records (inclusion, settlement) are each transaction's own, in its trace only.
      const tracked = (mine: typeof spans) => mine.filter((s) => s.name === 'relay.stage.inclusion' || s.name === 'relay.stage.settlement').map((s) => `${s.name} ${String(s.attributes['relay.tx_id'])}`).sort();
      expect(tracked(spans)).toEqual([`relay.stage.inclusion ${txId}`, `relay.stage.settlement ${txId}`]);
      expect(tracked(otherSpans)).toEqual([`relay.stage.inclusion ${otherTxId}`, `relay.stage.settlement ${otherTxId}`]);
      // Settled, the traces are complete: the worker's background loops (slot lease renewals each
      // second, head polls, the next receipt passes), started by one of these sends, add nothing.
      const inTraces = () => receiver.spans.filter((s) => s.traceId === traceId || s.traceId === otherTraceId).map((s) => `${s.role} ${s.name}`);
      const settledCount = inTraces().length;
      await new Promise((r) => setTimeout(r, 3_000));
      expect(inTraces().slice(settledCount)).toEqual([]);
      if (process.env.TEST_LOGS) console.log(spans.map((s) => `${s.role} ${s.kind} ${s.name} ${JSON.stringify(s.attributes).slice(0, 160)}`).join('\n'));
      // HTTP: the API's server span continues the caller's span.
      const server = spans.find((s) => s.role === 'api' && s.kind === 2 && s.parentSpanId === callerSpan);
      expect(server).toBeDefined();
      // SQL and Redis on the API side (the row's insert, the job's enqueue) and on the worker.
      expect(spans.some((s) => s.role === 'api' && s.attributes['db.system.name'] === 'postgresql')).toBe(true);
      expect(spans.some((s) => s.role === 'api' && s.attributes['db.system.name'] === 'redis')).toBe(true);
      expect(spans.some((s) => s.role === 'worker' && s.attributes['db.system.name'] === 'postgresql')).toBe(true);
      // JSON-RPC: one span per call, the provider by its redacted label.
      const rpc = spans.filter((s) => s.name.startsWith('rpc '));
      expect(rpc.map((s) => s.name)).toEqual(expect.arrayContaining(['rpc eth_sendRawTransaction']));
      for (const s of rpc) expect(String(s.attributes['server.address'])).toMatch(/^https?:\/\/[^/]+(\/\*\*\*)?(#\d+)?$/);
      // No outgoing HTTP span: it would name a keyed provider URL in url.full.
      expect(spans.filter((s) => 'url.full' in s.attributes)).toEqual([]);
      // The worker's job span continues the trace through the job's traceparent; every stage span is in the worker.
      const job = spans.find((s) => s.name === 'relay.send');
      expect(job).toMatchObject({ role: 'worker', kind: 5, attributes: expect.objectContaining({ 'relay.tx_id': txId }) });
      for (const n of stages) expect(spans.find((s) => s.name === n)).toMatchObject({ role: 'worker', attributes: expect.objectContaining({ 'relay.chain_id': '31337' }) });
      expect(spans.find((s) => s.name === 'relay.stage.sign')?.parentSpanId).toBe(job?.spanId);

      // The logs: JSON lines, level names log shippers know, the trace id (the OTel one) in every line.
      const parsed = [...api.lines, ...worker.lines].map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const l of parsed) {
        expect(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).toContain(l.level);
        expect(typeof l.traceId).toBe('string');
        expect(typeof l.msg).toBe('string');
        expect(l.time).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
      }
      const access = parsed.find((l) => l.path === '/api/submit-tx');
      expect(access).toMatchObject({ level: 'info', context: 'HTTP', method: 'POST', status: 201, traceId });
    } finally {
      await receiver.close();
    }
  }, 240_000);

  describe('in this process', () => {
    let a: TestApp;
    let b: TestApp;
    const adminAuth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

    beforeAll(async () => {
      const { createTestApp } = await import('./support/test-app');
      // Two instances of one deployment: A runs the workers, B is API only.
      a = await createTestApp({ env: { APP_ROLE: 'all' } });
      b = await createTestApp({ env: { APP_ROLE: 'api' } });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('request metrics carry the catalog code of the error envelope; build_info names the role; /livez and /readyz on the API port', async () => {
      await a.http().get('/api/does-not-exist').expect(404);
      await a.http().post('/api/submit-tx').send({}).expect(401);
      const text = (await a.http().get('/metrics').expect(200)).text;
      expect(text).toMatch(/^http_errors_total\{method="GET",route="[^"]*",status="404",code="RESOURCE_001"\} \d+$/m);
      expect(text).toMatch(/^http_errors_total\{method="POST",route="\/api\/submit-tx",status="401",code="AUTH_001"\} \d+$/m);
      expect(text).toMatch(/^build_info\{[^}]*role="all"[^}]*\} 1$/m);
      expect((await b.http().get('/metrics').expect(200)).text).toMatch(/^build_info\{[^}]*role="api"[^}]*\} 1$/m);
      expect((await a.http().get('/livez').expect(200)).body.status).toBe('alive');
      const ready = await until('ready', async () => {
        const r = await b.http().get('/readyz');
        return r.status === 200 ? r : undefined;
      });
      expect(ready.body).toMatchObject({ status: 'ready', checks: { database: { ok: true }, redis: { ok: true } } });
    });

    it('tracing off, a caller\'s traceparent still names the request: its trace id is the X-Trace-Id and the error body\'s', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await a.http().get('/api/does-not-exist').set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`).expect(404);
      expect(res.headers['x-trace-id']).toBe(traceId);
      expect(res.body.error.traceId).toBe(traceId);
      // A malformed one is ignored (a fresh id), as an explicit X-Trace-Id wins.
      expect((await a.http().get('/api/does-not-exist').set('traceparent', '00-zz-00f067aa0ba902b7-01')).headers['x-trace-id']).not.toContain('zz');
      expect((await a.http().get('/api/does-not-exist').set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`).set('X-Trace-Id', 'mine-12345678')).headers['x-trace-id']).toBe('mine-12345678');
    });

    it('the operator figures are the deployment\'s: two instances answer the same, counting what either accepted', async () => {
      const figures = async (t: TestApp) => (await t.http().get('/admin/operator/figures').query({ minutes: 5 }).set(adminAuth).expect(200)).body.data;
      const before = await figures(b);
      const { createAccount } = await import('./support/test-app');
      const { apiKey } = await createAccount(a, 20);
      const chain = testChain(31337);
      const send = (t: TestApp) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress(), 1n) }).expect(201);
      const ids = [(await send(a)).body.data.txId, (await send(b)).body.data.txId] as string[];
      const rows = await waitForTxs(a, ids, { timeoutMs: 60_000 });
      expect(rows.map((r) => r.status)).toEqual(['EXECUTED', 'EXECUTED']);
      // Buffered counts reach Redis within a second.
      await new Promise((r) => setTimeout(r, 1500));
      let fromA: Record<string, unknown> = {};
      let fromB: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++) {
        [fromA, fromB] = [await figures(a), await figures(b)];
        if (JSON.stringify(fromA) === JSON.stringify(fromB)) break;
      }
      expect(fromB).toEqual(fromA);
      const totals = fromA.totals as { submitted: number; executed: number; p50: number | null };
      expect(totals.submitted).toBeGreaterThanOrEqual(before.totals.submitted + 2);
      expect(totals.executed).toBeGreaterThanOrEqual(before.totals.executed + 2);
      expect(totals.p50).toEqual(expect.any(Number));
      expect(fromA).toMatchObject({ bucketSeconds: 10, pending: expect.any(Number), queues: expect.arrayContaining([expect.objectContaining({ queue: 'relay-send' })]) });
      expect((fromA.series as unknown[]).length).toBeGreaterThanOrEqual(30);
      await b.http().get('/admin/operator/figures').expect(401);
    }, 90_000);
  });
});
