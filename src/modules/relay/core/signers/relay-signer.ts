import { Authorization, AuthorizationRequest, hashAuthorization, Signature, Transaction, TransactionRequest, TypedDataDomain, TypedDataEncoder, TypedDataField } from 'ethers';

/** Where a relayer key lives: in process memory (RELAYER_MNEMONIC) or in a PKCS#11 token. */
export type SignerBackend = 'local' | 'pkcs11';

/**
 * The one operation a key store must offer: an ECDSA signature over a 32-byte digest, with
 * Ethereum's low-s and recovery id. Everything the relay signs (transactions of every type,
 * EIP-712 typed data, EIP-7702 authorizations) is built on it in `DigestRelaySigner`, so a new
 * backend (a cloud KMS: docs/hsm-signers.md) implements this and nothing else.
 */
export interface DigestSigner {
  readonly address: string;
  readonly backend: SignerBackend;
  signDigest(digest: string): Promise<Signature>;
}

/** What the pipeline signs with. */
export interface RelaySigner extends DigestSigner {
  signTransaction(tx: TransactionRequest): Promise<string>;
  /** The signed transaction and its hash, when the signer can give both for less than signing and hashing apart. */
  signTransactionHashed?(tx: TransactionRequest): Promise<{ raw: string; hash: string }>;
  signTypedData(domain: TypedDataDomain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string>;
  authorize(auth: AuthorizationRequest & { chainId: bigint | number; nonce: bigint | number }): Promise<Authorization>;
}

/** The unsigned transaction of a request (ethers builds and serializes; only the signature is the backend's). */
export function unsignedTransaction(request: TransactionRequest): Transaction {
  return Transaction.from({ ...request, from: undefined } as Parameters<typeof Transaction.from>[0]);
}

/**
 * Every RelaySigner on its backend's `signDigest`: the hashing is ethers', only the signature is
 * the backend's, so a transaction signed by the token is byte for byte the one a local key of the
 * same private value would sign.
 */
export abstract class DigestRelaySigner implements RelaySigner {
  abstract readonly address: string;
  abstract readonly backend: SignerBackend;
  abstract signDigest(digest: string): Promise<Signature>;

  async signTransaction(request: TransactionRequest): Promise<string> {
    const tx = unsignedTransaction(request);
    tx.signature = await this.signDigest(tx.unsignedHash);
    return tx.serialized;
  }

  async signTypedData(domain: TypedDataDomain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string> {
    // ethers' encoder wants the types without EIP712Domain (it derives it from `domain`).
    const { EIP712Domain: _domain, ...rest } = types;
    return (await this.signDigest(TypedDataEncoder.hash(domain, rest, value))).serialized;
  }

  async authorize(auth: AuthorizationRequest & { chainId: bigint | number; nonce: bigint | number }): Promise<Authorization> {
    const request = { address: auth.address as string, chainId: BigInt(auth.chainId), nonce: BigInt(auth.nonce) };
    const signature = await this.signDigest(hashAuthorization(request));
    return { ...request, signature };
  }
}
