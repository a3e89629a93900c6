import { join } from 'node:path';
import { initSoftHsmToken, SOFTHSM_MODULE as MODULE, softHsmConf } from '../../scripts/softhsm/token';
import { TEST_STATE_DIR } from './test-env';

export const SOFTHSM_MODULE = MODULE;
export const TOKEN_LABEL = 'relay-test';
export const TOKEN_PIN = '246810';
const SO_PIN = '13579111';

/** The token's directory and conf of this test run (made fresh by the integration tier's global setup). */
export const SOFTHSM_DIR = join(TEST_STATE_DIR, 'softhsm');
export const SOFTHSM_CONF = softHsmConf(SOFTHSM_DIR);

/**
 * A fresh token for the run, made by softhsm2-util before any process loads the library, and
 * SOFTHSM2_CONF in the real environment (jest's workers and the specs' worker processes inherit
 * it; the library reads it with getenv, where a spec's sandboxed process.env does not reach).
 */
export function prepareSoftHsm(): void {
  initSoftHsmToken({ dir: SOFTHSM_DIR, label: TOKEN_LABEL, pin: TOKEN_PIN, soPin: SO_PIN });
}
