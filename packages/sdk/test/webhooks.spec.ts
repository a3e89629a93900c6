import { newSigningSecret, signedHeaders as serviceSignedHeaders } from '../../../src/modules/webhooks/signing/standard-webhooks';
import { verifyWebhookSignature as verifyFromMain } from '../src';
import { verifyWebhook, verifyWebhookSignature, WebhookVerificationError } from '../src/server';

/** The service's headers as a plain object (its WebhookHeaders is an interface, which has no index signature). */
const signedHeaders = (...args: Parameters<typeof serviceSignedHeaders>) => ({ ...serviceSignedHeaders(...args) });

/** The service's signer (what every delivery and approval request carries) against the SDK's verifiers. */
describe('SDK webhook verification against the service’s signer', () => {
  const secret = newSigningSecret();
  const notification = { event: 'tx.status', txId: 'c2d1e4f0-0000-4000-8000-000000000001', userId: 'u1', status: 'EXECUTED', previousStatus: 'PENDING', chainId: 31337, executionTxHash: `0x${'ab'.repeat(32)}`, costUSD: 0.01, retries: 0, timestamp: new Date().toISOString() };
  const body = JSON.stringify(notification);

  it('verifyWebhook (standardwebhooks) accepts a service-signed delivery and returns the event', () => {
    const headers = signedHeaders(secret, 'evt_1', body);
    expect(verifyWebhook(secret, body, headers)).toEqual(notification);
    // Node's req.headers (lowercase, maybe arrays), a Buffer body, and a Fetch API Headers object.
    expect(verifyWebhook(secret, Buffer.from(body), { ...headers, 'webhook-id': [headers['webhook-id']] })).toEqual(notification);
    expect(verifyWebhook(secret, new TextEncoder().encode(body), new Headers({ 'Webhook-Id': headers['webhook-id'], 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] }))).toEqual(notification);
  });

  it('verifyWebhook refuses a changed body, another id, another secret, a stale timestamp, missing headers and foreign events', () => {
    const headers = signedHeaders(secret, 'evt_1', body);
    const refused = (fn: () => unknown) => expect(fn).toThrow(WebhookVerificationError);
    refused(() => verifyWebhook(secret, `${body} `, headers));
    refused(() => verifyWebhook(secret, body, { ...headers, 'webhook-id': 'evt_2' }));
    refused(() => verifyWebhook(newSigningSecret(), body, headers));
    refused(() => verifyWebhook(secret, body, signedHeaders(secret, 'evt_1', body, new Date(Date.now() - 3_600_000))));
    refused(() => verifyWebhook(secret, body, { 'webhook-id': 'evt_1' }));
    const foreign = JSON.stringify({ hello: 'world' });
    refused(() => verifyWebhook(secret, foreign, signedHeaders(secret, 'evt_3', foreign)));
  });

  it('the earlier boolean verifyWebhookSignature keeps working from both entries, tolerance and clock included', () => {
    const headers = signedHeaders(secret, 'evt_1', body);
    for (const verify of [verifyWebhookSignature, verifyFromMain]) {
      expect(verify({ secret, headers, rawBody: body })).toBe(true);
      expect(verify({ secret, headers, rawBody: Buffer.from(body) })).toBe(true);
      // During a secret rotation several signatures are sent: any one matching is enough.
      expect(verify({ secret, headers: { ...headers, 'webhook-signature': `v1,bogus ${headers['webhook-signature']}` }, rawBody: body })).toBe(true);
      expect(verify({ secret, headers, rawBody: `${body} ` })).toBe(false);
      expect(verify({ secret: newSigningSecret(), headers, rawBody: body })).toBe(false);
      expect(verify({ secret: 'not base64 at all!', headers, rawBody: body })).toBe(false);
      const old = signedHeaders(secret, 'evt_1', body, new Date(Date.now() - 3_600_000));
      expect(verify({ secret, headers: old, rawBody: body })).toBe(false);
      expect(verify({ secret, headers: old, rawBody: body, toleranceSeconds: 0 })).toBe(true);
      expect(verify({ secret, headers: old, rawBody: body, now: new Date(Date.now() - 3_600_000) })).toBe(true);
    }
  });
});
