import { randomBytes } from 'node:crypto';
import { encryptionKey, open, seal } from './secret-box';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);

  it('round-trips, never stores the plaintext, and uses a fresh IV each time', () => {
    const a = seal(key, 'hunter2-secret', 'webhook:u1');
    const b = seal(key, 'hunter2-secret', 'webhook:u1');
    expect(a).not.toContain('hunter2');
    expect(a).not.toBe(b);
    expect(open(key, a, 'webhook:u1')).toBe('hunter2-secret');
  });

  it('refuses another context, another key and a tampered ciphertext', () => {
    const sealed = seal(key, 'secret', 'webhook:u1');
    expect(() => open(key, sealed, 'webhook:u2')).toThrow();
    expect(() => open(randomBytes(32), sealed, 'webhook:u1')).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('SECRET').toString('base64');
    expect(() => open(key, parts.join(':'), 'webhook:u1')).toThrow();
  });

  it('reads the key as hex or base64', () => {
    expect(encryptionKey(key.toString('hex')).equals(key)).toBe(true);
    expect(encryptionKey(key.toString('base64')).equals(key)).toBe(true);
    expect(() => encryptionKey('abcd')).toThrow(/32 bytes/);
  });
});
