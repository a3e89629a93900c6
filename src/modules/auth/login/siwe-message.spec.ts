import { formatSiweMessage, siweOriginOf } from './siwe-message';

describe('formatSiweMessage', () => {
  it('writes the EIP-4361 lines in order', () => {
    const text = formatSiweMessage({
      domain: 'api.example.com',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      statement: 'Sign in.',
      uri: 'https://api.example.com',
      chainId: 1,
      nonce: 'abc123def456',
      issuedAt: new Date('2024-01-01T00:00:00.000Z'),
      expirationTime: new Date('2024-01-01T00:05:00.000Z'),
    });
    expect(text).toBe(
      [
        'api.example.com wants you to sign in with your Ethereum account:',
        '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        '',
        'Sign in.',
        '',
        'URI: https://api.example.com',
        'Version: 1',
        'Chain ID: 1',
        'Nonce: abc123def456',
        'Issued At: 2024-01-01T00:00:00.000Z',
        'Expiration Time: 2024-01-01T00:05:00.000Z',
      ].join('\n'),
    );
  });

  it('reads back the domain and URI a message names', () => {
    const text = formatSiweMessage({
      domain: 'localhost:3000',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      statement: 'Sign in.',
      uri: 'http://localhost:3000',
      chainId: 1,
      nonce: 'abc123def456',
      issuedAt: new Date('2024-01-01T00:00:00.000Z'),
      expirationTime: new Date('2024-01-01T00:05:00.000Z'),
    });
    expect(siweOriginOf(text)).toEqual({ domain: 'localhost:3000', uri: 'http://localhost:3000' });
    expect(siweOriginOf('hello')).toBeNull();
    expect(siweOriginOf('x wants you to sign in with your Ethereum account:\n0xabc')).toBeNull();
  });
});
