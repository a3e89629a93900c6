import { getAddress, getBytes, hexlify, keccak256, Signature, SigningKey, zeroPadValue, toBeArray } from 'ethers';
import { nativeBinding } from '../../../../common/native-binding';

/** secp256k1's group order and half of it: Ethereum accepts only s ≤ n/2 (EIP-2). */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = N >> 1n;

interface NativeRecover {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean): Uint8Array;
}

const native = nativeBinding<NativeRecover>('secp256k1/bindings');

/** The uncompressed public key (65 bytes, 0x04 ‖ x ‖ y) recovered from a signature, or null. */
function recover(digest: Uint8Array, r: bigint, s: bigint, recid: 0 | 1): string | null {
  const rs = getBytes(zeroPadValue(toBeArray(r), 32) + zeroPadValue(toBeArray(s), 32).slice(2));
  try {
    if (native) return hexlify(native.ecdsaRecover(rs, recid, digest, false));
    return SigningKey.recoverPublicKey(digest, Signature.from({ r: hexlify(rs.subarray(0, 32)), s: hexlify(rs.subarray(32)), yParity: recid }));
  } catch {
    return null;
  }
}

/**
 * What an HSM or KMS answers (r, s: any valid ECDSA signature over `digest`) made into an
 * Ethereum signature: s brought to the lower half (n − s, the same signature's twin), and the
 * recovery id found by recovering with each parity and keeping the one that yields the key's
 * public key. Throws when neither does (the token signed with another key than it claimed).
 */
export function ethereumSignature(digest: string, r: bigint, s: bigint, publicKey: string): Signature {
  if (r <= 0n || r >= N || s <= 0n || s >= N) throw new Error('signature out of range');
  const low = s > HALF_N ? N - s : s;
  const bytes = getBytes(digest);
  const wanted = publicKey.toLowerCase();
  for (const v of [0, 1] as const) {
    if (recover(bytes, r, low, v)?.toLowerCase() === wanted) {
      return Signature.from({ r: zeroPadValue(toBeArray(r), 32), s: zeroPadValue(toBeArray(low), 32), yParity: v });
    }
  }
  throw new Error('the signature does not recover to the key’s public key');
}

/** r ‖ s as PKCS#11's CKM_ECDSA returns it (two big-endian halves of equal length). */
export function splitRawSignature(raw: Uint8Array): { r: bigint; s: bigint } {
  if (raw.length === 0 || raw.length % 2 !== 0) throw new Error(`raw ECDSA signature of ${raw.length} bytes`);
  const half = raw.length / 2;
  return { r: BigInt(hexlify(raw.subarray(0, half))), s: BigInt(hexlify(raw.subarray(half))) };
}

/**
 * r and s of a DER `ECDSA-Sig-Value` (SEQUENCE { INTEGER r, INTEGER s }), what AWS KMS `Sign`
 * (ECDSA_SHA_256, MessageType DIGEST) and most HSM REST APIs answer.
 */
export function derSignature(der: Uint8Array): { r: bigint; s: bigint } {
  let i = 0;
  const byte = () => {
    if (i >= der.length) throw new Error('truncated DER signature');
    return der[i++];
  };
  const length = () => {
    const first = byte();
    if (first < 0x80) return first;
    let n = 0;
    for (let k = 0; k < (first & 0x7f); k++) n = (n << 8) | byte();
    return n;
  };
  const integer = () => {
    if (byte() !== 0x02) throw new Error('DER signature: INTEGER expected');
    const len = length();
    if (len === 0 || i + len > der.length) throw new Error('DER signature: bad INTEGER length');
    const value = BigInt(hexlify(der.subarray(i, i + len)));
    i += len;
    return value;
  };
  if (byte() !== 0x30) throw new Error('DER signature: SEQUENCE expected');
  const end = length() + i;
  if (end !== der.length) throw new Error('DER signature: length mismatch');
  const r = integer();
  const s = integer();
  if (i !== end) throw new Error('DER signature: trailing bytes');
  return { r, s };
}

/**
 * The uncompressed point of a PKCS#11 CKA_EC_POINT: the DER OCTET STRING wrapping it (what the
 * standard prescribes and SoftHSM2 stores) or the bare point (some tokens).
 */
export function ecPointPublicKey(ecPoint: Uint8Array): string {
  let point = ecPoint;
  if (point.length === 67 && point[0] === 0x04 && point[1] === 65) point = point.subarray(2);
  if (point.length !== 65 || point[0] !== 0x04) throw new Error(`CKA_EC_POINT is not an uncompressed secp256k1 point (${point.length} bytes)`);
  return hexlify(point);
}

/** The Ethereum address of an uncompressed public key. */
export function addressOfPublicKey(publicKey: string): string {
  return getAddress('0x' + keccak256(getBytes(publicKey).subarray(1)).slice(-40));
}
