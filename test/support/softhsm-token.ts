import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_STATE_DIR } from './test-env';

export const SOFTHSM_MODULE = process.env.SOFTHSM2_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';
export const TOKEN_LABEL = 'relay-test';
export const TOKEN_PIN = '246810';
const SO_PIN = '13579111';

/** The token's directory and conf of this test run (made fresh by the integration tier's global setup). */
export const SOFTHSM_DIR = join(TEST_STATE_DIR, 'softhsm');
export const SOFTHSM_CONF = join(SOFTHSM_DIR, 'softhsm2.conf');

/**
 * A fresh token for the run, made by softhsm2-util before any process loads the library, and
 * SOFTHSM2_CONF in the real environment (jest's workers and the specs' worker processes inherit
 * it; the library reads it with getenv, where a spec's sandboxed process.env does not reach).
 */
export function prepareSoftHsm(): void {
  const tokens = join(SOFTHSM_DIR, 'tokens');
  rmSync(SOFTHSM_DIR, { recursive: true, force: true });
  mkdirSync(tokens, { recursive: true });
  writeFileSync(SOFTHSM_CONF, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n`);
  process.env.SOFTHSM2_CONF = SOFTHSM_CONF;
  execFileSync('softhsm2-util', ['--init-token', '--free', '--label', TOKEN_LABEL, '--pin', TOKEN_PIN, '--so-pin', SO_PIN], { env: { ...process.env }, stdio: 'pipe' });
}

