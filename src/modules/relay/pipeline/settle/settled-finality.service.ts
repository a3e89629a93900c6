import { Injectable, Logger } from '@nestjs/common';
import { ChainDefinition, ChainRegistry } from '../../../chains';
import { MetricsService } from '../../../metrics';
import { confirmationsOf } from '../../core/confirmations';
import { MinedReceipt } from '../../core/mined-receipt';
import { reorgCorrection } from '../../core/reorg-correction';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ChainIo } from '../node/chain-io.service';
import { SettlementService } from './settlement.service';

const BATCH = 500;
/** Block header reads in flight at once per chain. */
const PARALLEL = 8;

export interface FinalityReport {
  finalized: number;
  corrected: number;
  missing: number;
}

/**
 * Follows every settled transaction to its chain's confirmation depth. A row is settled as soon
 * as its receipt shows, but a reorg of the blocks above that depth can drop the transaction, put
 * it in another block at another price, or mine another of the row's signed transactions (a
 * replacement, a cancellation) instead. Each pass reads, per chain, the canonical hash of each
 * block holding a mined row (a `mined_*` stage) that is now deep enough: a row whose block is
 * still there moves to its final stage (`RelayTransactionStore.markFinalized`);
 * any other is read again by its hashes and corrected (`SettlementService.correctAfterReorg`), or,
 * when none of its transactions is on the canonical chain, its bytes go to the node again and it
 * stays unconfirmed until one is. Chains configured with 0 confirmations are taken as they are
 * seen and cost nothing here.
 */
@Injectable()
export class SettledFinality {
  private readonly logger = new Logger(SettledFinality.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcasts: RelayBroadcastStore,
    private readonly chains: ChainRegistry,
    private readonly chain: ChainIo,
    private readonly settlement: SettlementService,
    private readonly metrics: MetricsService,
  ) {}

  async check(): Promise<FinalityReport> {
    const report: FinalityReport = { finalized: 0, corrected: 0, missing: 0 };
    for (const chain of this.chains.all().filter((c) => c.enabled && c.rpcUrl && confirmationsOf(c) > 0)) {
      try {
        await this.checkChain(chain, report);
      } catch (err) {
        this.logger.warn(`finality check on chain ${chain.chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return report;
  }

  private async checkChain(chain: ChainDefinition, report: FinalityReport): Promise<void> {
    const head = await this.chain.blockNumber(chain.chainId);
    const rows = await this.txs.settledAwaitingFinality(chain.chainId, head - confirmationsOf(chain), BATCH);
    if (rows.length === 0) return;
    const canonical = await this.blockHashes(chain.chainId, [...new Set(rows.map((r) => r.receipt!.blockNumber))]);
    const held: RelayTransactionEntity[] = [];
    const moved: RelayTransactionEntity[] = [];
    for (const row of rows) {
      const hash = canonical.get(row.receipt!.blockNumber);
      // A node that cannot show the block (lagging, failing) proves nothing: the next pass asks again.
      if (hash === null || hash === undefined) continue;
      if (hash === row.receipt!.blockHash.toLowerCase()) held.push(row);
      else moved.push(row);
    }
    const finalized = await this.txs.markFinalized(held);
    report.finalized += finalized;
    if (finalized > 0) this.metrics.relayFinality.inc({ chain: String(chain.chainId), result: 'finalized' }, finalized);
    for (const row of moved) {
      try {
        await this.recheck(row, report);
      } catch (err) {
        this.logger.warn(`re-checking ${row.id} after a reorg: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }

  /** The block left the canonical chain: where is the row's transaction now? */
  private async recheck(row: RelayTransactionEntity, report: FinalityReport): Promise<void> {
    const sent = await this.broadcasts.forTx(row.id);
    const mined = await this.minedOne(row, sent);
    const chain = String(row.chainId);
    if (!mined) {
      // Dropped with its block and not (yet) included again: the node gets the recorded bytes back.
      const recorded = sent.find((b) => b.hash.toLowerCase() === row.executionTxHash?.toLowerCase());
      if (recorded) await this.chain.broadcast(row.chainId, recorded.raw);
      report.missing++;
      this.metrics.relayFinality.inc({ chain, result: 'missing' });
      this.logger.warn(`tx ${row.id}: block ${row.receipt!.blockNumber} left the chain and none of its transactions is mined now; sent ${row.executionTxHash} again`);
      return;
    }
    const correction = reorgCorrection(row, mined.receipt, mined.cancellation);
    if (!correction) return;
    if (await this.settlement.correctAfterReorg(row, mined.receipt, correction)) {
      report.corrected++;
      this.metrics.relayFinality.inc({ chain, result: correction.stage === row.stage ? 'repriced' : 'restaged' });
    }
  }

  /** The receipt of whichever of the row's signed transactions the canonical chain holds (the recorded one asked first). */
  private async minedOne(row: RelayTransactionEntity, sent: RelayBroadcastEntity[]): Promise<{ receipt: MinedReceipt; cancellation: boolean } | null> {
    const recorded = row.executionTxHash?.toLowerCase();
    const candidates = [
      ...(recorded ? [{ hash: recorded, cancellation: sent.some((b) => b.hash.toLowerCase() === recorded && b.kind === 'cancel') }] : []),
      ...sent.filter((b) => b.hash.toLowerCase() !== recorded).map((b) => ({ hash: b.hash, cancellation: b.kind === 'cancel' })),
    ];
    for (const candidate of candidates) {
      const receipt = await this.chain.receipt(row.chainId, candidate.hash);
      if (receipt) return { receipt, cancellation: candidate.cancellation };
    }
    return null;
  }

  private async blockHashes(chainId: number, numbers: number[]): Promise<Map<number, string | null>> {
    const out = new Map<number, string | null>();
    for (let i = 0; i < numbers.length; i += PARALLEL) {
      const chunk = numbers.slice(i, i + PARALLEL);
      const hashes = await Promise.all(chunk.map((n) => this.chain.blockHash(chainId, n).catch(() => null)));
      chunk.forEach((n, j) => out.set(n, hashes[j]));
    }
    return out;
  }
}
