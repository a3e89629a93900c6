import { canonicalBody, isValidIdempotencyKey, requestHash } from './request-hash';

describe('idempotency request hash', () => {
  it('ignores key order and undefined fields, not values', () => {
    expect(canonicalBody({ b: 1, a: { d: [1, 'x'], c: null } })).toBe('{"a":{"c":null,"d":[1,"x"]},"b":1}');
    expect(requestHash('post', '/api/submit-tx', { a: 1, b: 2 })).toBe(requestHash('POST', '/api/submit-tx', { b: 2, a: 1, c: undefined }));
    expect(requestHash('POST', '/api/submit-tx', { a: 1 })).not.toBe(requestHash('POST', '/api/submit-tx', { a: 2 }));
    expect(requestHash('POST', '/api/submit-tx', { a: 1 })).not.toBe(requestHash('POST', '/api/submit-tx-sync', { a: 1 }));
  });

  it('accepts 1-255 printable characters only', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('order 42/retry-1')).toBe(true);
    expect(isValidIdempotencyKey('x'.repeat(255))).toBe(true);
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('x'.repeat(256))).toBe(false);
    expect(isValidIdempotencyKey('tab\there')).toBe(false);
    expect(isValidIdempotencyKey('é')).toBe(false);
  });
});
