import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../../config/app-config';
import { AccountsService } from '../../../accounts';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { feeCap, repricedFees } from '../../core/repricing';
import { feesOf } from '../../core/signed-request';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { ChainIo } from '../node/chain-io.service';
import { FeeRaise } from './fee-raise.service';

/**
 * The one place fees for signing a row again at its nonce come from: fresh market fees within
 * the cap (`core/repricing.ts`: RELAY_MAX_FEE_MULTIPLE × the accepted max fee, the account's
 * per-tx limit), reserved first (`FeeRaise`).
 */
@Injectable()
export class Repricer {
  private readonly logger = new Logger(Repricer.name);

  constructor(
    private readonly chain: ChainIo,
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
    private readonly feeRaise: FeeRaise,
  ) {}

  /**
   * Fresh fees for signing the row again at its nonce, capped and reserved; null when the cap
   * allows none or the account cannot reserve their worst case (then the row keeps its fees).
   * `replacing`: bumped past `last` as a pool requires of a replacement.
   */
  async repriced(tx: RelayTransactionEntity, last: FeeSettings, replacing: boolean): Promise<FeeSettings | null> {
    const fees = await this.cappedFees(tx, last, replacing);
    return fees && (await this.reserved(tx, fees)) ? fees : null;
  }

  /** Whether the row's reservation covers signing it at `fees` now (raised when the account allows it). */
  async reserved(tx: RelayTransactionEntity, fees: FeeSettings): Promise<boolean> {
    const raised = await this.feeRaise.reserve(tx, fees, tx.cancelReason ? 'cancel' : 'call');
    if (raised.ok) return true;
    this.logger.warn(`not signing ${tx.id} (nonce ${tx.nonce}) again at max fee ${maxGasPrice(fees)}: ${raised.error.code} ${raised.error.message}; it keeps its fees`);
    return false;
  }

  private async cappedFees(tx: RelayTransactionEntity, last: FeeSettings, replacing: boolean): Promise<FeeSettings | null> {
    const market = await this.chain.marketFees(tx.chainId, last.type);
    const account = await this.accounts.getById(tx.userId);
    const cap = feeCap({
      acceptedMaxFee: maxGasPrice(feesOf(tx)),
      multiple: this.config.RELAY_MAX_FEE_MULTIPLE,
      estimatedCostMicro: tx.estimatedCostMicro,
      perTxLimitMicro: account.perTxLimitMicro,
    });
    const baseFee = market.type === 'eip1559' ? await this.chain.baseFee(tx.chainId) : null;
    return repricedFees({ last, market, bumpPercent: this.config.RELAY_FEE_BUMP_PERCENT, replacing, cap, baseFee });
  }
}
