import { DEV_AUTH_MNEMONIC, DEV_RELAYER_MNEMONIC, DEV_TREASURY_PATH } from '../../scripts/local-stack/dev-keys';
import { keySeparationErrors } from './key-separation';

const base = { NODE_ENV: 'development' as const, RELAYER_MNEMONIC: DEV_RELAYER_MNEMONIC, AUTH_MNEMONIC: DEV_AUTH_MNEMONIC, RELAY_REGIONS: 'us-east,eu-west,ap-south', RELAYER_KEYS_PER_REGION: 2 };

describe('key separation (startup configuration)', () => {
  it('accepts separate mnemonics and a treasury path outside the pool', () => {
    expect(keySeparationErrors({ ...base, RELAYER_TREASURY_PATH: DEV_TREASURY_PATH })).toEqual([]);
  });

  it('refuses AUTH_MNEMONIC equal to RELAYER_MNEMONIC, in every environment', () => {
    for (const env of ['development', 'test', 'production'] as const) {
      expect(keySeparationErrors({ ...base, NODE_ENV: env, AUTH_MNEMONIC: DEV_RELAYER_MNEMONIC }).join()).toMatch(/AUTH_MNEMONIC: must differ from RELAYER_MNEMONIC/);
    }
  });

  it('refuses a treasury path that is a relayer key path, spelled either way', () => {
    expect(keySeparationErrors({ ...base, RELAYER_TREASURY_PATH: "m/44'/60'/2'/0/1" }).join()).toMatch(/is relayer key 1 of region 2/);
    expect(keySeparationErrors({ ...base, RELAYER_TREASURY_PATH: "m/44'/60'/0'/00/001" }).join()).toMatch(/is relayer key 1 of region 0/);
    expect(keySeparationErrors({ ...base, RELAYER_TREASURY_PATH: "m/44'/60'/2'/0/2" })).toEqual([]);
  });

  it('refuses any treasury path on the relayer mnemonic in production', () => {
    expect(keySeparationErrors({ ...base, NODE_ENV: 'production', RELAYER_TREASURY_PATH: DEV_TREASURY_PATH }).join()).toMatch(/RELAYER_TREASURY_PATH: not allowed in production/);
  });
});
