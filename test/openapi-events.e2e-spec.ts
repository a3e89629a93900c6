import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { AddressInfo } from 'node:net';
import { io, Socket } from 'socket.io-client';
import { randomAddress } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * The event schemas of the OpenAPI document (components.schemas, listed under x-webhooks and
 * x-socket-events) against what the service really sends: webhook bodies as the receiver got
 * them and Socket.IO events as a client got them. Objects are closed (additionalProperties
 * false) for the check, so a field the service sends and the document does not name fails too.
 */
async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A validator per component schema; `$ref`s resolve inside the document's components. */
function validatorsOf(doc: OpenAPIObject): (ref: string) => ValidateFunction {
  const close = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(close);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'example' ? v : close(v);
    if (out.type === 'object' || out.properties) out.additionalProperties = out.additionalProperties ?? false;
    return out;
  };
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi', components: { schemas: close(doc.components?.schemas) } });
  return (ref) => {
    const validate = ajv.getSchema(`openapi${ref}`);
    if (!validate) throw new Error(`no schema at ${ref}`);
    return validate;
  };
}

describe('OpenAPI event schemas: real webhook bodies and socket events validate', () => {
  let t: TestApp;
  let doc: OpenAPIObject;
  let url: string;
  let receiver: WebhookReceiver;
  let schemaAt: (ref: string) => ValidateFunction;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0);
    url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    receiver = await WebhookReceiver.start();
    doc = (await t.http().get('/docs-json').expect(200)).body as OpenAPIObject;
    schemaAt = validatorsOf(doc);
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await receiver.close();
    await t.close();
  });

  const webhookSchema = (event: string): string => {
    const hooks = (doc as unknown as { 'x-webhooks': Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }> })['x-webhooks'];
    return hooks[event].post.requestBody.content['application/json'].schema.$ref;
  };
  const socketSchema = (event: string): string => (doc as unknown as { 'x-socket-events': { serverEvents: Record<string, { $ref: string }> } })['x-socket-events'].serverEvents[event].$ref;
  const check = (ref: string, body: unknown): string[] => {
    const validate = schemaAt(ref);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${ref}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  };

  it('tx.status, account.low_balance, webhook.test and sponsorship.request as delivered, and the socket events, match their schemas', async () => {
    const { apiKey, userId, address } = await createAccount(t, 20);
    receiver.reply = (call) => (call.path === `/approve/${userId}` ? { status: 200, body: { approve: true } } : 200);
    await t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send([{ url: receiver.url(`/all/${userId}`), authType: 'none' }]).expect(200);
    await t.http()
      .patch(`/admin/accounts/${address}/limits`)
      .set(adminAuth)
      .send({ lowBalanceThresholdUsd: 19.99999, approvalWebhook: { url: receiver.url(`/approve/${userId}`), secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', enabled: true } })
      .expect(200);

    const socket = io(`${url}/tx`, { path: '/socket.io', auth: { apiKey }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const pushed: Array<{ event: string; body: unknown }> = [];
    for (const event of ['tx.status', 'account.low_balance', 'account.deposit']) socket.on(event, (body: unknown) => pushed.push({ event, body }));
    const ack = await socket.timeout(10_000).emitWithAck('subscribe', { all: true });
    expect(check('#/components/schemas/SocketSubscribeAckDto', ack)).toEqual([]);

    const txId = (await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: randomAddress(), callData: '0x', label: 'events' }).expect(201)).body.data.txId;
    expect((await waitForTx(t, txId)).status).toBe('EXECUTED');
    await t.http().post('/api/webhooks/test').set('api-key', apiKey).expect(200);
    const delivered = (event: string) => receiver.calls.filter((c) => c.path === `/all/${userId}` && c.body.event === event);
    await receiver.waitFor(() => delivered('tx.status').length >= 2 && delivered('account.low_balance').length >= 1 && delivered('webhook.test').length >= 1);
    await until(() => pushed.filter((p) => p.event === 'tx.status').length >= 2 && pushed.some((p) => p.event === 'account.low_balance'), 'socket events');

    const problems: string[] = [];
    for (const event of ['tx.status', 'account.low_balance', 'webhook.test']) for (const call of delivered(event)) problems.push(...check(webhookSchema(event), call.body));
    const approvals = receiver.calls.filter((c) => c.path === `/approve/${userId}`);
    expect(approvals.length).toBeGreaterThanOrEqual(1);
    for (const call of approvals) problems.push(...check(webhookSchema('sponsorship.request'), call.body));
    for (const { event, body } of pushed) problems.push(...check(socketSchema(event), body));
    // A failed transaction's event carries the failure fields; an executed one, the hash and cost.
    const executed = delivered('tx.status').find((c) => c.body.status === 'EXECUTED')!;
    expect(executed.body).toEqual(expect.objectContaining({ executionTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), costUSD: expect.any(Number) }));
    expect(problems).toEqual([]);
  }, 120_000);

  it('a refused socket gets an `error` event matching SocketErrorDto', async () => {
    const socket = io(`${url}/tx`, { path: '/socket.io', auth: { apiKey: 'rk_not-a-key' }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const error = await new Promise<unknown>((resolve) => socket.on('error', resolve));
    expect(check(socketSchema('error'), error)).toEqual([]);
    expect(error).toEqual(expect.objectContaining({ code: 'AUTH_002' }));
  });

  it('the schemas are closed for this check: an unknown field fails', () => {
    const sample = { event: 'webhook.test', userId: '3f0c1b5e-8d2a-4c71-9e0b-6a4f2d8c1e93', timestamp: '2026-11-23T12:00:00.000Z' };
    expect(check(webhookSchema('webhook.test'), sample)).toEqual([]);
    expect(check(webhookSchema('webhook.test'), { ...sample, extra: 1 })).not.toEqual([]);
  });
});
