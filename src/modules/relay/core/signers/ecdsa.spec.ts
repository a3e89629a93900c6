import { getBytes, hexlify, keccak256, Signature, SigningKey, toUtf8Bytes, Wallet } from 'ethers';
import { addressOfPublicKey, derSignature, ecPointPublicKey, ethereumSignature, splitRawSignature } from './ecdsa';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

/** DER of a positive integer: big-endian, a 0x00 in front when the top bit is set. */
function derInt(v: bigint): Buffer {
  let hex = v.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}
const der = (r: bigint, s: bigint) => {
  const body = Buffer.concat([derInt(r), derInt(s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
};

describe('HSM / KMS signatures made Ethereum signatures', () => {
  const wallet = Wallet.createRandom();
  const key = new SigningKey(wallet.privateKey);

  it('brings a high s to the lower half and finds the recovery id from the public key', () => {
    for (let i = 0; i < 12; i++) {
      const digest = keccak256(toUtf8Bytes(`message ${i}`));
      const sig = key.sign(digest);
      const r = BigInt(sig.r);
      const s = BigInt(sig.s);
      // What a token may return: the same signature with s high (n − s), which Ethereum refuses.
      for (const tokenS of [s, N - s]) {
        const eth = ethereumSignature(digest, r, tokenS, key.publicKey);
        expect(BigInt(eth.s)).toBeLessThanOrEqual(HALF_N);
        expect(eth.serialized).toBe(sig.serialized);
        expect(addressOfPublicKey(SigningKey.recoverPublicKey(digest, eth))).toBe(wallet.address);
      }
    }
  });

  it('refuses a signature that is not the key’s, and out-of-range values', () => {
    const digest = keccak256(toUtf8Bytes('x'));
    const other = new SigningKey(Wallet.createRandom().privateKey).sign(digest);
    expect(() => ethereumSignature(digest, BigInt(other.r), BigInt(other.s), key.publicKey)).toThrow(/does not recover/);
    expect(() => ethereumSignature(digest, 0n, 1n, key.publicKey)).toThrow(/out of range/);
    expect(() => ethereumSignature(digest, 1n, N, key.publicKey)).toThrow(/out of range/);
  });

  it('reads r ‖ s (PKCS#11 CKM_ECDSA) and DER ECDSA-Sig-Value (AWS KMS Sign), with leading zeros either way', () => {
    const digest = keccak256(toUtf8Bytes('der'));
    const sig = key.sign(digest);
    const r = BigInt(sig.r);
    const s = BigInt(sig.s);
    expect(splitRawSignature(getBytes(sig.r + sig.s.slice(2)))).toEqual({ r, s });
    expect(derSignature(der(r, s))).toEqual({ r, s });
    expect(derSignature(der(0x7fn, 0x80n))).toEqual({ r: 0x7fn, s: 0x80n });
    const { r: dr, s: ds } = derSignature(der(r, N - s));
    expect(ethereumSignature(digest, dr, ds, key.publicKey).serialized).toBe(Signature.from(sig).serialized);
    expect(() => derSignature(Buffer.from('3007020101020101', 'hex'))).toThrow(/length mismatch/);
    expect(() => derSignature(Buffer.from('31060201010201', 'hex'))).toThrow(/SEQUENCE/);
    expect(() => splitRawSignature(new Uint8Array(63))).toThrow();
  });

  it('reads CKA_EC_POINT wrapped in a DER OCTET STRING or bare', () => {
    const point = getBytes(key.publicKey);
    expect(ecPointPublicKey(Buffer.concat([Buffer.from([0x04, 65]), point]))).toBe(hexlify(point));
    expect(ecPointPublicKey(point)).toBe(hexlify(point));
    expect(() => ecPointPublicKey(getBytes(key.compressedPublicKey))).toThrow(/uncompressed/);
    expect(addressOfPublicKey(key.publicKey)).toBe(wallet.address);
  });
});
