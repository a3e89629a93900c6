import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { microToUsd } from '../../../common/money/usd';
import { Caller } from '../../../common/http/authenticated-request';
import { dailyConsumedMicro } from '../../accounts/domain/daily-window';
import { LedgerService } from '../../accounts/domain/ledger.service';
import { AccountEntity } from '../../accounts/entities/account.entity';
import { AppError } from '../../../common/errors/app-error';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';
import { MetricsService } from '../../metrics/metrics.service';
import { TxStatusPublisher } from '../../tx-events/tx-status.publisher';
import { SubmitTxDto } from '../dto/submit-tx.dto';
import { ExchangeRelayService } from '../exchange/exchange-relay.service';
import { RelayTransactionEntity } from '../entities/relay-transaction.entity';
import { SignerPool } from '../signers/signer-pool.service';
import { Estimate, Estimator } from './estimator.service';
import { parseRelayRequest, RelayRequest } from './relay-request';
import { RegionResolver } from './region-resolver';
import { SendQueue } from './send-queue';
import { checkSpendLimits } from './spend-limits';

export interface Submitted {
  txId: string;
  estimatedCostUSD: number;
}

/**
 * Accepting a transaction: validate, estimate, then ONE database transaction that checks the
 * limits on the locked account, inserts the PENDING row, reserves the cost and records the
 * status event. Only after commit is the send job enqueued.
 */
@Injectable()
export class SubmissionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chains: ChainRegistry,
    private readonly regions: RegionResolver,
    private readonly signers: SignerPool,
    private readonly estimator: Estimator,
    private readonly ledger: LedgerService,
    private readonly publisher: TxStatusPublisher,
    private readonly sendQueue: SendQueue,
    private readonly exchange: ExchangeRelayService,
    private readonly metrics: MetricsService,
  ) {}

  /** POST /api/quote: the same estimate, nothing stored. */
  async quote(caller: Caller, dto: SubmitTxDto, http: Pick<Request, 'header'>): Promise<{ costUSD: number; minBalanceRequired: string }> {
    // Exchange actions cost nothing and need no native balance.
    if (this.chains.get(dto.chainId).capabilities.exchangeAction) return { costUSD: 0, minBalanceRequired: '0' };
    const { estimate } = await this.prepare(caller, dto, http);
    return { costUSD: microToUsd(estimate.costMicro), minBalanceRequired: estimate.minBalanceRequired.toString() };
  }

  async submit(caller: Caller, dto: SubmitTxDto, http: Pick<Request, 'header'>): Promise<Submitted> {
    const chain = this.chains.get(dto.chainId);
    if (chain.capabilities.exchangeAction) {
      if (caller.account.disabledChainIds.includes(chain.chainId)) throw new AppError('CHAIN_001', `chain ${chain.chainId} is disabled for this account`);
      const tx = await this.exchange.submit(caller, dto, chain, this.regions.resolve(http, dto.region));
      return { txId: tx.id, estimatedCostUSD: 0 };
    }
    const { request, region, estimate } = await this.prepare(caller, dto, http);
    const { tx, notification } = await this.dataSource.transaction(async (em) => {
      // The row and its event need no lock: write them first, so the account row lock (which
      // serialises every submission of an account) is held only for the checks and the reservation.
      const tx = em.create(RelayTransactionEntity, {
        userId: caller.account.id,
        chainId: request.chain.chainId,
        to: request.to,
        callData: request.data,
        value: request.value.toString(),
        gasLimit: estimate.gasLimit.toString(),
        gasPrice: estimate.fees.type === 'legacy' ? estimate.fees.gasPrice.toString() : null,
        maxFeePerGas: estimate.fees.type === 'eip1559' ? estimate.fees.maxFeePerGas.toString() : null,
        maxPriorityFeePerGas: estimate.fees.type === 'eip1559' ? estimate.fees.maxPriorityFeePerGas.toString() : null,
        label: request.label,
        status: 'PENDING',
        transactionType: request.transactionType,
        submitRegion: region,
        derivationPath: request.derivationPath,
        authorizationList: request.authorizationList,
        estimatedCostMicro: estimate.costMicro,
        isAccountCharged: false,
        retries: 0,
      });
      await em.save(tx);
      const notification = await this.publisher.record(em, tx, null);
      const account = await em.findOne(AccountEntity, { where: { id: caller.account.id }, lock: { mode: 'for_no_key_update' } });
      if (!account) throw new AppError('USER_001');
      const now = new Date();
      checkSpendLimits(account, request.chain.chainId, estimate.costMicro, request.maxUsd, now);
      await this.ledger.reserve(account.id, estimate.costMicro, `tx:${tx.id}`, em);
      await em.update(AccountEntity, { id: account.id }, { dailyConsumedMicro: dailyConsumedMicro(account, now) + estimate.costMicro, dailyUpdatedAt: now });
      return { tx, notification };
    });
    await this.sendQueue.enqueue(tx.id);
    await this.publisher.publish('status', notification);
    this.metrics.relaySubmitted.inc({ chain: String(tx.chainId), type: tx.transactionType });
    return { txId: tx.id, estimatedCostUSD: microToUsd(estimate.costMicro) };
  }

  private async prepare(caller: Caller, dto: SubmitTxDto, http: Pick<Request, 'header'>): Promise<{ request: RelayRequest; region: string; estimate: Estimate }> {
    const chain = this.chains.get(dto.chainId);
    if (chain.capabilities.exchangeAction) throw new AppError('VALIDATION_001', `chain ${chain.chainId} takes exchange actions, not EVM transactions`);
    if (caller.account.disabledChainIds.includes(chain.chainId)) throw new AppError('CHAIN_001', `chain ${chain.chainId} is disabled for this account`);
    const request = parseRelayRequest(dto, chain);
    const region = this.regions.resolve(http, dto.region);
    const derived = request.derivationPath ? this.signers.derive(request.derivationPath) : null;
    const from = derived?.address ?? this.signers.poolAddresses(region)[0];
    const estimate = await this.estimator.estimate(request, from, { derivedSender: derived !== null });
    return { request, region, estimate };
  }
}
