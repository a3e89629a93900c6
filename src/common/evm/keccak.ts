import { keccak256 as ethersKeccak256 } from 'ethers';
import { nativeBinding } from '../native-binding';

/** The `keccak` package's native binding (prebuilt for the common platforms): a hasher per call. */
type NativeKeccak = (algorithm: 'keccak256') => { update(data: Uint8Array): { digest(): Buffer } };

/** About 9 µs a hash of a transaction's size against ethers' ~35 µs; a relayed transaction takes three. */
const native = nativeBinding<NativeKeccak>('keccak/bindings');
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** keccak256 of bytes as raw bytes. */
export function keccak256Bytes(data: Uint8Array): Uint8Array {
  if (native) return native('keccak256').update(data).digest();
  return Buffer.from(ethersKeccak256(data).slice(2), 'hex');
}

/**
 * ethers' `keccak256` (0x-prefixed lowercase hex; bytes or a 0x hex string of whole bytes, and
 * anything else throws as ethers does), natively where the binding loads.
 */
export function keccak256(data: Uint8Array | string): string {
  if (!native) return ethersKeccak256(data);
  if (typeof data === 'string') {
    if (!HEX.test(data)) return ethersKeccak256(data);
    data = Buffer.from(data.slice(2), 'hex');
  }
  return `0x${native('keccak256').update(data).digest().toString('hex')}`;
}
