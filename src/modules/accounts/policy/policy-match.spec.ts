import { ipMatcher, isIpOrCidr, plainIp } from '../../../common/net/ip-list';
import { methodsServed } from '../../../common/http/cors.middleware';
import { selectorOf, targetAllowed } from './allowed-target';
import { domainAllowed, isDomainEntry, originHost } from './domain-whitelist';

describe('account policy matching', () => {
  it('validates IP and CIDR entries of both families', () => {
    for (const ok of ['127.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', '2001:db8::/32', '::/0', 'fe80::1/128']) expect(isIpOrCidr(ok)).toBe(true);
    for (const bad of ['300.1.1.1', '10.0.0.0/33', '::1/129', '10.0.0.0/', '10.0.0.0/8/8', 'localhost', '', '1.2.3', '10.0.0.0/-1']) expect(isIpOrCidr(bad)).toBe(false);
  });

  it('matches addresses and CIDR blocks, IPv4-mapped IPv6 as IPv4', () => {
    const match = ipMatcher(['10.0.0.0/8', '2001:db8::/32', '192.0.2.7']);
    expect(match('10.1.2.3')).toBe(true);
    expect(match('::ffff:10.1.2.3')).toBe(true);
    expect(match('2001:db8::42')).toBe(true);
    expect(match('192.0.2.7')).toBe(true);
    expect(match('192.0.2.8')).toBe(false);
    expect(match('127.0.0.1')).toBe(false);
    expect(match('::1')).toBe(false);
    expect(match('garbage')).toBe(false);
    expect(plainIp('::FFFF:127.0.0.1')).toBe('127.0.0.1');
  });

  it('validates and matches domains with *. wildcards (subdomains only)', () => {
    for (const ok of ['app.example.com', 'localhost', '*.example.org', 'xn--bcher-kva.example']) expect(isDomainEntry(ok)).toBe(true);
    for (const bad of ['*', '*.', 'a..b', '-a.com', 'a b.com', 'https://a.com', 'a.com/x', 'a*.b.com']) expect(isDomainEntry(bad)).toBe(false);
    const list = ['app.example.com', '*.example.org'];
    expect(domainAllowed(list, 'app.example.com')).toBe(true);
    expect(domainAllowed(list, 'x.y.example.org')).toBe(true);
    expect(domainAllowed(list, 'example.org')).toBe(false);
    expect(domainAllowed(list, 'badexample.org')).toBe(false);
    expect(domainAllowed(list, 'app.example.com.evil.net')).toBe(false);
    expect(originHost('https://App.Example.com:8443')).toBe('app.example.com');
    expect(originHost('null')).toBeNull();
  });

  it('matches targets by chain, address and selector; an empty list allows all', () => {
    const usdc = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    const targets = [{ chainId: 1, address: usdc, selectors: ['0xa9059cbb'] }, { address: '0x00000000000000000000000000000000000000aa' }];
    const transfer = '0xa9059cbb' + '00'.repeat(64);
    expect(targetAllowed([], { chainId: 1, to: usdc, callData: '0x' })).toBe(true);
    expect(targetAllowed(targets, { chainId: 1, to: usdc.toUpperCase().replace('0X', '0x'), callData: transfer })).toBe(true);
    expect(targetAllowed(targets, { chainId: 2, to: usdc, callData: transfer })).toBe(false);
    expect(targetAllowed(targets, { chainId: 1, to: usdc, callData: '0x095ea7b3' })).toBe(false);
    expect(targetAllowed(targets, { chainId: 1, to: usdc, callData: '0x' })).toBe(false);
    expect(targetAllowed(targets, { chainId: 5, to: '0x00000000000000000000000000000000000000AA', callData: '0x' })).toBe(true);
    expect(selectorOf('0xA9059CBB00')).toBe('0xa9059cbb');
    expect(selectorOf('0xa905')).toBeNull();
  });

  it('lists the methods a path serves for the CORS preflight', () => {
    const layer = (path: RegExp, methods: Record<string, boolean>) => ({ route: { methods }, match: (p: string) => path.test(p) });
    const stack = [{ match: () => true }, layer(/^\/api\/user$/, { get: true }), layer(/^\/api\/user$/, { post: true }), layer(/^\/x$/, { _all: true, delete: true })];
    expect(methodsServed(stack, '/api/user')).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    expect(methodsServed(stack, '/x')).toEqual(['DELETE', 'OPTIONS']);
    expect(methodsServed(stack, '/nope')).toEqual([]);
  });
});
