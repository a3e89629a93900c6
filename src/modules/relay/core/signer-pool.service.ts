import { readFileSync } from 'node:fs';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { getBytes, hexlify, Mnemonic } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { RegionResolver } from '../intake/region-resolver';
import { RelayerKeyState, RelayerKeyStore } from '../store/relayer-key.store';
import { DerivationScheme, DerivedKeys } from './derived-keys';
import { KeyEligibility } from './key-eligibility';
import { LocalKeySigner } from './local-key-signer';
import { LruMap } from './lru-map';
import { KeySource, keySourceOf, SourcedKey } from './signers/key-sources';
import type { RelaySigner } from './signers/relay-signer';

export type { RelaySigner, SignerBackend } from './signers/relay-signer';

/** What a row needs to find the key that signed it again: its account, path, scheme and recorded sender. */
export interface DerivedRow {
  userId: string;
  derivationPath: string | null;
  derivationScheme: DerivationScheme | null;
  sender: string | null;
}

/** How often every process reads the keys' states (a retire reaches all of them within this). */
const STATE_POLL_MS = 1_000;

/**
 * Relayer keys per region from the key source (RELAYER_SIGNER: RELAYER_MNEMONIC in memory, or a
 * PKCS#11 token), and keys derived per account from AUTH_MNEMONIC for authenticated
 * transactions (`DerivedKeys`), kept in an LRU of DERIVED_SIGNER_CACHE_SIZE. The source is listed
 * again every RELAYER_KEYS_RESCAN_MS and on SIGHUP: new keys join their pool without a restart.
 * Only `active` keys (relayer_keys) get new work; draining and retired keys still sign again
 * what they hold (resends, replacements, their sweep).
 */
@Injectable()
export class SignerPool implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SignerPool.name);
  private readonly source: KeySource;
  private pools = new Map<string, RelaySigner[]>();
  private readonly byAddr = new Map<string, { region: string; signer: RelaySigner }>();
  private readonly states = new Map<string, RelayerKeyState>();
  private readonly derived: LruMap<string, LocalKeySigner>;
  private readonly turns = new Map<string, number>();
  private readonly keys: DerivedKeys;
  private timers: NodeJS.Timeout[] = [];
  private readonly onTimer = () => void this.rescan().catch((err: Error) => this.logger.warn(`key rescan: ${err.message}`));
  private readonly onHangup = () => void this.reload().catch((err: Error) => this.logger.warn(`config reload: ${err.message}`));

  constructor(
    private readonly config: AppConfig,
    private readonly regions: RegionResolver,
    private readonly eligibility: KeyEligibility,
    private readonly store: RelayerKeyStore,
  ) {
    this.source = keySourceOf(config, regions.regions);
    // At startup a pool key equal to the treasury stops the process (ReservedTargets names it); later it is left out.
    this.load(this.source.keys(), true);
    // The one PBKDF2 of the auth mnemonic, at startup; each new path is then HMACs and a few curve operations.
    this.keys = new DerivedKeys(getBytes(Mnemonic.fromPhrase(config.AUTH_MNEMONIC).computeSeed()));
    this.derived = new LruMap(config.DERIVED_SIGNER_CACHE_SIZE);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.register();
    await this.readStates();
    const poll = setInterval(() => void this.readStates().catch((err: Error) => this.logger.warn(`relayer key states: ${err.message}`)), STATE_POLL_MS);
    const rescan = setInterval(this.onTimer, this.config.RELAYER_KEYS_RESCAN_MS);
    poll.unref();
    rescan.unref();
    this.timers = [poll, rescan];
    process.on('SIGHUP', this.onHangup);
  }

  onApplicationShutdown(): void {
    for (const t of this.timers) clearInterval(t);
    process.off('SIGHUP', this.onHangup);
    this.source.close();
  }

  /**
   * SIGHUP: reads RELAYER_RELOAD_ENV_FILE again; a larger RELAYER_KEYS_PER_REGION there raises
   * the running one (keys are only ever added: a key leaves by `retire`), then the source is
   * listed again (a token's new labels too).
   */
  async reload(): Promise<number> {
    const wanted = keysPerRegionIn(this.config.RELAYER_RELOAD_ENV_FILE);
    if (wanted !== null && wanted > this.config.RELAYER_KEYS_PER_REGION) {
      this.logger.log(`config reload: RELAYER_KEYS_PER_REGION ${this.config.RELAYER_KEYS_PER_REGION} → ${wanted}`);
      this.config.RELAYER_KEYS_PER_REGION = wanted;
    }
    return this.rescan();
  }

  /** Lists the key source again: new keys join their pools (and relayer_keys, as active). */
  async rescan(): Promise<number> {
    const before = this.byAddr.size;
    this.load(this.source.keys());
    await this.register();
    const added = this.byAddr.size - before;
    if (added > 0) this.logger.log(`${added} new relayer key(s) joined the pools`);
    return added;
  }

  /** The treasury key (RELAYER_TREASURY_KEY / _PATH, or the token's `relayer-treasury`), if any. */
  treasury(): RelaySigner | null {
    return this.source.treasury();
  }

  /** The key's lifecycle state as last read (unknown keys are active). */
  stateOf(address: string): RelayerKeyState {
    return this.states.get(address.toLowerCase()) ?? 'active';
  }

  /** Reads every key's state now (after a retire or activate in this process). */
  async readStates(): Promise<void> {
    const rows = await this.store.all();
    for (const row of rows) this.states.set(row.address, row.state);
  }

  /** Every relayer address of a region, whatever its state (the same addresses serve every chain). */
  poolAddresses(region?: string): string[] {
    const regions = region ? [region] : [...this.pools.keys()];
    return regions.flatMap((r) => (this.pools.get(r) ?? []).map((w) => w.address));
  }

  /** The sender an estimate assumes: the region's first active key (a retired one holds nothing), else its first key. */
  estimateFrom(region: string): string {
    return (this.pools.get(region) ?? []).find((k) => this.stateOf(k.address) === 'active')?.address ?? this.poolAddresses(region)[0];
  }

  /** The region's active relayer keys, in a fixed order (the in-flight bound picks among them). */
  pool(region: string): readonly RelaySigner[] {
    const pool = this.pools.get(region);
    if (!pool) throw new AppError('SYSTEM_002', `no relayer pool for region ${region}`);
    return pool.filter((k) => this.stateOf(k.address) === 'active');
  }

  /** The region's keys that may take new work on the chain (active, and over their balance floor while the pool has such keys; KeyEligibility). */
  eligiblePool(region: string, chainId: number): readonly RelaySigner[] {
    return this.eligibility.eligible(chainId, [...this.pool(region)]);
  }

  /**
   * Round-robin over the region's active keys, per process: instances pick independently, which
   * spreads the load as evenly, and nonce claims make two processes signing with one key safe.
   * Keys under their balance floor are skipped while the pool has better ones (KeyEligibility).
   */
  async next(region: string, chainId: number): Promise<RelaySigner> {
    const pool = this.eligiblePool(region, chainId);
    if (pool.length === 0) throw new AppError('SYSTEM_002', `no active relayer key in region ${region}`);
    const turn = `${region}:${chainId}`;
    const n = (this.turns.get(turn) ?? Math.floor(Math.random() * pool.length)) + 1;
    this.turns.set(turn, n);
    return pool[n % pool.length];
  }

  /** Every region's pool keys with their backend and state, for the wallet monitor and operators. */
  poolKeys(): Array<{ region: string; address: string; signer: RelaySigner['backend']; state: RelayerKeyState }> {
    return [...this.pools.entries()].flatMap(([region, keys]) => keys.map((k) => ({ region, address: k.address, signer: k.backend, state: this.stateOf(k.address) })));
  }

  /** The pool key with this address (any state), for resending a transaction with the signer that holds its nonce. */
  byAddress(address: string): RelaySigner | undefined {
    return this.byAddr.get(address.toLowerCase())?.signer;
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

  /** Keys only ever join (a key that left the source keeps signing what it holds until retired). */
  private load(keys: SourcedKey[], startup = false): void {
    const pools = new Map<string, RelaySigner[]>(this.regions.regions.map((r) => [r, [...(this.pools.get(r) ?? [])]]));
    const treasury = this.source.treasury()?.address.toLowerCase();
    for (const { region, signer } of keys) {
      const lower = signer.address.toLowerCase();
      if (this.byAddr.has(lower)) continue;
      if (lower === treasury && !startup) {
        // A pool key would spend the treasury's balance as its own (key separation; reachable by a reload).
        this.logger.error(`relayer key ${signer.address} of ${region} is the treasury: left out of the pool`);
        continue;
      }
      this.byAddr.set(lower, { region, signer });
      pools.get(region)?.push(signer);
    }
    this.pools = pools;
  }

  private register(): Promise<void> {
    return this.store.register([...this.byAddr.entries()].map(([address, { region, signer }]) => ({ address, region, signer: signer.backend })));
  }
}

/** RELAYER_KEYS_PER_REGION of an env file (1 to 100), or null when the file or a valid value is missing. */
function keysPerRegionIn(file: string): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const match = /^\s*(?:export\s+)?RELAYER_KEYS_PER_REGION\s*=\s*["']?(\d{1,3})["']?\s*$/m.exec(text);
  const n = match ? Number(match[1]) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : null;
}
