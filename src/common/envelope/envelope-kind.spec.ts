import { envelopeKindFor } from './envelope-kind';

describe('envelopeKindFor', () => {
  it.each(['/quote', '/build-best-path', '/build-path-by-id', '/tokens', '/search-token', '/status', '/gasless/quote', '/gasless/submit-swap', '/gasless/status', '/quote/'])(
    '%s uses the code envelope',
    (path) => expect(envelopeKindFor(path)).toBe('code'),
  );

  it.each(['/api/quote', '/api/user', '/v1/quotes', '/health', '/admin/accounts', '/quotes', '/statuses', '/gaslessx'])(
    '%s uses the success envelope',
    (path) => expect(envelopeKindFor(path)).toBe('success'),
  );
});
