import { Injectable, Logger } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { microToUsd } from '../../../common/money/usd';
import { providerErrorDetail } from '../../../common/evm/provider-error';
import { LedgerService, LowBalanceMonitor } from '../../accounts';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { PricingService } from '../../pricing';
import { confirmationsOf } from '../../relay';
import { AccountSignals, DepositEvent, TxStatusEventStore } from '../../tx-events';
import { DepositAddressStore } from '../store/deposit-address.store';
import { DepositCursorStore } from '../store/deposit-cursor.store';
import { DepositRow, DepositStore, SeenTransfer } from '../store/deposit.store';
import { microToDecimal } from '../../../common/money/decimal';
import { depositReference, nativeToMicro, stableToMicro } from './deposit-amounts';
import { TransferReader } from './transfer-reader';
import { treasuryWallet } from './treasury-wallet';
import { AppConfig } from '../../../config/app-config';

/** A chain the watcher has never read starts this many blocks behind its head. */
export const INITIAL_LOOKBACK_BLOCKS = 128;
/** Blocks read per pass at most (a watcher far behind catches up over several passes). */
const MAX_BLOCKS_PER_PASS = 100;
const DUE_PER_PASS = 200;

export interface WatchPass {
  chainId: number;
  head: number;
  from: number;
  to: number;
  seen: number;
  orphaned: number;
  credited: number;
}

/**
 * Deposits to the accounts' deposit addresses (extensions.md, "Self-serve funding"). Each pass
 * of a chain, from PostgreSQL's cursor (the last block held final) to the head:
 * 1. every transfer to a deposit address in (cursor, head] is recorded `seen` (or moved to the
 *    block the chain shows it in now); a seen one those blocks no longer hold is `orphaned`;
 * 2. each seen deposit `confirmations` deep whose block is still canonical is credited, once:
 *    the row's conditional seen → credited, the `deposit` ledger entry (unique reference) and
 *    the account.deposit outbox row in ONE database transaction;
 * 3. the cursor moves to head − confirmations (unless an address was recorded meanwhile).
 * Nothing lives in memory between passes, so a restart, a second worker or a Redis loss loses
 * and doubles nothing: the blocks after the cursor are read again, and the database decides.
 */
@Injectable()
export class DepositWatcher {
  private readonly logger = new Logger(DepositWatcher.name);

  constructor(
    private readonly registry: ChainRegistry,
    private readonly pricing: PricingService,
    private readonly ledger: LedgerService,
    private readonly lowBalance: LowBalanceMonitor,
    private readonly signals: AccountSignals,
    private readonly outbox: TxStatusEventStore,
    private readonly addresses: DepositAddressStore,
    private readonly cursors: DepositCursorStore,
    private readonly deposits: DepositStore,
    config: AppConfig,
  ) {
    const treasury = treasuryWallet(config);
    this.serviceSenders = new Set(treasury ? [treasury.address.toLowerCase()] : []);
  }

  /** Senders whose native transfers to a deposit address are the service's own (the treasury's sweep gas). */
  private readonly serviceSenders: Set<string>;

  /** Chains deposits are taken on: enabled EVM chains. */
  chains(): ChainDefinition[] {
    return this.registry.all().filter((c) => c.enabled && c.rpcUrl && !c.capabilities.exchangeAction);
  }

  /** One pass over every chain; a failing chain does not stop the others. */
  async passAll(): Promise<void> {
    for (const chain of this.chains()) {
      await this.pass(chain.chainId).catch((err) => this.logger.warn(`deposit watch of chain ${chain.chainId}: ${providerErrorDetail(err)}`));
    }
  }

  async pass(chainId: number): Promise<WatchPass> {
    const chain = this.registry.get(chainId);
    const reader = new TransferReader(this.registry.provider(chainId));
    const confirmations = confirmationsOf(chain);
    const head = await reader.head();
    let cursor = await this.cursors.get(chainId);
    if (cursor === null || cursor > head) {
      // Never read, or a chain restarted from genesis (a fresh devnet): start a little behind the head.
      cursor = Math.max(-1, head - INITIAL_LOOKBACK_BLOCKS);
      await this.cursors.advance(chainId, cursor);
      await this.cursors.reset(chainId, cursor);
    }
    const from = cursor + 1;
    const to = Math.min(head, from + Math.min(MAX_BLOCKS_PER_PASS, chain.getLogsMaxRange ?? MAX_BLOCKS_PER_PASS) - 1);
    const result: WatchPass = { chainId, head, from, to, seen: 0, orphaned: 0, credited: 0 };

    const version = await this.addresses.version();
    const owners = await this.addresses.all();
    if (from <= to && owners.size > 0) {
      const stables = this.stableTokens(chain).map((t) => t.address.toLowerCase());
      const transfers = [
        ...(await reader.tokenTransfers(from, to, stables, [...owners.keys()])),
        // The treasury's gas for a sweep arrives at the deposit address too: it is the service's, not a deposit.
        ...(await reader.nativeTransfers(from, to, new Set(owners.keys()), this.serviceSenders)),
      ];
      const seen: SeenTransfer[] = transfers.flatMap((t) => {
        const userId = owners.get(t.to);
        return userId ? [{ chainId, userId, address: t.to, txHash: t.txHash, logIndex: t.logIndex, token: t.token, amount: t.amount, blockNumber: t.blockNumber, blockHash: t.blockHash }] : [];
      });
      await this.deposits.upsertSeen(seen);
      result.seen = seen.length;
      result.orphaned = await this.deposits.orphanMissing(chainId, from, to, seen.map((s) => `${s.txHash}:${s.logIndex}`));
    }

    result.credited = await this.creditDue(chain, reader, head - confirmations, confirmations);
    // Final: what lies at head − confirmations or deeper is not read again.
    const final = Math.min(to, head - confirmations);
    // The head is read before the addresses, and an address is known to nobody before it is
    // recorded, so a deposit to one recorded during the pass lies above this head. Behind several
    // providers the head and the logs may come from nodes that disagree: an address recorded
    // meanwhile keeps the cursor, and the next pass reads these blocks again with it.
    if (final > cursor && (await this.addresses.version()) === version) await this.cursors.advance(chainId, final);
    return result;
  }

  private async creditDue(chain: ChainDefinition, reader: TransferReader, safeBlock: number, confirmations: number): Promise<number> {
    if (safeBlock < 0) return 0;
    const due = await this.deposits.due(chain.chainId, safeBlock, DUE_PER_PASS);
    if (due.length === 0) return 0;
    const canonical = await reader.blockHashes([...new Set(due.map((d) => d.blockNumber))]);
    let credited = 0;
    for (const row of due) {
      if (canonical.get(row.blockNumber) !== row.blockHash) {
        // Its block was replaced before the deposit reached its depth: never credited.
        await this.deposits.orphan(row.id, row.blockHash);
        this.logger.warn(`deposit ${row.txHash}:${row.logIndex} on ${chain.chainId} left the canonical chain before its depth; not credited`);
        continue;
      }
      try {
        if (await this.credit(chain, row, confirmations)) credited++;
      } catch (err) {
        this.logger.warn(`crediting deposit ${row.txHash}:${row.logIndex} on ${chain.chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    return credited;
  }

  /** True when this call credited the deposit (false: another watcher did, or it cannot be valued now). */
  private async credit(chain: ChainDefinition, row: DepositRow, confirmations: number): Promise<boolean> {
    const creditBlock = row.blockNumber + confirmations;
    const amount = BigInt(row.amount);
    let micro: bigint;
    let nativePriceUsd: string | null = null;
    if (row.token === ZeroAddress) {
      // The price of the crediting block: every watcher that gets here reads the same answer.
      const price = await this.pricing.nativeMicroUsdAt(chain.chainId, creditBlock);
      micro = nativeToMicro(amount, price.microUsd, chain.nativeCurrency.decimals);
      nativePriceUsd = microToDecimal(price.microUsd);
    } else {
      const token = this.stableTokens(chain).find((t) => t.address.toLowerCase() === row.token);
      if (!token) {
        this.logger.warn(`deposit ${row.txHash}:${row.logIndex} on ${chain.chainId}: token ${row.token} is no longer a USD stablecoin of the chain; left seen`);
        return false;
      }
      micro = stableToMicro(amount, token.decimals);
    }
    const event: DepositEvent = {
      event: 'account.deposit',
      userId: row.userId,
      chainId: chain.chainId,
      txHash: row.txHash,
      token: row.token,
      amount: row.amount,
      creditedUsd: microToUsd(micro),
      timestamp: new Date().toISOString(),
    };
    const reference = depositReference(chain.chainId, row.txHash, row.logIndex);
    const done = await this.deposits.transaction(async (em) => {
      if (!(await this.deposits.markCredited(row.id, row.blockHash, { micro, nativePriceUsd, creditBlock }, em))) return false;
      if (micro > 0n) await this.ledger.deposit(row.userId, reference, micro, `${row.amount} of ${row.token} on ${chain.chainId}`, em);
      await this.outbox.insertAccountEvent(event, 'deposit', em);
      return true;
    });
    if (!done) return false;
    this.logger.log(`deposit ${reference} credited ${microToUsd(micro)} USD to ${row.userId}`);
    await this.signals.publish(event);
    await this.lowBalance.check(row.userId);
    return true;
  }

  stableTokens(chain: ChainDefinition): Array<{ address: string; symbol: string; decimals: number }> {
    return (chain.tokens ?? []).filter((t) => t.usdStable === true);
  }
}
