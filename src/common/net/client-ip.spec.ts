import { clientIp, trustedProxies } from './client-ip';

describe('clientIp (a socket handshake, as Express derives req.ip)', () => {
  const proxies = trustedProxies('127.0.0.1, 10.0.0.0/8');

  it('ignores X-Forwarded-For unless TRUST_PROXY names proxies', () => {
    expect(trustedProxies(undefined)).toBeNull();
    expect(trustedProxies(' ')).toBeNull();
    expect(clientIp('127.0.0.1', '203.0.113.9', null)).toBe('127.0.0.1');
  });

  it('walks from the socket leftwards while each hop is a trusted proxy', () => {
    expect(clientIp('127.0.0.1', '203.0.113.9', proxies)).toBe('203.0.113.9');
    expect(clientIp('::ffff:127.0.0.1', '198.51.100.1, 203.0.113.9, 10.1.2.3', proxies)).toBe('203.0.113.9');
    expect(clientIp('127.0.0.1', ['198.51.100.1', '10.1.2.3'], proxies)).toBe('198.51.100.1');
    // All trusted: the leftmost hop, as proxy-addr answers.
    expect(clientIp('127.0.0.1', '10.0.0.5', proxies)).toBe('10.0.0.5');
  });

  it('does not believe the header from a socket that is not a trusted proxy', () => {
    expect(clientIp('192.0.2.50', '203.0.113.9', proxies)).toBe('192.0.2.50');
    expect(clientIp('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
  });
});
