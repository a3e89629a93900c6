import { readFileSync } from 'node:fs';
import type * as Pkcs11Types from 'pkcs11js';
import { Signature } from 'ethers';
import { addressOfPublicKey, ecPointPublicKey, ethereumSignature, splitRawSignature } from './ecdsa';
import { DigestRelaySigner } from './relay-signer';

/** DER of secp256k1's OID 1.3.132.0.10, the CKA_EC_PARAMS of every relayer key. */
export const SECP256K1_EC_PARAMS = Buffer.from('06052b8104000a', 'hex');

export interface Pkcs11Options {
  module: string;
  tokenLabel: string;
  pin: string;
}

/** Reads PKCS11_PIN, or the first line of PKCS11_PIN_FILE (a mounted secret). */
export function pinOf(config: { PKCS11_PIN?: string; PKCS11_PIN_FILE?: string }): string {
  if (config.PKCS11_PIN) return config.PKCS11_PIN;
  if (config.PKCS11_PIN_FILE) return readFileSync(config.PKCS11_PIN_FILE, 'utf8').split(/\r?\n/)[0];
  throw new Error('PKCS11_PIN or PKCS11_PIN_FILE is required with RELAYER_SIGNER=pkcs11');
}

function loadPkcs11(): typeof Pkcs11Types {
  // Loaded only with RELAYER_SIGNER=pkcs11: the local stack never opens the native addon.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('pkcs11js') as typeof Pkcs11Types;
}

/**
 * One logged-in session on a PKCS#11 token (CloudHSM, YubiHSM, Luna, SoftHSM2 all speak it).
 * Signing is C_SignInit + C_Sign with CKM_ECDSA over the 32-byte digest, called synchronously:
 * JavaScript runs one at a time, so the pair never interleaves on the session, and a token
 * signature takes well under a millisecond (bench/signers.ts). The private keys are only ever
 * referred to by handle; nothing here reads a private value (tokens refuse it for
 * CKA_SENSITIVE / non-extractable keys anyway).
 */
export class Pkcs11Token {
  private readonly lib: Pkcs11Types.PKCS11;
  private readonly session: Buffer;
  private readonly pk: typeof Pkcs11Types;
  private closed = false;

  constructor(options: Pkcs11Options) {
    this.pk = loadPkcs11();
    this.lib = new this.pk.PKCS11();
    this.lib.load(options.module);
    try {
      this.lib.C_Initialize();
    } catch (err) {
      // Another user of the module in this process (tests) initialized it already.
      if (!String((err as Error).message).includes('CKR_CRYPTOKI_ALREADY_INITIALIZED')) throw err;
    }
    const slot = this.lib.C_GetSlotList(true).find((s) => this.lib.C_GetTokenInfo(s).label.trim() === options.tokenLabel);
    if (!slot) throw new Error(`PKCS11_TOKEN_LABEL: no token labelled ${options.tokenLabel} in ${options.module}`);
    this.session = this.lib.C_OpenSession(slot, this.pk.CKF_SERIAL_SESSION | this.pk.CKF_RW_SESSION);
    try {
      this.lib.C_Login(this.session, this.pk.CKU_USER, options.pin);
    } catch (err) {
      if (!String((err as Error).message).includes('CKR_USER_ALREADY_LOGGED_IN')) throw err;
    }
  }

  /** Every secp256k1 key pair of the token by label: a private key and the public key of the same label. */
  keys(): Pkcs11Key[] {
    const pk = this.pk;
    const privates = this.find([
      { type: pk.CKA_CLASS, value: pk.CKO_PRIVATE_KEY },
      { type: pk.CKA_KEY_TYPE, value: pk.CKK_EC },
    ]);
    const keys: Pkcs11Key[] = [];
    for (const handle of privates) {
      const [label, params] = this.lib.C_GetAttributeValue(this.session, handle, [{ type: pk.CKA_LABEL }, { type: pk.CKA_EC_PARAMS }]);
      if (!params.value || !Buffer.from(params.value as Buffer).equals(SECP256K1_EC_PARAMS)) continue;
      const name = (label.value as Buffer | undefined)?.toString('utf8') ?? '';
      const publics = this.find([
        { type: pk.CKA_CLASS, value: pk.CKO_PUBLIC_KEY },
        { type: pk.CKA_LABEL, value: name },
      ]);
      if (publics.length !== 1) continue;
      const [point] = this.lib.C_GetAttributeValue(this.session, publics[0], [{ type: pk.CKA_EC_POINT }]);
      const publicKey = ecPointPublicKey(point.value as Buffer);
      keys.push(new Pkcs11Key(this, name, handle, publicKey));
    }
    return keys;
  }

  /** CKM_ECDSA over the digest: r ‖ s as the token returns it. */
  signRaw(handle: Buffer, digest: Buffer): Buffer {
    if (this.closed) throw new Error('PKCS#11 session closed');
    this.lib.C_SignInit(this.session, { mechanism: this.pk.CKM_ECDSA }, handle);
    return this.lib.C_Sign(this.session, digest, Buffer.alloc(72));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // No C_Finalize: other users of the module in this process (a test's own session) keep theirs.
    this.lib.C_CloseSession(this.session);
  }

  private find(template: Pkcs11Types.Template): Buffer[] {
    this.lib.C_FindObjectsInit(this.session, template);
    try {
      return this.lib.C_FindObjects(this.session, 1000);
    } finally {
      this.lib.C_FindObjectsFinal(this.session);
    }
  }
}

/** A relayer key in the token: signs through it, knows only its handle and public key. */
export class Pkcs11Key extends DigestRelaySigner {
  readonly backend = 'pkcs11' as const;
  readonly address: string;

  constructor(
    private readonly token: Pkcs11Token,
    readonly label: string,
    private readonly handle: Buffer,
    private readonly publicKey: string,
  ) {
    super();
    this.address = addressOfPublicKey(publicKey);
  }

  signDigest(digest: string): Promise<Signature> {
    try {
      const bytes = Buffer.from(digest.slice(2), 'hex');
      const { r, s } = splitRawSignature(this.token.signRaw(this.handle, bytes));
      return Promise.resolve(ethereumSignature(digest, r, s, this.publicKey));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
