/**
 * A SoftHSM2 token made and opened from code: shared by the HSM signer's specs
 * (test/support/softhsm*.ts, a token under .local/test/softhsm) and `npm run bench:relay` with
 * RELAYER_SIGNER=pkcs11 (its own token under .local/bench/softhsm, so neither removes the
 * other's). Keys are generated INSIDE the token (C_GenerateKeyPair): the private half is
 * sensitive and never extractable, as an operator would make them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as pkcs11js from 'pkcs11js';
import { addressOfPublicKey, ecPointPublicKey } from '../../src/modules/relay/core/signers/ecdsa';
import { SECP256K1_EC_PARAMS } from '../../src/modules/relay/core/signers/pkcs11-token';

export const SOFTHSM_MODULE = process.env.SOFTHSM2_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';

export interface SoftHsmTokenSpec {
  /** The token's directory (conf + tokens/), removed and made again by `initSoftHsmToken`. */
  dir: string;
  label: string;
  pin: string;
  soPin: string;
}

export const softHsmConf = (dir: string): string => join(dir, 'softhsm2.conf');

/**
 * A fresh token in `spec.dir`, made by softhsm2-util before this process loads the library, and
 * SOFTHSM2_CONF set in the real environment: SoftHSM reads it once, with getenv, at C_Initialize,
 * and child processes (jest workers, bench workers) inherit it.
 */
export function initSoftHsmToken(spec: SoftHsmTokenSpec): string {
  const conf = softHsmConf(spec.dir);
  const tokens = join(spec.dir, 'tokens');
  rmSync(spec.dir, { recursive: true, force: true });
  mkdirSync(tokens, { recursive: true });
  writeFileSync(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = conf;
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', spec.label, '--pin', spec.pin, '--so-pin', spec.soPin], { env: { ...process.env }, stdio: 'pipe' });
  return conf;
}

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

/** A logged-in read-write session on the token labelled `label` of the conf in SOFTHSM2_CONF. */
export function openSoftHsm(label: string, pin: string): SoftHsm {
  const conf = process.env.SOFTHSM2_CONF ?? '';
  const lib = new pkcs11js.PKCS11();
  lib.load(SOFTHSM_MODULE);
  try {
    lib.C_Initialize();
  } catch (err) {
    if (!String((err as Error).message).includes('CKR_CRYPTOKI_ALREADY_INITIALIZED')) throw err;
  }
  const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === label);
  if (!slot) throw new Error(`no SoftHSM token ${label} under ${conf}`);
  const session = lib.C_OpenSession(slot, pkcs11js.CKF_SERIAL_SESSION | pkcs11js.CKF_RW_SESSION);
  try {
    lib.C_Login(session, pkcs11js.CKU_USER, pin);
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
  const privateOf = (keyLabel: string) => {
    const [handle] = find([{ type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PRIVATE_KEY }, { type: pkcs11js.CKA_LABEL, value: keyLabel }]);
    if (!handle) throw new Error(`no private key ${keyLabel}`);
    return handle;
  };
  const bool = (b: Buffer | undefined) => b !== undefined && b.length > 0 && b[0] !== 0;

  return {
    env: { RELAYER_SIGNER: 'pkcs11', PKCS11_MODULE: SOFTHSM_MODULE, PKCS11_TOKEN_LABEL: label, PKCS11_PIN: pin, SOFTHSM2_CONF: conf, RELAYER_TREASURY_PATH: '', RELAYER_TREASURY_KEY: '' },
    lib,
    session,
    generate(keyLabel) {
      for (const handle of find([{ type: pkcs11js.CKA_LABEL, value: keyLabel }])) lib.C_DestroyObject(session, handle);
      const id = Buffer.from(keyLabel, 'utf8');
      const keys = lib.C_GenerateKeyPair(
        session,
        { mechanism: pkcs11js.CKM_EC_KEY_PAIR_GEN },
        [
          { type: pkcs11js.CKA_CLASS, value: pkcs11js.CKO_PUBLIC_KEY },
          { type: pkcs11js.CKA_KEY_TYPE, value: pkcs11js.CKK_EC },
          { type: pkcs11js.CKA_TOKEN, value: true },
          { type: pkcs11js.CKA_VERIFY, value: true },
          { type: pkcs11js.CKA_LABEL, value: keyLabel },
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
          { type: pkcs11js.CKA_LABEL, value: keyLabel },
          { type: pkcs11js.CKA_ID, value: id },
        ],
      );
      const [point] = lib.C_GetAttributeValue(session, keys.publicKey, [{ type: pkcs11js.CKA_EC_POINT }]);
      return { label: keyLabel, address: addressOfPublicKey(ecPointPublicKey(point.value as Buffer)) };
    },
    privateAttributes(keyLabel) {
      const attrs = lib.C_GetAttributeValue(session, privateOf(keyLabel), [
        { type: pkcs11js.CKA_SENSITIVE },
        { type: pkcs11js.CKA_EXTRACTABLE },
        { type: pkcs11js.CKA_ALWAYS_SENSITIVE },
        { type: pkcs11js.CKA_NEVER_EXTRACTABLE },
        { type: pkcs11js.CKA_TOKEN },
      ]);
      const [sensitive, extractable, alwaysSensitive, neverExtractable, token] = attrs.map((a) => bool(a.value as Buffer | undefined));
      return { sensitive, extractable, alwaysSensitive, neverExtractable, token };
    },
    readPrivateValue(keyLabel) {
      try {
        lib.C_GetAttributeValue(session, privateOf(keyLabel), [{ type: pkcs11js.CKA_VALUE }]);
        return 'read';
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}
