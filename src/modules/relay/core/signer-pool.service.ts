import { Injectable } from '@nestjs/common';
import { getBytes, HDNodeWallet, hexlify, Mnemonic } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { RegionResolver } from '../intake/region-resolver';
import { DerivationScheme, DerivedKeys } from './derived-keys';
import { KeyEligibility } from './key-eligibility';
import { LocalKeySigner } from './local-key-signer';
import { LruMap } from './lru-map';

/** What signs: a local key today; a KMS-backed signer can implement the same shape. */
export interface RelaySigner {
  address: string;
  signTransaction(tx: import('ethers').TransactionRequest): Promise<string>;
}

/** What a row needs to find the key that signed it again: its account, path, scheme and recorded sender. */
export interface DerivedRow {
  userId: string;
  derivationPath: string | null;
  derivationScheme: DerivationScheme | null;
  sender: string | null;
}

/**
 * Relayer keys per (region, chain) drawn from RELAYER_MNEMONIC (region i, key j at
 * m/44'/60'/i'/0/j), and keys derived per account from AUTH_MNEMONIC for authenticated
 * transactions (`DerivedKeys`), kept in an LRU of DERIVED_SIGNER_CACHE_SIZE.
 */
@Injectable()
export class SignerPool {
  private readonly pools = new Map<string, LocalKeySigner[]>();
  private readonly derived: LruMap<string, LocalKeySigner>;
  private readonly turns = new Map<string, number>();
  private readonly keys: DerivedKeys;

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
    // The one PBKDF2 of the auth mnemonic, at startup; each new path is then HMACs and a few curve operations.
    this.keys = new DerivedKeys(getBytes(Mnemonic.fromPhrase(config.AUTH_MNEMONIC).computeSeed()));
    this.derived = new LruMap(config.DERIVED_SIGNER_CACHE_SIZE);
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
    return undefined;
  }

  /**
   * The account's key at `path` (VALIDATION_001 for a path that is not a BIP-32 path): the same
   * account and path give the same key, always; another account's same path, another key.
   * `legacy` is the derivation before keys were per account, only for rows recorded under it.
   */
  derive(accountId: string, path: string, scheme: DerivationScheme = 'account'): RelaySigner {
    const id = `${scheme}:${accountId}:${path}`;
    let signer = this.derived.get(id);
    if (!signer) {
      const key = this.keys.derive(accountId, path, scheme);
      if (key === 'invalid') throw new AppError('VALIDATION_001', `derivationPath ${path} is not a BIP-32 path like m/44'/60'/0'/0/7`);
      if (key === 'underivable') throw new AppError('VALIDATION_001', `derivationPath ${path} cannot be derived`);
      signer = new LocalKeySigner(hexlify(key.privateKey), key.address);
      this.derived.set(id, signer);
    }
    return signer;
  }

  /**
   * The key that signs a row again (resend, replacement, cancellation, nonce fill): its derived
   * key, re-derived from the row when the cache no longer holds it, or its pool key. Undefined
   * when the row's recorded sender is not that key: nothing is ever signed for an address the
   * row does not name.
   */
  forRow(tx: DerivedRow): RelaySigner | undefined {
    if (!tx.derivationPath) return tx.sender ? this.byAddress(tx.sender) : undefined;
    const signer = this.derive(tx.userId, tx.derivationPath, tx.derivationScheme ?? 'account');
    return !tx.sender || signer.address.toLowerCase() === tx.sender.toLowerCase() ? signer : undefined;
  }
}

function signerOf(wallet: HDNodeWallet): LocalKeySigner {
  return new LocalKeySigner(wallet.privateKey, wallet.address);
}
