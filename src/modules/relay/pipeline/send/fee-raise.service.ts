import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../../common/errors/app-error';
import { microToUsd } from '../../../../common/money/usd';
import { AccountsService, LowBalanceMonitor, utcDayStart } from '../../../accounts';
import { ChainRegistry } from '../../../chains';
import { PricingService } from '../../../pricing';
import { reservationNeeded, ResignKind, worstCaseWei } from '../../core/fee-raise';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { IN_FLIGHT } from '../../core/stage';
import { checkSpendLimits } from '../../intake/spend-limits';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';

/** Largest amount a reservation can hold: micro-USD live in PostgreSQL bigint columns. */
const MAX_RESERVATION_MICRO = 2n ** 63n - 1n;

/** A fee raise allowed (the reservation now covers the new fees' worst case), or refused with the code a client gets. */
export type RaiseResult = { ok: true; reservedMicro: bigint; addedMicro: bigint } | { ok: false; error: AppError };

/**
 * Every fee increase is a reservation change: before the relay signs a row again at higher fees
 * (a client's speed-up, a re-price under the base fee, a fee-bumped replacement, a
 * cancellation), the row's reservation is raised to the worst case at those fees, in ONE
 * statement under the same conditions as a submission's (balance, per-tx limit, daily limit,
 * chain, breaker) and the submission's maxUSD (`RelayTransactionStore.raiseReservation`), or
 * the fees are refused. So what a transaction can cost never exceeds what its account reserved.
 */
@Injectable()
export class FeeRaise {
  private readonly logger = new Logger(FeeRaise.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly pricing: PricingService,
    private readonly chains: ChainRegistry,
    private readonly accounts: AccountsService,
    private readonly lowBalance: LowBalanceMonitor,
  ) {}

  /** The reservation the row needs to be signed at `fees` (never below what it holds), at today's native price. */
  async needed(tx: RelayTransactionEntity, fees: FeeSettings, kind: ResignKind): Promise<bigint> {
    const price = await this.pricing.nativeUsd(tx.chainId);
    return reservationNeeded({ worstWei: worstCaseWei(tx, fees, kind), usdPerNative: price.usd, decimals: this.chains.get(tx.chainId).nativeCurrency.decimals, reservedMicro: tx.estimatedCostMicro });
  }

  /**
   * Raises the row's reservation to cover `fees` (nothing when it does already). On success the
   * caller's copy of the row carries the new reservation (settlement compares it with the row's).
   */
  async reserve(tx: RelayTransactionEntity, fees: FeeSettings, kind: ResignKind): Promise<RaiseResult> {
    const totalMicro = await this.needed(tx, fees, kind);
    if (totalMicro > MAX_RESERVATION_MICRO) return { ok: false, error: new AppError('TRANSACTION_001', 'at these fees the worst-case cost exceeds what any account can spend') };
    const now = new Date();
    const memo = `${kind === 'cancel' ? 'cancellation' : 'fees'} at max fee ${maxGasPrice(fees)} wei`;
    const outcome = await this.txs.raiseReservation(tx.id, { totalMicro, chainId: tx.chainId, now, dayStart: utcDayStart(now) }, memo);
    if (!outcome) return { ok: false, error: new AppError('TRANSACTION_003', `transaction ${tx.id} not found`) };
    const reserved = BigInt(outcome.reserved_micro);
    if (outcome.added_micro !== null) {
      const added = BigInt(outcome.added_micro);
      tx.estimatedCostMicro = reserved + added;
      this.logger.log(`reservation of ${tx.id} raised by ${added} to ${tx.estimatedCostMicro} micro-USD (${memo})`);
      void this.lowBalance.check(tx.userId).catch((err: Error) => this.logger.warn(`low-balance check after a raise: ${err.message}`));
      return { ok: true, reservedMicro: tx.estimatedCostMicro, addedMicro: added };
    }
    if (!IN_FLIGHT.includes(outcome.stage)) return { ok: false, error: new AppError('TRANSACTION_009', `transaction ${tx.id} is no longer pending`) };
    if (reserved >= totalMicro) {
      tx.estimatedCostMicro = reserved;
      return { ok: true, reservedMicro: reserved, addedMicro: 0n };
    }
    return { ok: false, error: await this.refusal(tx, outcome.max_cost_micro === null ? null : BigInt(outcome.max_cost_micro), totalMicro, totalMicro - reserved, now) };
  }

  /** Which condition refused a raise: the submission's maxUSD, else the account's limits as they are now, else the balance. */
  private async refusal(tx: RelayTransactionEntity, maxCostMicro: bigint | null, totalMicro: bigint, addedMicro: bigint, now: Date): Promise<AppError> {
    if (maxCostMicro !== null && totalMicro > maxCostMicro) {
      return new AppError('TRANSACTION_001', `at these fees the worst-case cost ${microToUsd(totalMicro)} USD exceeds the transaction's maxUSD ${microToUsd(maxCostMicro)}`);
    }
    try {
      checkSpendLimits(await this.accounts.getById(tx.userId), tx.chainId, totalMicro, now, addedMicro);
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
    return new AppError('TRANSACTION_002', `insufficient balance: these fees need ${microToUsd(addedMicro)} USD more reserved`);
  }
}
