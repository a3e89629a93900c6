import { Injectable } from '@nestjs/common';
import { HDNodeWallet, Mnemonic } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { RegionResolver } from '../intake/region-resolver';
import { KeyEligibility } from './key-eligibility';
import { LocalKeySigner } from './local-key-signer';

/** What signs: a local key today; a KMS-backed signer can implement the same shape. */
export interface RelaySigner {
  address: string;
  signTransaction(tx: import('ethers').TransactionRequest): Promise<string>;
}

const DERIVATION_PATH = /^m(\/\d{1,10}'?){1,10}$/;

/**
 * Relayer keys per (region, chain) drawn from RELAYER_MNEMONIC (region i, key j at
 * m/44'/60'/i'/0/j), and keys derived from AUTH_MNEMONIC for authenticated transactions.
 */
@Injectable()
export class SignerPool {
  private readonly pools = new Map<string, LocalKeySigner[]>();
  private readonly derived = new Map<string, LocalKeySigner>();
  private readonly turns = new Map<string, number>();
  private readonly authMnemonic: Mnemonic;

  constructor(
    private readonly config: AppConfig,
    private readonly regions: RegionResolver,
    private readonly eligibility: KeyEligibility,
  ) {
    const relayer = Mnemonic.fromPhrase(config.RELAYER_MNEMONIC);
    regions.regions.forEach((region, r) => {
      const keys = Array.from({ length: config.RELAYER_KEYS_PER_REGION }, (_, k) => signerOf(HDNodeWallet.fromMnemonic(relayer, `m/44'/60'/${r}'/0/${k}`)));
      this.pools.set(region, keys);
    });
    this.authMnemonic = Mnemonic.fromPhrase(config.AUTH_MNEMONIC);
  }

  /** Every relayer address of a region (the same addresses serve every chain). */
  poolAddresses(region?: string): string[] {
    const regions = region ? [region] : [...this.pools.keys()];
    return regions.flatMap((r) => (this.pools.get(r) ?? []).map((w) => w.address));
  }

  /** The region's relayer keys, in a fixed order (the in-flight bound picks among them). */
  pool(region: string): readonly RelaySigner[] {
    const pool = this.pools.get(region);
    if (!pool) throw new AppError('SYSTEM_002', `no relayer pool for region ${region}`);
    return pool;
  }

  /** The region's keys that may take new work on the chain (over their balance floor while the pool has such keys; KeyEligibility). */
  eligiblePool(region: string, chainId: number): readonly RelaySigner[] {
    return this.eligibility.eligible(chainId, [...this.pool(region)]);
  }

  /**
   * Round-robin over the region's keys, per process: instances pick independently, which spreads
   * the load as evenly, and nonce claims make two processes signing with one key safe. Keys
   * under their balance floor are skipped while the pool has better ones (KeyEligibility).
   */
  async next(region: string, chainId: number): Promise<RelaySigner> {
    const all = this.pools.get(region);
    if (!all) throw new AppError('SYSTEM_002', `no relayer pool for region ${region}`);
    const pool = this.eligibility.eligible(chainId, all);
    const turn = `${region}:${chainId}`;
    const n = (this.turns.get(turn) ?? Math.floor(Math.random() * pool.length)) + 1;
    this.turns.set(turn, n);
    return pool[n % pool.length];
  }

  /** Every region's pool keys, for the wallet monitor. */
  poolKeys(): Array<{ region: string; address: string }> {
    return [...this.pools.entries()].flatMap(([region, keys]) => keys.map((k) => ({ region, address: k.address })));
  }

  /** The pool key with this address, for resending a transaction with the signer that holds its nonce. */
  byAddress(address: string): RelaySigner | undefined {
    const lower = address.toLowerCase();
    for (const pool of this.pools.values()) {
      const found = pool.find((w) => w.address.toLowerCase() === lower);
      if (found) return found;
    }
    return this.derivedByAddress(lower);
  }

  /** VALIDATION_001 for a path that is not a BIP-32 path. Same path, same key, always. */
  derive(path: string): RelaySigner {
    if (!DERIVATION_PATH.test(path)) throw new AppError('VALIDATION_001', `derivationPath ${path} is not a BIP-32 path like m/44'/60'/0'/0/7`);
    let signer = this.derived.get(path);
    if (!signer) {
      try {
        signer = signerOf(HDNodeWallet.fromMnemonic(this.authMnemonic, path));
      } catch {
        throw new AppError('VALIDATION_001', `derivationPath ${path} cannot be derived`);
      }
      this.derived.set(path, signer);
    }
    return signer;
  }

  private derivedByAddress(lower: string): RelaySigner | undefined {
    for (const signer of this.derived.values()) if (signer.address.toLowerCase() === lower) return signer;
    return undefined;
  }
}

function signerOf(wallet: HDNodeWallet): LocalKeySigner {
  return new LocalKeySigner(wallet.privateKey, wallet.address);
}
