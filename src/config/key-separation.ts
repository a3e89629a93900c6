import type { AppConfig } from './app-config';

type KeyConfig = Pick<AppConfig, 'NODE_ENV' | 'RELAYER_MNEMONIC' | 'AUTH_MNEMONIC' | 'RELAYER_TREASURY_PATH' | 'RELAY_REGIONS' | 'RELAYER_KEYS_PER_REGION'>;

/** `m/44'/60'/0'/0/7` → `44',60',0',0,7` with leading zeros dropped, so `0/07` and `0/7` compare equal. */
function canonicalPath(path: string): string {
  return path
    .split('/')
    .slice(1)
    .map((p) => (p.endsWith("'") ? `${Number(p.slice(0, -1))}'` : String(Number(p))))
    .join(',');
}

/**
 * Keys with different privileges must come from different secrets: the derived senders (every
 * team chooses their paths) from AUTH_MNEMONIC, the relayer pool and the treasury from
 * RELAYER_MNEMONIC. The treasury as a path on the relayer mnemonic must not be a pool key's path
 * (a pool key would then spend the treasury's balance as its own), and in production the
 * treasury is a key of its own (RELAYER_TREASURY_KEY), not one more path beside the hot pool.
 */
export function keySeparationErrors(config: KeyConfig): string[] {
  const errors: string[] = [];
  if (config.AUTH_MNEMONIC.trim().toLowerCase() === config.RELAYER_MNEMONIC.trim().toLowerCase()) {
    errors.push('AUTH_MNEMONIC: must differ from RELAYER_MNEMONIC (derived senders would share the relayer keys\' secret)');
  }
  const treasury = config.RELAYER_TREASURY_PATH;
  if (treasury) {
    if (config.NODE_ENV === 'production') errors.push('RELAYER_TREASURY_PATH: not allowed in production; set RELAYER_TREASURY_KEY (a key apart from the relayer mnemonic)');
    const regions = config.RELAY_REGIONS.split(',').length;
    const wanted = canonicalPath(treasury);
    for (let r = 0; r < regions; r++) {
      for (let k = 0; k < config.RELAYER_KEYS_PER_REGION; k++) {
        if (canonicalPath(`m/44'/60'/${r}'/0/${k}`) === wanted) errors.push(`RELAYER_TREASURY_PATH: ${treasury} is relayer key ${k} of region ${r}; choose a path outside m/44'/60'/<region>'/0/<key>`);
      }
    }
  }
  return errors;
}
