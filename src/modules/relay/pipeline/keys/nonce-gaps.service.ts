import { Injectable, Logger } from '@nestjs/common';
import { ChainRegistry } from '../../../chains';
import { confirmationsOf } from '../../core/confirmations';
import { SignerPool } from '../../core/signer-pool.service';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { SignerNonceStore } from '../../store/signer-nonce.store';
import { ChainIo } from '../node/chain-io.service';
import { NonceFiller } from './nonce-filler';
import { NonceManager } from './nonce-manager.service';

/**
 * A nonce allocated this long ago and still neither mined nor owned by a PENDING transaction is
 * a gap. Also how often each key's pending nonce is read at least (see `fill`).
 */
const GAP_AGE_MS = 30_000;
const MAX_FILLS_PER_PASS = 32n;

/** Each reconciler pass: the relayer keys' nonce counters against their chains, and the holes filled. */
@Injectable()
export class NonceGaps {
  private readonly logger = new Logger(NonceGaps.name);

  constructor(
    private readonly nonceRows: SignerNonceStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly chains: ChainRegistry,
    private readonly signers: SignerPool,
    private readonly nonces: NonceManager,
    private readonly filler: NonceFiller,
    private readonly chainIo: ChainIo,
  ) {}

  /** Per chain and key: when this process last read the key's pending nonce, and what it was. */
  private readonly chainReads = new Map<string, { at: number; nonce: bigint }>();

  /**
   * Keeps the relayer keys' counters in step with their chains and fills the lowest unmined nonce
   * when nothing will ever use it (its transaction failed before reaching the chain, a crash
   * between signing and broadcasting a top-up), so the key's later transactions are not stuck
   * behind it. The counters of a chain are read in one statement; a key's pending nonce is read
   * when its counter has been quiet for GAP_AGE_MS and is not where the chain was at the last read
   * (a gap may be there), and otherwise at least every GAP_AGE_MS (a key used outside the relay:
   * the counter is raised to the chain's). A relayed transaction refused for a nonce another
   * transaction used resyncs its key at once (NonceFate), whatever the timing here.
   */
  async fill(): Promise<number> {
    let filled = 0;
    for (const chain of this.chains.all().filter((c) => c.enabled && c.rpcUrl)) {
      let counters: Map<string, { next: bigint; updatedAt: Date }>;
      try {
        counters = await this.nonceRows.counters(chain.chainId);
      } catch (err) {
        this.logger.warn(`nonce counters of ${chain.chainId}: ${(err as Error).message.split('\n')[0]}`);
        continue;
      }
      for (const address of this.signers.poolAddresses()) {
        const lower = address.toLowerCase();
        const key = `${chain.chainId}:${lower}`;
        try {
          const row = counters.get(lower);
          const seen = this.chainReads.get(key);
          const now = Date.now();
          const quiet = row !== undefined && now - row.updatedAt.getTime() > GAP_AGE_MS;
          const due = !row || !seen || now - seen.at >= GAP_AGE_MS || (quiet && row.next !== seen.nonce);
          if (!due) continue;
          const onChain = await this.chainIo.pendingNonce(chain.chainId, lower);
          this.chainReads.set(key, { at: now, nonce: onChain });
          const database = await this.nonces.syncWithChain(chain.chainId, lower, onChain, row?.next ?? null);
          // Raised just now (or new), so not quiet: a later pass looks again.
          if (database <= onChain || !quiet || database !== row?.next) continue;
          const signer = this.signers.byAddress(address);
          if (!signer) continue;
          // Nonces between the chain's and the counter that no PENDING transaction owns are holes.
          const owned = await this.broadcastRows.ownedNonces(chain.chainId, lower, onChain, confirmationsOf(chain) > 0);
          for (let nonce = onChain; nonce < database && nonce < onChain + MAX_FILLS_PER_PASS; nonce++) {
            if (owned.has(nonce.toString())) continue;
            await this.filler.fill(chain.chainId, signer, nonce);
            filled++;
          }
        } catch (err) {
          this.logger.warn(`nonce check ${address}@${chain.chainId}: ${(err as Error).message.split('\n')[0]}`);
        }
      }
    }
    return filled;
  }
}
