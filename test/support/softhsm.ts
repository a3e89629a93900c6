/**
 * A SoftHSM2 token for the HSM signer's specs. SoftHSM reads SOFTHSM2_CONF once, when a process
 * first initializes the library, so every spec of a test run shares one conf and one token
 * (.local/test/softhsm, made fresh by the global setup: `prepareSoftHsm`). Keys are generated INSIDE the token (C_GenerateKeyPair): the private
 * half is sensitive and never extractable; specs keep their keys apart by region name.
 * The token code itself is scripts/softhsm/token.ts (bench:relay makes its own token with it).
 *
 *   const hsm = softHsm();
 *   const key = hsm.generate(`relayer-${region}-0`);     // { label, address }
 *   createTestApp({ env: { ...hsm.env, RELAY_REGIONS: region, RELAY_DEFAULT_REGION: region } });
 */
import { openSoftHsm, type SoftHsm } from '../../scripts/softhsm/token';
import { SOFTHSM_CONF, TOKEN_LABEL, TOKEN_PIN } from './softhsm-token';

export type { SoftHsm } from '../../scripts/softhsm/token';

let opened: SoftHsm | null = null;

export function softHsm(): SoftHsm {
  if (opened) return opened;
  if (process.env.SOFTHSM2_CONF !== SOFTHSM_CONF) throw new Error(`SOFTHSM2_CONF is ${process.env.SOFTHSM2_CONF}, not the test token's ${SOFTHSM_CONF}: run through jest's integration project (its global setup makes the token)`);
  opened = openSoftHsm(TOKEN_LABEL, TOKEN_PIN);
  return opened;
}

/** The treasury key of the token, generated once per token. */
export function tokenTreasury(hsm: SoftHsm): string {
  return hsm.generate('relayer-treasury').address;
}
