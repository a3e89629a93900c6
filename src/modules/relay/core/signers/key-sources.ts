import { HDNodeWallet, Mnemonic, Wallet } from 'ethers';
import { AppConfig } from '../../../../config/app-config';
import { LocalKeySigner } from '../local-key-signer';
import { Pkcs11Token, pinOf } from './pkcs11-token';
import { RelaySigner } from './relay-signer';

/** A relayer key as a key source lists it: its region and index in that region's pool. */
export interface SourcedKey {
  region: string;
  index: number;
  signer: RelaySigner;
}

/** Where relayer keys and the treasury come from; `keys()` is read again on every rescan. */
export interface KeySource {
  keys(): SourcedKey[];
  treasury(): RelaySigner | null;
  close(): void;
}

/** The label of relayer key `index` of `region` in a token, and of the treasury. */
export const relayerLabel = (region: string, index: number) => `relayer-${region}-${index}`;
export const TREASURY_LABEL = 'relayer-treasury';
const LABEL = /^relayer-([a-z0-9-]+)-(\d{1,4})$/;

/** RELAYER_SIGNER=local: region i, key j at m/44'/60'/i'/0/j of RELAYER_MNEMONIC; keys derived once. */
export class LocalKeySource implements KeySource {
  private readonly root: HDNodeWallet;
  private readonly made = new Map<string, LocalKeySigner>();
  private readonly treasurySigner: LocalKeySigner | null;

  constructor(
    private readonly config: AppConfig,
    private readonly regions: readonly string[],
  ) {
    // The one PBKDF2 of the mnemonic; each key is then a derivation below the root.
    this.root = HDNodeWallet.fromSeed(Mnemonic.fromPhrase(config.RELAYER_MNEMONIC).computeSeed());
    const treasury = config.RELAYER_TREASURY_KEY ? new Wallet(config.RELAYER_TREASURY_KEY) : config.RELAYER_TREASURY_PATH ? this.root.derivePath(config.RELAYER_TREASURY_PATH) : null;
    this.treasurySigner = treasury ? new LocalKeySigner(treasury.privateKey, treasury.address) : null;
  }

  /** RELAYER_KEYS_PER_REGION as the config holds it now (a reload may have raised it). */
  keys(): SourcedKey[] {
    return this.regions.flatMap((region, r) =>
      Array.from({ length: this.config.RELAYER_KEYS_PER_REGION }, (_, index) => {
        const path = `m/44'/60'/${r}'/0/${index}`;
        let signer = this.made.get(path);
        if (!signer) {
          const wallet = this.root.derivePath(path);
          signer = new LocalKeySigner(wallet.privateKey, wallet.address);
          this.made.set(path, signer);
        }
        return { region, index, signer };
      }),
    );
  }

  treasury(): RelaySigner | null {
    return this.treasurySigner;
  }

  close(): void {}
}

/**
 * RELAYER_SIGNER=pkcs11: the token's secp256k1 keys labelled `relayer-<region>-<index>` (regions
 * of RELAY_REGIONS only) and `relayer-treasury`. A rescan lists the token again, so a key
 * generated in the token under a new label joins its pool without a restart.
 */
export class Pkcs11KeySource implements KeySource {
  private readonly token: Pkcs11Token;
  private treasurySigner: RelaySigner | null = null;

  constructor(
    config: AppConfig,
    private readonly regions: readonly string[],
  ) {
    if (!config.PKCS11_MODULE || !config.PKCS11_TOKEN_LABEL) throw new Error('Invalid configuration:\n  PKCS11_MODULE and PKCS11_TOKEN_LABEL are required with RELAYER_SIGNER=pkcs11');
    this.token = new Pkcs11Token({ module: config.PKCS11_MODULE, tokenLabel: config.PKCS11_TOKEN_LABEL, pin: pinOf(config) });
    this.keys();
  }

  keys(): SourcedKey[] {
    const found: SourcedKey[] = [];
    for (const key of this.token.keys()) {
      if (key.label === TREASURY_LABEL) {
        this.treasurySigner = key;
        continue;
      }
      const match = LABEL.exec(key.label);
      if (!match) continue;
      // `relayer-us-east-1`: the region is everything before the last dash.
      if (!this.regions.includes(match[1])) continue;
      found.push({ region: match[1], index: Number(match[2]), signer: key });
    }
    return found.sort((a, b) => a.region.localeCompare(b.region) || a.index - b.index);
  }

  treasury(): RelaySigner | null {
    return this.treasurySigner;
  }

  close(): void {
    this.token.close();
  }
}

export function keySourceOf(config: AppConfig, regions: readonly string[]): KeySource {
  return config.RELAYER_SIGNER === 'pkcs11' ? new Pkcs11KeySource(config, regions) : new LocalKeySource(config, regions);
}
