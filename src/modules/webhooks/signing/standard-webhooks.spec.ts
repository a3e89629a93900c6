import { createHmac } from 'node:crypto';
import { newSigningSecret, signedHeaders, signPayload, verifySignature } from './standard-webhooks';

describe('Standard Webhooks signer', () => {
  // The example of the Standard Webhooks specification (and Svix's docs).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it('matches the published test vector', () => {
    expect(signPayload(secret, id, timestamp, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('is HMAC-SHA256 keyed with the base64-decoded part after whsec_', () => {
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    expect(signPayload(secret, id, timestamp, body)).toBe(`v1,${mac}`);
  });

  it('issues whsec_ secrets of 24 random bytes', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('produces headers a receiver verifies, and rejects tampering, another key and stale timestamps', () => {
    const now = new Date();
    const headers = signedHeaders(secret, id, body, now);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(verifySignature(secret, headers, body, 300, now)).toBe(true);
    expect(verifySignature(secret, headers, `${body} `, 300, now)).toBe(false);
    expect(verifySignature(newSigningSecret(), headers, body, 300, now)).toBe(false);
    expect(verifySignature(secret, { ...headers, 'webhook-id': 'msg_other' }, body, 300, now)).toBe(false);
    expect(verifySignature(secret, headers, body, 300, new Date(now.getTime() + 600_000))).toBe(false);
    expect(verifySignature(secret, { ...headers, 'webhook-signature': `v1,bogus ${headers['webhook-signature']}` }, body, 300, now)).toBe(true);
  });

  it('refuses secrets without the whsec_ prefix', () => {
    expect(() => signPayload('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', id, timestamp, body)).toThrow(/whsec_/);
  });
});
