import { getBytes, hexlify, Signature, SigningKey, TransactionRequest } from 'ethers';
import { keccak256 } from '../../../common/evm/keccak';
import { nativeBinding } from '../../../common/native-binding';
import { plainTx } from './plain-tx';
import { DigestRelaySigner, unsignedTransaction } from './signers/relay-signer';

/** libsecp256k1's signing, when the platform has the prebuilt binary of the `secp256k1` package. */
interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}

/** About 75 µs a signature against ethers' ~1 ms, which is most of a relayed transaction's signing cost. */
const native = nativeBinding<NativeSecp256k1>('secp256k1/bindings');

/** Whether signing runs natively here (reported at startup). */
export const nativeSigning = native !== null;

/**
 * A relayer key held in memory (RELAYER_SIGNER=local, and every derived sender). Signs the same
 * bytes as ethers' Wallet (ethers builds and serializes the transaction; only the ECDSA step is
 * native when available), low-s as libsecp256k1 always produces.
 */
export class LocalKeySigner extends DigestRelaySigner {
  readonly backend = 'local' as const;
  private readonly key: Uint8Array;
  private readonly signingKey: SigningKey;

  constructor(
    privateKey: string,
    readonly address: string,
  ) {
    super();
    this.key = getBytes(privateKey);
    this.signingKey = new SigningKey(privateKey);
  }

  /** The hot path without a promise per signature. */
  override async signTransaction(request: TransactionRequest): Promise<string> {
    const plain = this.signPlain(request);
    if (plain) return plain.raw;
    const tx = unsignedTransaction(request);
    tx.signature = this.sign(tx.unsignedHash);
    return tx.serialized;
  }

  /** The signed bytes and their hash; a plain transaction (`plainTx`) without ethers' Transaction. */
  async signTransactionHashed(request: TransactionRequest): Promise<{ raw: string; hash: string }> {
    const plain = this.signPlain(request);
    if (plain) return plain;
    const raw = await this.signTransaction(request);
    return { raw, hash: keccak256(raw) };
  }

  private signPlain(request: TransactionRequest): { raw: string; hash: string } | null {
    if (!native) return null;
    const plain = plainTx(request);
    if (!plain) return null;
    const { signature, recid } = native.ecdsaSign(plain.digest, this.key);
    return plain.signed(signature, recid);
  }

  signDigest(digest: string): Promise<Signature> {
    return Promise.resolve(this.sign(digest));
  }

  private sign(digest: string): Signature {
    if (!native) return this.signingKey.sign(digest);
    const { signature, recid } = native.ecdsaSign(getBytes(digest), this.key);
    return Signature.from({ r: hexlify(signature.subarray(0, 32)), s: hexlify(signature.subarray(32, 64)), yParity: recid as 0 | 1 });
  }
}
