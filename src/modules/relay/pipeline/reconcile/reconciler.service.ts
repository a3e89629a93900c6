import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { ChainRegistry } from '../../../chains';
import { SendQueue } from '../send/send-queue';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { SignerNonceStore } from '../../store/signer-nonce.store';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { MinedCheck } from '../track/mined-check';
import { NonceFiller } from '../keys/nonce-filler';
import { NonceManager } from '../keys/nonce-manager.service';
import { confirmationsOf } from '../../core/confirmations';
import { SignerPool } from '../../core/signer-pool.service';
import { SettlementService } from '../settle/settlement.service';
import { SettledFinality } from '../settle/settled-finality.service';
import { ChainIo } from '../node/chain-io.service';

const GRACE_MS = 2_000;
const BATCH = 500;

export interface ReconcileReport {
  expired: number;
  examined: number;
  enqueued: number;
  replaced: number;
  settled: number;
  gapsFilled: number;
  /** Settled rows found final at their chain's confirmation depth, and rows corrected after a reorg. */
  finalized: number;
  reorgCorrected: number;
}

/**
 * A nonce allocated this long ago and still neither mined nor owned by a PENDING transaction is
 * a gap. Also how often each key's pending nonce is read at least (see `fillGaps`).
 */
const GAP_AGE_MS = 30_000;
const MAX_FILLS_PER_PASS = 32n;

/**
 * PostgreSQL is the truth, Redis only transport: every pass looks at PENDING transactions
 * and makes sure each is either moving (a live job, a tracked hash) or is moved: unsent ones
 * are enqueued again, mined ones settled, stuck ones replaced with higher fees.
 */
@Injectable()
export class ReconcilerService {
  private readonly logger = new Logger(ReconcilerService.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly nonceRows: SignerNonceStore,
    private readonly chains: ChainRegistry,
    private readonly queue: SendQueue,
    private readonly tracker: ReceiptTracker,
    private readonly config: AppConfig,
    private readonly signers: SignerPool,
    private readonly nonces: NonceManager,
    private readonly mined: MinedCheck,
    private readonly filler: NonceFiller,
    private readonly settlement: SettlementService,
    private readonly finality: SettledFinality,
    private readonly chainIo: ChainIo,
  ) {}

  /** Per chain and key: when this process last read the key's pending nonce, and what it was. */
  private readonly chainReads = new Map<string, { at: number; nonce: bigint }>();

  async reconcile(): Promise<ReconcileReport> {
    const report: ReconcileReport = { expired: 0, examined: 0, enqueued: 0, replaced: 0, settled: 0, gapsFilled: 0, finalized: 0, reorgCorrected: 0 };
    report.expired = await this.expire();
    report.gapsFilled = await this.fillGaps();
    const finality = await this.finality.check();
    report.finalized = finality.finalized;
    report.reorgCorrected = finality.corrected;
    const pending = await this.txs.inFlightBefore(new Date(Date.now() - GRACE_MS), BATCH);
    if (pending.length === 0) return this.logged(report);
    const live = await this.queue.liveTxIds();
    const broadcasts = await this.broadcastRows.forTxs(pending.map((t) => t.id));
    const byTx = new Map<string, RelayBroadcastEntity[]>();
    for (const b of broadcasts) byTx.set(b.txId, [...(byTx.get(b.txId) ?? []), b]);
    const stamp = Date.now().toString(36);
    const quietMs = Math.max(GRACE_MS, 4 * this.config.RELAY_RECEIPT_POLL_MS);

    const quiet: Array<{ tx: RelayTransactionEntity; sent: RelayBroadcastEntity[] }> = [];
    for (const tx of pending) {
      report.examined++;
      if (live.has(tx.id)) continue;
      const sent = byTx.get(tx.id) ?? [];
      if (sent.length > 0) {
        quiet.push({ tx, sent });
        continue;
      }
      try {
        if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
      } catch (err) {
        this.logger.warn(`reconciling ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    // Read again just before the chain calls: under load the tracker settles hundreds of the rows
    // read above while this pass runs, and each would cost a receipt call here for nothing.
    const stillSent = await this.txs.stillSent(quiet.map((q) => q.tx.id));
    for (const { tx, sent } of quiet) {
      if (!stillSent.has(tx.id)) continue;
      try {
        const age = Date.now() - sent[sent.length - 1].createdAt.getTime();
        // Broadcast moments ago, or watched by this process's tracker and not yet due for a
        // replacement: the tracker finds it with one call per block, no receipt call per row here.
        if (age < quietMs || (age <= this.config.RELAY_REPLACE_AFTER_MS && this.tracker.isTracking(tx.id))) continue;
        if (await this.mined.settleIfMined(tx, sent)) {
          report.settled++;
          continue;
        }
        if (age > this.config.RELAY_REPLACE_AFTER_MS) {
          if (await this.queue.enqueue(tx.id, 'replace', `r${stamp}`)) report.replaced++;
        } else {
          // Nobody here watches it (worker restarted, Redis flushed): send the same bytes again and track.
          if (await this.queue.enqueue(tx.id, 'send', `r${stamp}`)) report.enqueued++;
        }
      } catch (err) {
        this.logger.warn(`reconciling ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return this.logged(report);
  }

  /**
   * validUntil passed: an unsent row fails at once (`expired`, released); a sent one gets a
   * cancellation at its nonce, and whichever of the two is mined decides.
   */
  async expire(): Promise<number> {
    let expired = 0;
    const stamp = Date.now().toString(36);
    for (const tx of await this.txs.expiredInFlight(new Date(), BATCH)) {
      try {
        if (tx.stage === 'accepted' && (await this.settlement.failUnsent(tx.id, 'validUntil passed before it was sent', 'expired', ['accepted']))) {
          expired++;
          continue;
        }
        // Sent (or signed since the read): cancel it at its nonce.
        if ((await this.txs.requestCancel(tx.id, 'expired')) && (await this.queue.enqueue(tx.id, 'replace', `x${stamp}`))) expired++;
      } catch (err) {
        this.logger.warn(`expiring ${tx.id}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return expired;
  }

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
  async fillGaps(): Promise<number> {
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

  private logged(report: ReconcileReport): ReconcileReport {
    if (report.expired || report.enqueued || report.replaced || report.settled || report.gapsFilled || report.reorgCorrected) this.logger.log(`reconciled ${JSON.stringify(report)}`);
    return report;
  }
}
