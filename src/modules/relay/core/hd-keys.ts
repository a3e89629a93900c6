import { createHmac } from 'node:crypto';
import { getAddress, getBytes, hexlify, keccak256, SigningKey, toBeArray, zeroPadValue } from 'ethers';
import { nativeBinding } from '../../../common/native-binding';

/**
 * BIP-32 private derivation (CKDpriv) on node's HMAC-SHA512, with libsecp256k1 for the curve
 * when its prebuilt binding loads. Same keys as ethers' `HDNodeWallet.derivePath` (hd-keys.spec),
 * without what makes that slow per path: ethers computes every level's public key in JS, and
 * `HDNodeWallet.fromMnemonic` runs PBKDF2 (2048 rounds) on each call. Here the seed is computed
 * once, hardened levels need no curve operation, and only the parent of a non-hardened level and
 * the final key need a public key.
 */
export interface HdNode {
  readonly privateKey: Uint8Array;
  readonly chainCode: Uint8Array;
}

const HARDENED = 0x8000_0000;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const PATH = /^m(\/\d{1,10}'?){1,10}$/;

interface Curve {
  publicKey(privateKey: Uint8Array, compressed: boolean): Uint8Array;
  /** (key + tweak) mod n, or null when the result is not a valid key. */
  tweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array | null;
}

interface NativeSecp256k1 {
  publicKeyCreate(seckey: Uint8Array, compressed: boolean): Uint8Array;
  privateKeyTweakAdd(seckey: Uint8Array, tweak: Uint8Array): Uint8Array;
}

const jsCurve: Curve = {
  publicKey: (key, compressed) => getBytes(SigningKey.computePublicKey(key, compressed)),
  tweakAdd: (key, tweak) => {
    const t = BigInt(hexlify(tweak));
    const sum = (BigInt(hexlify(key)) + t) % N;
    return t >= N || sum === 0n ? null : getBytes(zeroPadValue(toBeArray(sum), 32));
  },
};

function loadCurve(): Curve {
  const native = nativeBinding<NativeSecp256k1>('secp256k1/bindings');
  if (!native) return jsCurve;
  return {
    publicKey: (key, compressed) => native.publicKeyCreate(key, compressed),
    tweakAdd: (key, tweak) => {
      try {
        return native.privateKeyTweakAdd(Uint8Array.from(key), tweak);
      } catch {
        return null;
      }
    },
  };
}

const curve = loadCurve();

function hmac512(key: Uint8Array | string, ...data: Uint8Array[]): Buffer {
  const mac = createHmac('sha512', key);
  for (const d of data) mac.update(d);
  return mac.digest();
}

/** The BIP-32 master node of a seed (16 to 64 bytes). */
export function masterNode(seed: Uint8Array): HdNode {
  const i = hmac512('Bitcoin seed', seed);
  return { privateKey: i.subarray(0, 32), chainCode: i.subarray(32) };
}

/** The indices of a BIP-32 path (`m/44'/60'/0'/0/7`); null when it is not one. */
export function parsePath(path: string): number[] | null {
  if (!PATH.test(path)) return null;
  const indices: number[] = [];
  for (const part of path.split('/').slice(1)) {
    const hardened = part.endsWith("'");
    const n = Number(hardened ? part.slice(0, -1) : part);
    if (n >= HARDENED) return null;
    indices.push(hardened ? n + HARDENED : n);
  }
  return indices;
}

/** CKDpriv along `indices`; null in the ~2^-127 case BIP-32 calls invalid. */
export function deriveNode(node: HdNode, indices: readonly number[]): HdNode | null {
  let current: HdNode = node;
  for (const index of indices) {
    const ser = Buffer.alloc(4);
    ser.writeUInt32BE(index);
    const i = index >= HARDENED ? hmac512(current.chainCode, Uint8Array.of(0), current.privateKey, ser) : hmac512(current.chainCode, curve.publicKey(current.privateKey, true), ser);
    const key = curve.tweakAdd(current.privateKey, i.subarray(0, 32));
    if (!key) return null;
    current = { privateKey: key, chainCode: i.subarray(32) };
  }
  return current;
}

/** The Ethereum address of a private key. */
export function addressOf(privateKey: Uint8Array): string {
  const uncompressed = curve.publicKey(privateKey, false);
  return getAddress('0x' + keccak256(uncompressed.subarray(1)).slice(-40));
}
