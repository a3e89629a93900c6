import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { LedgerService } from '../../accounts';
import { ChainRegistry } from '../../chains';
import { weiToMicroUsd } from '../core/fees';
import { fromRpcReceipt, MinedReceipt } from '../core/mined-receipt';
import { minedCostWei } from '../core/settlement-math';
import { RelayBroadcastStore } from '../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { AuditMismatch, auditRow } from './chain-audit';

export interface ChainAuditFilter {
  chainId?: number;
  since?: Date;
  until?: Date;
  userId?: string;
  /** Only rows settled on chain (executed or reverted). */
  minedOnly?: boolean;
}

/**
 * One settled transaction of an account, recomputed from the chain (GET /api/audit): the
 * receipt's gas, price and L1 fee as the chain has them, the native price the charge was
 * converted at, the cost those give, what the ledger charged, and whether the row agrees with
 * the chain and the ledger (`auditRow`'s checks).
 */
export interface AccountAuditRow {
  txId: string;
  chainId: number;
  executionTxHash: string | null;
  gasUsed: string | null;
  effectiveGasPrice: string | null;
  l1Fee: string | null;
  valueWei: string;
  nativePriceUsd: string | null;
  /** micro-USD recomputed from the chain's receipt at `nativePriceUsd`; null when the chain has no receipt. */
  costMicro: bigint | null;
  /** micro-USD the ledger charged under the row's reference. */
  chargedMicro: bigint;
  onChain: 'match' | 'mismatch' | 'missing';
  detail?: string;
}

export interface ChainAuditReport {
  ok: boolean;
  /** Final rows checked against the chain and the ledger. */
  examined: number;
  /** Final rows of chains without an EVM node (exchange actions): not checked. */
  skipped: number;
  /** True when the row cap stopped the audit before the end of the range. */
  truncated: boolean;
  mismatches: AuditMismatch[];
}

const PAGE = 200;
/** Receipt reads in flight per chain; ethers batches the concurrent ones into JSON-RPC batches. */
const READS_IN_FLIGHT = 16;
export const AUDIT_MAX_ROWS = 20_000;

/**
 * Checks final relay rows against the chain (each hash read once, in bounded concurrent batches)
 * and the ledger: see `auditRow` for what is compared. Read-only.
 */
@Injectable()
export class ChainAuditService {
  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcasts: RelayBroadcastStore,
    private readonly chains: ChainRegistry,
    private readonly ledger: LedgerService,
  ) {}

  async audit(filter: ChainAuditFilter, maxRows = AUDIT_MAX_ROWS): Promise<ChainAuditReport> {
    if (filter.chainId !== undefined && !this.chains.find(filter.chainId)) throw new AppError('VALIDATION_003', `chain ${filter.chainId} is not configured`);
    const report: ChainAuditReport = { ok: true, examined: 0, skipped: 0, truncated: false, mismatches: [] };
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = await this.txs.finalForAudit(filter, Math.min(PAGE, maxRows - report.examined - report.skipped), after);
      if (page.length === 0) break;
      after = { createdAt: page[page.length - 1].createdAt, id: page[page.length - 1].id };
      await this.auditPage(page, report);
      if (report.examined + report.skipped >= maxRows) {
        report.truncated = (await this.txs.finalForAudit(filter, 1, after)).length > 0;
        break;
      }
    }
    report.ok = report.mismatches.length === 0;
    return report;
  }

  /** The account's settled transactions created in [since, until), oldest first, each checked (see AccountAuditRow). */
  async accountRows(userId: string, since: Date, until: Date, maxRows = AUDIT_MAX_ROWS): Promise<{ rows: AccountAuditRow[]; truncated: boolean }> {
    const filter: ChainAuditFilter = { userId, since, until, minedOnly: true };
    const rows: AccountAuditRow[] = [];
    let after: { createdAt: Date; id: string } | undefined;
    for (;;) {
      const page = (await this.txs.finalForAudit(filter, Math.min(PAGE, maxRows - rows.length), after)).filter((tx) => tx.userId === userId);
      if (page.length === 0) return { rows, truncated: false };
      after = { createdAt: page[page.length - 1].createdAt, id: page[page.length - 1].id };
      rows.push(...(await this.accountPage(page)));
      if (rows.length >= maxRows) return { rows, truncated: (await this.txs.finalForAudit(filter, 1, after)).length > 0 };
    }
  }

  private async accountPage(page: RelayTransactionEntity[]): Promise<AccountAuditRow[]> {
    const onChain = page.filter((tx) => {
      const chain = this.chains.find(tx.chainId);
      return chain?.rpcUrl && !chain.capabilities.exchangeAction;
    });
    const hashesOf = new Map<string, string[]>();
    for (const tx of onChain) hashesOf.set(tx.id, tx.executionTxHash ? [tx.executionTxHash.toLowerCase()] : []);
    for (const b of await this.broadcasts.forTxs(onChain.map((t) => t.id))) hashesOf.get(b.txId)?.push(b.hash.toLowerCase());
    const sums = await this.ledger.referenceSums(onChain.map((t) => `tx:${t.id}`));
    const receipts = await this.receipts(onChain.map((tx) => ({ chainId: tx.chainId, hashes: [...new Set(hashesOf.get(tx.id))] })));
    return onChain.map((tx) => {
      const ledger = sums.get(`tx:${tx.id}`);
      const mismatches = auditRow(tx, hashesOf.get(tx.id) ?? [], receipts, ledger);
      const receipt = tx.executionTxHash ? receipts.get(tx.executionTxHash.toLowerCase()) : undefined;
      const decimals = this.chains.find(tx.chainId)?.nativeCurrency.decimals ?? 18;
      const costMicro = receipt && tx.nativePriceUsd !== null ? weiToMicroUsd(minedCostWei(tx, receipt), Number(tx.nativePriceUsd), decimals) : null;
      if (costMicro !== null && tx.costMicro !== null && costMicro !== tx.costMicro) {
        mismatches.push({ txId: tx.id, chainId: tx.chainId, kind: 'cost_usd_mismatch', expected: costMicro.toString(), actual: tx.costMicro.toString() });
      }
      const missing = mismatches.some((m) => m.kind === 'hash_not_mined');
      return {
        txId: tx.id,
        chainId: tx.chainId,
        executionTxHash: tx.executionTxHash,
        gasUsed: receipt ? receipt.gasUsed.toString() : null,
        effectiveGasPrice: receipt ? receipt.effectiveGasPrice.toString() : null,
        l1Fee: receipt ? receipt.l1Fee.toString() : null,
        valueWei: receipt?.status === 1 ? tx.value : '0',
        nativePriceUsd: tx.nativePriceUsd,
        costMicro,
        chargedMicro: -(ledger?.availableMicro ?? 0n),
        onChain: missing ? 'missing' : mismatches.length > 0 ? 'mismatch' : 'match',
        ...(mismatches.length > 0 ? { detail: mismatches.map((m) => `${m.kind}: expected ${m.expected}, found ${m.actual}`).join('; ') } : {}),
      };
    });
  }

  private async auditPage(page: RelayTransactionEntity[], report: ChainAuditReport): Promise<void> {
    const onChain = page.filter((tx) => {
      const chain = this.chains.find(tx.chainId);
      return chain?.rpcUrl && !chain.capabilities.exchangeAction;
    });
    report.skipped += page.length - onChain.length;
    if (onChain.length === 0) return;
    const hashesOf = new Map<string, string[]>();
    for (const tx of onChain) hashesOf.set(tx.id, tx.executionTxHash ? [tx.executionTxHash.toLowerCase()] : []);
    for (const b of await this.broadcasts.forTxs(onChain.map((t) => t.id))) hashesOf.get(b.txId)?.push(b.hash.toLowerCase());
    const sums = await this.ledger.referenceSums(onChain.map((t) => `tx:${t.id}`));
    const receipts = await this.receipts(onChain.map((tx) => ({ chainId: tx.chainId, hashes: [...new Set(hashesOf.get(tx.id))] })));
    for (const tx of onChain) {
      report.examined++;
      report.mismatches.push(...auditRow(tx, hashesOf.get(tx.id) ?? [], receipts, sums.get(`tx:${tx.id}`)));
    }
  }

  /** Receipts of every hash (mined ones only), READS_IN_FLIGHT at a time per chain. */
  private async receipts(wanted: Array<{ chainId: number; hashes: string[] }>): Promise<Map<string, MinedReceipt>> {
    const byChain = new Map<number, Set<string>>();
    for (const w of wanted) for (const h of w.hashes) byChain.set(w.chainId, (byChain.get(w.chainId) ?? new Set()).add(h));
    const found = new Map<string, MinedReceipt>();
    await Promise.all(
      [...byChain.entries()].map(async ([chainId, hashes]) => {
        const provider = this.chains.provider(chainId);
        const queue = [...hashes];
        const worker = async () => {
          for (let hash = queue.shift(); hash; hash = queue.shift()) {
            const raw = await provider.send('eth_getTransactionReceipt', [hash]);
            if (raw) found.set(hash, fromRpcReceipt(raw));
          }
        };
        await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, queue.length) }, worker));
      }),
    );
    return found;
  }
}
