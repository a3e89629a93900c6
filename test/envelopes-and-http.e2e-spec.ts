import { ProbeController } from './support/probe.controller';
import { createAccount, createTestApp, ISO_MS, TestApp } from './support/test-app';

describe('envelopes, trace ids and HTTP robustness', () => {
  let t: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
    ({ apiKey } = await createAccount(t));
  });
  afterAll(() => t.close());

  it('wraps success in {success, data, timestamp} with millisecond ISO time', async () => {
    const res = await t.http().get('/api/_probe').set('api-key', apiKey).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'success', 'timestamp']);
    expect(res.body.success).toBe(true);
    expect(res.body.timestamp).toMatch(ISO_MS);
    // Live state, never revalidated: no body hash per response.
    expect(res.headers.etag).toBeUndefined();
  });

  it('wraps code-envelope success in {code: 0, message: success, data}', async () => {
    const res = await t.http().get('/gasless/_probe').set('api-key', apiKey).expect(200);
    expect(res.body).toEqual({ code: 0, message: 'success', data: { userId: expect.any(String) } });
  });

  it('error bodies carry code, category, message and the trace id of the X-Trace-Id header', async () => {
    const res = await t.http().get('/api/user').query({ address: 'nope' }).expect(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'USER_003', message: expect.any(String), category: 'USER', traceId: res.headers['x-trace-id'] },
      timestamp: expect.stringMatching(ISO_MS),
    });
  });

  it('keeps a well-formed caller trace id and replaces a hostile one', async () => {
    const kept = await t.http().get('/nope').set('X-Trace-Id', 'client-trace-12345').expect(404);
    expect(kept.body.error.traceId).toBe('client-trace-12345');
    const replaced = await t.http().get('/nope').set('X-Trace-Id', 'bad id with spaces <script>').expect(404);
    expect(replaced.body.error.traceId).not.toContain('bad');
  });

  it('logs the request under the same trace id as the error body', async () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const { Logger } = await import('@nestjs/common');
    const { AppLogger } = await import('../src/common/trace/app-logger');
    t.app.useLogger(new AppLogger());
    try {
      const res = await t.http().get('/api/user').query({ address: '0x0000000000000000000000000000000000000001' }).expect(404);
      await new Promise((r) => setTimeout(r, 20));
      const traceId = res.body.error.traceId as string;
      expect(lines.some((l) => l.includes(traceId) && l.includes('GET /api/user 404'))).toBe(true);
    } finally {
      spy.mockRestore();
      t.app.useLogger(['error']);
      Logger.flush();
    }
  });

  it('answers unknown routes with 404 RESOURCE_001 in the path envelope', async () => {
    const success = await t.http().get('/api/does-not-exist').expect(404);
    expect(success.body.error.code).toBe('RESOURCE_001');
    const code = await t.http().get('/gasless/does-not-exist').expect(404);
    expect(code.body).toEqual({ code: 404, data: null, message: expect.any(String) });
  });

  describe.each([
    ['success envelope', '/api/_probe'],
    ['code envelope', '/gasless/_probe'],
  ])('bad requests on the %s', (kind, path) => {
    const expectEnvelope400 = (body: Record<string, unknown>) => {
      if (kind === 'code envelope') {
        expect(body).toEqual({ code: 400, data: null, message: expect.any(String) });
      } else {
        expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_004', category: 'VALIDATION' } });
      }
    };

    it('malformed JSON is 400', async () => {
      const res = await t.http().post(`${path}?chainId=1`).set('api-key', apiKey).set('Content-Type', 'application/json').send('{"name": ').expect(400);
      expectEnvelope400(res.body);
    });

    it('a non-JSON content type is 400', async () => {
      const res = await t.http().post(`${path}?chainId=1`).set('api-key', apiKey).set('Content-Type', 'text/plain').send('name=x').expect(400);
      expectEnvelope400(res.body);
      expect(JSON.stringify(res.body)).toContain('application/json');
    });

    it('an oversized body is 400', async () => {
      const big = JSON.stringify({ name: 'x'.repeat(300 * 1024), count: 1 });
      const res = await t.http().post(`${path}?chainId=1`).set('api-key', apiKey).set('Content-Type', 'application/json').send(big).expect(400);
      expectEnvelope400(res.body);
    });

    it('schema violations and unknown query values are 400', async () => {
      const bad = await t.http().post(`${path}?chainId=1`).set('api-key', apiKey).send({ name: 'x', count: 99 }).expect(400);
      expectEnvelope400(bad.body);
      const query = await t.http().post(`${path}?chainId=banana`).set('api-key', apiKey).send({ name: 'x', count: 1 }).expect(400);
      expectEnvelope400(query.body);
      const arrayQuery = await t.http().post(`${path}?chainId=1&chainId=2`).set('api-key', apiKey).send({ name: 'x', count: 1 }).expect(400);
      expectEnvelope400(arrayQuery.body);
    });

    it('a valid request passes through', async () => {
      await t.http().post(`${path}?chainId=7`).set('api-key', apiKey).send({ name: 'x', count: 2 }).expect(201);
    });
  });

  it('never answers 500 for a JSON body that is a bare value or array where an object is expected', async () => {
    for (const body of ['null', '"text"', '[1,2]', '42']) {
      const res = await t.http().post('/api/_probe?chainId=1').set('api-key', apiKey).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
    }
  });
});
