import { createHmac } from 'node:crypto';
import { getBytes, HDNodeWallet, hexlify, Mnemonic } from 'ethers';
import { DEV_AUTH_MNEMONIC } from '../../../../scripts/local-stack/dev-keys';
import { DerivedKeys } from './derived-keys';
import { addressOf, deriveNode, masterNode, parsePath } from './hd-keys';
import { LruMap } from './lru-map';

const mnemonic = Mnemonic.fromPhrase(DEV_AUTH_MNEMONIC);
const seed = getBytes(mnemonic.computeSeed());
const keys = new DerivedKeys(seed);
const ACCOUNT_A = '5b0c6a56-3c1e-4a57-9d43-0b6d2a6f0e11';
const ACCOUNT_B = '9f1d2b3c-7e44-4c2a-8f55-1a2b3c4d5e6f';

function derived(accountId: string, path: string, scheme: 'account' | 'legacy' = 'account') {
  const key = keys.derive(accountId, path, scheme);
  if (typeof key === 'string') throw new Error(key);
  return key;
}

describe('BIP-32 derivation (hd-keys)', () => {
  it('gives the keys ethers derives, hardened and not, deep and shallow', () => {
    const root = HDNodeWallet.fromSeed(seed);
    for (const path of ["m/44'/60'/0'/0/7", "m/44'/60'/1'/0/123456", 'm/0', "m/2147483647'", 'm/1/2/3/4/5/6/7/8/9/10', "m/44'/60'/0'/0/0"]) {
      const node = deriveNode(masterNode(seed), parsePath(path)!)!;
      const expected = root.derivePath(path);
      expect(hexlify(node.privateKey)).toBe(expected.privateKey);
      expect(addressOf(node.privateKey)).toBe(expected.address);
    }
  });

  it('refuses what is not a BIP-32 path (index 2^31 and up, empty, not m/...)', () => {
    for (const path of ['m', 'm/', 'not/a/path', "m/2147483648'", 'm/2147483648', "m/44''", 'm/-1', "m/44'/60'/0'/0/7/", 'M/0']) expect(parsePath(path)).toBeNull();
  });
});

describe('derived senders per account (DerivedKeys)', () => {
  it('one path, two accounts: two keys; one account: the same key every time, from a fresh instance too', () => {
    const a = derived(ACCOUNT_A, "m/44'/60'/0'/0/7");
    const b = derived(ACCOUNT_B, "m/44'/60'/0'/0/7");
    expect(a.address).not.toBe(b.address);
    expect(derived(ACCOUNT_A, "m/44'/60'/0'/0/7").address).toBe(a.address);
    const restarted = new DerivedKeys(getBytes(Mnemonic.fromPhrase(DEV_AUTH_MNEMONIC).computeSeed())).derive(ACCOUNT_A, "m/44'/60'/0'/0/7", 'account');
    expect(restarted).toEqual(a);
    expect(derived(ACCOUNT_A, "m/44'/60'/0'/0/8").address).not.toBe(a.address);
  });

  it('is the documented scheme: BIP-32 at the path below the seed HMAC-SHA512(mnemonic seed, label ‖ account id)', () => {
    const accountSeed = createHmac('sha512', seed).update(`gas-relay/derived-sender/v1\0${ACCOUNT_A}`).digest();
    const expected = HDNodeWallet.fromSeed(accountSeed).derivePath("m/44'/60'/0'/0/7");
    expect(derived(ACCOUNT_A, "m/44'/60'/0'/0/7").address).toBe(expected.address);
  });

  it('never reaches the legacy (global) key of a path, which stays what fromMnemonic gave', () => {
    const legacy = HDNodeWallet.fromMnemonic(mnemonic, "m/44'/60'/0'/0/7");
    expect(derived(ACCOUNT_A, "m/44'/60'/0'/0/7", 'legacy').address).toBe(legacy.address);
    expect(derived(ACCOUNT_B, "m/44'/60'/0'/0/7", 'legacy').address).toBe(legacy.address);
    expect(derived(ACCOUNT_A, "m/44'/60'/0'/0/7").address).not.toBe(legacy.address);
  });

  it('no two of 2,000 (account, path) pairs share an address', () => {
    const seen = new Set<string>();
    for (let account = 0; account < 200; account++) {
      for (let i = 0; i < 10; i++) seen.add(derived(`account-${account}`, `m/44'/60'/0'/0/${i}`).address);
    }
    expect(seen.size).toBe(2_000);
  });

  it('answers invalid for a bad path', () => {
    expect(keys.derive(ACCOUNT_A, 'not/a/path', 'account')).toBe('invalid');
  });
});

describe('LruMap', () => {
  it('keeps at most its capacity, dropping the least recently used', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });
});
