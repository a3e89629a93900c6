/**
 * A SoftHSM2 token for the HSM signer's specs. SoftHSM reads SOFTHSM2_CONF once, when a process
 * first initializes the library, so every spec of a test run shares one conf and one token
 * (.local/test/softhsm, made fresh by the global setup: `prepareSoftHsm`). Keys are generated INSIDE the token (C_GenerateKeyPair): the private
 * half is sensitive and never extractable; specs keep their keys apart by region name.
 *
 *   const hsm = softHsm();
 *   const key = hsm.generate(`relayer-${region}-0`);     // { label, address }
 *   createTestApp({ env: { ...hsm.env, RELAY_REGIONS: region, RELAY_DEFAULT_REGION: region } });
 */
import * as pkcs11js from 'pkcs11js';
import { addressOfPublicKey, ecPointPublicKey } from '../../src/modules/relay/core/signers/ecdsa';
import { SECP256K1_EC_PARAMS } from '../../src/modules/relay/core/signers/pkcs11-token';
import { SOFTHSM_CONF, SOFTHSM_MODULE, TOKEN_LABEL, TOKEN_PIN } from './softhsm-token';


export interface SoftHsm {
  /** What the app needs to sign with the token (RELAYER_SIGNER=pkcs11 and the PKCS11_* variables). */
  env: Record<string, string>;
  /** A new secp256k1 key pair in the token under `label` (any older pair of that label destroyed first). */
  generate(label: string): { label: string; address: string };
  /** The private key's protection attributes, as the token reports them. */
  privateAttributes(label: string): { sensitive: boolean; extractable: boolean; alwaysSensitive: boolean; neverExtractable: boolean; token: boolean };
  /** The token's answer to reading the private value (CKA_VALUE): the PKCS#11 error it raises. */
  readPrivateValue(label: string): string;
  lib: pkcs11js.PKCS11;
  session: Buffer;
}

let opened: SoftHsm | null = null;

export function softHsm(): SoftHsm {
  if (opened) return opened;
  const conf = SOFTHSM_CONF;
  if (process.env.SOFTHSM2_CONF !== conf) throw new Error(`SOFTHSM2_CONF is ${process.env.SOFTHSM2_CONF}, not the test token's ${conf}: run through jest's integration project (its global setup makes the token)`);
  const lib = new pkcs11js.PKCS11();
  lib.load(SOFTHSM_MODULE);
  try {
    lib.C_Initialize();
  } catch (err) {
    if (!String((err as Error).message).includes('CKR_CRYPTOKI_ALREADY_INITIALIZED')) throw err;
  }
  const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === TOKEN_LABEL);
  if (!slot) throw new Error(`no SoftHSM token ${TOKEN_LABEL} under ${conf}`);
  const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  try {
    lib.C_Login(session, pkcs11js.CKU_USER, TOKEN_PIN);
  } catch (err) {
    if (!String((err as Error).message).includes('CKR_USER_ALREADY_LOGGED_IN')) throw err;
  }

  const find = (template: pkcs11js.Template): Buffer[] => {
    lib.C_FindObjectsInit(session, template);
    try {
      return lib.C_FindObjects(session, 100);
    } finally {
      lib.C_FindObjectsFinal(session);
    }
  };
  const privateOf = (label: string) => {
    const [handle] = find([{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_LABEL, value: label }]);
    if (!handle) throw new Error(`no private key ${label}`);
    return handle;
  };
  const bool = (b: Buffer | undefined) => b !== undefined && b.length > 0 && b[0] !== 0;

  opened = {
    env: { RELAYER_SIGNER: 'pkcs11', PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: TOKEN_LABEL, PKCS11_PIN: TOKEN_PIN, SOFTHSM2_CONF: conf, RELAYER_TREASURY_PATH: '', RELAYER_TREASURY_KEY: '' },
    lib,
    session,
    generate(label) {
      for (const handle of find([{ type: pkcs11js.CKA_LABEL, value: label }])) lib.C_DestroyObject(session, handle);
      const id = Buffer.from(label, 'utf8');
      const keys = lib.C_GenerateKeyPair(
        session,
        { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
        [
          { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
          { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
          { type: pkcs11js.CKA_TOKEN, value: true },
          { type: pkcs11js.CKA_VERIFY, value: true },
          { type: pkcs11js.CKA_LABEL, value: label },
          { type: pkcs11js.CKA_ID, value: id },
          { type: pkcs11js.CKA_EC_PARAMS, value: SECP256K1_EC_PARAMS },
        ],
        [
          { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY },
          { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
          { type: pkcs11js.CKA_TOKEN, value: true },
          { type: pkcs11js.CKA_PRIVATE, value: true },
          { type: pkcs11js.CKA_SIGN, value: true },
          { type: pkcs11js.CKA_SENSITIVE, value: true },
          { type: pkcs11js.CKA_EXTRACTABLE, value: false },
          { type: pkcs11js.CKA_LABEL, value: label },
          { type: pkcs11js.CKA_ID, value: id },
        ],
      );
      const [point] = lib.C_GetAttributeValue(session, keys.publicKey, [{ type: pkcs11js.CKA_EC_POINT }]);
      return { label, address: addressOfPublicKey(ecPointPublicKey(point.value as Buffer)) };
    },
    privateAttributes(label) {
      const attrs = lib.C_GetAttributeValue(session, privateOf(label), [
        { type: pkcs11js.CKA_SENSITIVE },
        { type: pkcs11js.CKA_EXTRACTABLE },
        { type: pkcs11js.CKA_ALWAYS_SENSITIVE },
        { type: pkcs11js.CKA_NEVER_EXTRACTABLE },
        { type: pkcs11js.CKA_TOKEN },
      ]);
      const [sensitive, extractable, alwaysSensitive, neverExtractable, token] = attrs.map((a) => bool(a.value as Buffer | undefined));
      return { sensitive, extractable, alwaysSensitive, neverExtractable, token };
    },
    readPrivateValue(label) {
      try {
        lib.C_GetAttributeValue(session, privateOf(label), [{ type: pkcs11js.CKA_VALUE }]);
        return 'read';
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
  return opened;
}

/** The treasury key of the token, generated once per token. */
export function tokenTreasury(hsm: SoftHsm): string {
  return hsm.generate('relayer-treasury').address;
}
