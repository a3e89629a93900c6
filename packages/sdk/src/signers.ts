import { getCode } from 'viem/actions';
import { getAddress, type Account, type Address, type Hex, type LocalAccount, type WalletClient } from 'viem';

/** One field of an EIP-712 struct type. */
export interface TypedDataField {
  name: string;
  type: string;
}

/** EIP-712 data as the SDK signs it: struct types without `EIP712Domain` (both libraries derive it from the domain). */
export interface TypedDataToSign {
  domain: { name?: string; version?: string; chainId?: number; verifyingContract?: string };
  types: Record<string, TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** The EIP-7702 authorization a vault plan asks for: delegate `address`, the EOA's current `nonce`, on `chainId`. */
export interface AuthorizationToSign {
  chainId: number;
  address: string;
  nonce: number;
}

/** An EIP-7702 authorization signature (y parity and the two 32-byte halves). */
export interface AuthorizationSignature {
  yParity: 0 | 1;
  r: string;
  s: string;
}

/**
 * What the SDK needs from a wallet. `fromEthers` and `fromViem` build one; every method that
 * signs takes an ethers Signer, a viem WalletClient or LocalAccount, or one of these directly.
 */
export interface RelaySigner {
  readonly kind: 'relay-signer';
  /** Which library (for messages and tests). */
  readonly library: 'ethers' | 'viem' | 'custom';
  getAddress(): Promise<string>;
  /** EIP-191 personal_sign of UTF-8 text. */
  signMessage(message: string): Promise<string>;
  /** eth_signTypedData_v4. */
  signTypedData(data: TypedDataToSign): Promise<string>;
  /** Absent when the wallet cannot sign EIP-7702 authorizations (JSON-RPC wallets such as browser extensions). */
  signAuthorization?(request: AuthorizationToSign): Promise<AuthorizationSignature>;
  /** The EOA's code, when the signer can reach a node (tells whether it already delegates). */
  getCode?(address: string): Promise<string | undefined>;
}

/** The part of an ethers v6 `Signer` the SDK uses (ethers itself is not a dependency of the SDK). */
export interface EthersSignerLike {
  getAddress(): Promise<string>;
  signMessage(message: string): Promise<string>;
  signTypedData(domain: TypedDataToSign['domain'], types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string>;
  /** ethers' `Wallet.authorize` (EIP-7702); a JsonRpcSigner throws from it. */
  authorize?(request: { address: string; nonce?: number; chainId?: number }): Promise<{ signature: AuthorizationSignature }>;
  readonly provider?: { getCode(address: string): Promise<string> } | null;
}

/** A viem wallet: a WalletClient (JSON-RPC such as `custom(window.ethereum)`, or with a local account) or a local account. */
export type ViemSigner = WalletClient | LocalAccount;

/** Anything a signing method of the SDK accepts. */
export type WalletSigner = RelaySigner | EthersSignerLike | ViemSigner;

function viemTypedData(data: TypedDataToSign) {
  const { name, version, chainId, verifyingContract } = data.domain;
  return {
    domain: {
      ...(name === undefined ? {} : { name }),
      ...(version === undefined ? {} : { version }),
      ...(chainId === undefined ? {} : { chainId }),
      ...(verifyingContract === undefined ? {} : { verifyingContract: getAddress(verifyingContract) }),
    },
    types: data.types,
    primaryType: data.primaryType,
    message: data.message,
  };
}

function authorizationOf(signed: { yParity?: number | undefined; v?: bigint | undefined; r: Hex; s: Hex }): AuthorizationSignature {
  const parity = signed.yParity ?? (signed.v === undefined ? undefined : Number(signed.v) - 27);
  if (parity !== 0 && parity !== 1) throw new Error('the wallet returned an authorization without a y parity');
  return { yParity: parity, r: signed.r, s: signed.s };
}

/** An ethers v6 Signer (Wallet, HDNodeWallet, JsonRpcSigner, ...). Authorizations only where ethers can sign them (a Wallet). */
export function fromEthers(signer: EthersSignerLike): RelaySigner {
  const { provider } = signer;
  return {
    kind: 'relay-signer',
    library: 'ethers',
    getAddress: () => signer.getAddress(),
    signMessage: (message) => signer.signMessage(message),
    signTypedData: (data) => signer.signTypedData(data.domain, data.types, data.message),
    ...(signer.authorize
      ? {
          signAuthorization: async (request: AuthorizationToSign) => {
            const auth = await signer.authorize?.({ address: request.address, nonce: request.nonce, chainId: request.chainId });
            if (!auth) throw new Error('the ethers signer cannot sign EIP-7702 authorizations');
            return { yParity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s };
          },
        }
      : {}),
    ...(provider ? { getCode: (address: string) => provider.getCode(address) } : {}),
  };
}

function fromLocalAccount(account: LocalAccount): RelaySigner {
  return {
    kind: 'relay-signer',
    library: 'viem',
    getAddress: () => Promise.resolve(account.address),
    signMessage: (message) => account.signMessage({ message }),
    signTypedData: (data) => account.signTypedData(viemTypedData(data)),
    ...(account.signAuthorization
      ? {
          signAuthorization: async (request: AuthorizationToSign) => {
            const signed = await account.signAuthorization?.({ address: getAddress(request.address), chainId: request.chainId, nonce: request.nonce });
            if (!signed) throw new Error('this viem account cannot sign EIP-7702 authorizations');
            return authorizationOf(signed);
          },
        }
      : {}),
  };
}

function fromWalletClient(client: WalletClient): RelaySigner {
  const account = async (): Promise<Account | Address> => {
    if (client.account) return client.account;
    const [first] = await client.getAddresses();
    if (!first) throw new Error('the wallet client has no account (connect the wallet first)');
    return first;
  };
  const local = client.account?.type === 'local' ? client.account : undefined;
  return {
    kind: 'relay-signer',
    library: 'viem',
    getAddress: async () => {
      const a = await account();
      return typeof a === 'string' ? a : a.address;
    },
    signMessage: async (message) => client.signMessage({ account: await account(), message }),
    signTypedData: async (data) => client.signTypedData({ account: await account(), ...viemTypedData(data) }),
    // viem signs authorizations only with a local account: a JSON-RPC wallet has no method for it.
    ...(local?.signAuthorization ? { signAuthorization: fromLocalAccount(local).signAuthorization } : {}),
    getCode: async (address) => {
      // A wallet's node may refuse reads; then the authorization is simply included.
      return getCode(client, { address: getAddress(address) }).catch(() => undefined);
    },
  };
}

/** A viem WalletClient or local account (`privateKeyToAccount`, `mnemonicToAccount`). */
export function fromViem(wallet: ViemSigner): RelaySigner {
  return isWalletClient(wallet) ? fromWalletClient(wallet) : fromLocalAccount(wallet);
}

function isWalletClient(wallet: ViemSigner): wallet is WalletClient {
  return wallet.type === 'walletClient';
}

function isRelaySigner(wallet: WalletSigner): wallet is RelaySigner {
  return 'kind' in wallet && wallet.kind === 'relay-signer';
}

function isViem(wallet: EthersSignerLike | ViemSigner): wallet is ViemSigner {
  return 'type' in wallet && (wallet.type === 'local' || wallet.type === 'walletClient');
}

/** The SDK's view of whatever wallet it was given. */
export function toRelaySigner(wallet: WalletSigner): RelaySigner {
  if (isRelaySigner(wallet)) return wallet;
  if (isViem(wallet)) return fromViem(wallet);
  return fromEthers(wallet);
}
