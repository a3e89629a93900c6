import { checkAllowedTarget } from './target-policy';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { Caller } from '../../../common/http/authenticated-request';
import { microToUsd } from '../../../common/money/usd';
import { ChainRegistry } from '../../chains';
import { Estimator, FUNDING_FEE_PERCENT } from './estimator.service';
import { weiToMicroUsd } from '../core/fees';
import { RegionResolver } from './region-resolver';
import { RegionHints } from './relay-command';
import { parseRelayRequest } from './relay-request';
import { SubmitTxDto } from '../http/dto/submit-tx.dto';
import { SignerPool } from '../core/signer-pool.service';
import { TopUpService } from '../pipeline/send/top-up.service';
import { ReservedTargets } from './reserved-targets';

/**
 * POST /api/quote of a funding-signed call (interface.md: the quote's minBalanceRequired is what
 * POST /api/submit-signed-tx tops the sender up to). The user's transaction is not signed yet, so
 * its sender is unknown: the call is simulated like any quote, and costUSD is the worst case the
 * account would be charged, a top-up of the whole minBalanceRequired plus the 8% funding fee and
 * the transfer's gas (a sender that already holds some pays less).
 */
@Injectable()
export class FundingQuoteService {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly regions: RegionResolver,
    private readonly signers: SignerPool,
    private readonly estimator: Estimator,
    private readonly topUps: TopUpService,
    private readonly reserved: ReservedTargets,
  ) {}

  async quote(caller: Caller, dto: SubmitTxDto, hints: RegionHints): Promise<{ costUSD: number; minBalanceRequired: string }> {
    const chain = this.chains.get(dto.chainId);
    if (chain.capabilities.exchangeAction || caller.account.disabledChainIds.includes(chain.chainId)) {
      throw new AppError('CHAIN_001', `chain ${chain.chainId} does not take signed EVM transactions here`);
    }
    if (dto.isAuthenticatedTx || dto.derivationPath !== undefined || dto.authorizationList?.length) {
      throw new AppError('VALIDATION_001', 'a funding-signed transaction is signed by the user: derived senders and authorizationList do not apply');
    }
    this.reserved.refuse(chain.chainId, dto);
    checkAllowedTarget(caller.account, dto);
    const request = parseRelayRequest({ ...dto, transactionType: 'flash' }, chain);
    const from = this.signers.estimateFrom(this.regions.resolve(hints, dto.region));
    const estimate = await this.estimator.estimate(request, from, { derivedSender: false });
    const fundingWei = (estimate.minBalanceRequired * (100n + FUNDING_FEE_PERCENT)) / 100n + (await this.topUps.maxTransferGasWei(chain.chainId));
    const costMicro = weiToMicroUsd(fundingWei, estimate.usdPerNative, chain.nativeCurrency.decimals);
    return { costUSD: microToUsd(costMicro), minBalanceRequired: estimate.minBalanceRequired.toString() };
  }
}
