import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../../common/errors/app-error';
import { Caller } from '../../../../common/http/authenticated-request';
import { exchangeApiUrlOverride } from '../../../../config/process-env';
import { ChainDefinition } from '../../../chains';
import { TxStatusPublisher } from '../../../tx-events';
import { SubmitTxDto } from '../../http/dto/submit-tx.dto';
import { statusOf } from '../../core/stage';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { decodeExchangeCallData } from './exchange-action';
import { ExchangeClient, ExchangeUnavailableError } from './exchange-client';

const EXCHANGE_TIMEOUT_MS = 10_000;
const FORBIDDEN_FIELDS = ['to', 'value', 'gasLimit', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'authorizationList'] as const;

/**
 * Exchange-action chains take signed exchange requests instead of EVM transactions: the
 * decoded {action, nonce, signature} goes to the chain's exchange endpoint and its answer
 * decides EXECUTED or FAILED synchronously, at no cost. Nothing is written when the exchange
 * cannot be reached (CHAIN_003), so a client may simply retry.
 */
@Injectable()
export class ExchangeRelayService {
  private readonly logger = new Logger(ExchangeRelayService.name);
  private readonly client = new ExchangeClient();

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly publisher: TxStatusPublisher,
  ) {}

  async submit(caller: Caller, dto: SubmitTxDto, chain: ChainDefinition, region: string): Promise<RelayTransactionEntity> {
    const present = FORBIDDEN_FIELDS.filter((f) => dto[f] !== undefined);
    if (present.length) throw new AppError('VALIDATION_001', `${present.join(', ')} not allowed on exchange-action chain ${chain.chainId}`);
    if (dto.isAuthenticatedTx || dto.derivationPath) throw new AppError('VALIDATION_001', 'exchange actions are signed by the trader; derived senders do not apply');
    const decoded = decodeExchangeCallData(dto.callData);
    if (!decoded.ok) throw new AppError('VALIDATION_001', decoded.reason);
    const url = exchangeApiUrlOverride(chain.chainId) ?? chain.exchangeApiUrl;
    if (!url) throw new AppError('SYSTEM_002', `no exchange endpoint configured for chain ${chain.chainId}`);

    const started = Date.now();
    let outcome: Awaited<ReturnType<ExchangeClient['submit']>>;
    try {
      outcome = await this.client.submit(url, decoded.request, EXCHANGE_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof ExchangeUnavailableError) throw new AppError('CHAIN_003', `exchange for chain ${chain.chainId} unavailable: ${err.message}`);
      throw err;
    }
    // The exchange decided before anything is written: the row starts in its final stage.
    const stage = outcome.accepted ? 'executed' : 'failed';
    const { tx, notification } = await this.txs.transaction(async (em) => {
      const tx = Object.assign(new RelayTransactionEntity(), {
        userId: caller.account.id,
        chainId: chain.chainId,
        to: null,
        callData: dto.callData,
        value: '0',
        label: dto.label ?? '',
        stage,
        status: statusOf(stage),
        settledAt: new Date(),
        transactionType: dto.transactionType ?? 'flash',
        submitRegion: region,
        estimatedCostMicro: 0n,
        costMicro: 0n,
        isAccountCharged: false,
        retries: 0,
        latencyMs: Date.now() - started,
        error: outcome.accepted ? null : (outcome.reason ?? 'rejected by the exchange').slice(0, 1000),
        revertReason: outcome.accepted ? null : (outcome.reason ?? null),
        failureReason: outcome.accepted ? null : 'exchange_rejected',
      });
      await this.txs.insert(tx, em);
      return { tx, notification: await this.publisher.record(em, tx, null) };
    });
    await this.publisher.publish('status', notification);
    this.logger.log(`exchange action ${tx.id} on ${chain.chainId}: ${tx.status}`);
    return tx;
  }
}
