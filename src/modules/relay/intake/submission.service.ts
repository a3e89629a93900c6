import { Injectable } from '@nestjs/common';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { AppError } from '../../../common/errors/app-error';
import { unitOfWork } from '../../../database/unit-of-work';
import { LowBalanceMonitor } from '../../accounts';
import { ChainRegistry } from '../../chains';
import { keepIdempotencyClaim } from '../../idempotency';
import { MetricsService } from '../../metrics';
import { Sponsorship } from '../../policies';
import { normalizeAddress } from '../../../common/evm/address';
import { TxStatusPublisher } from '../../tx-events';
import { ExchangeRelayService } from './exchange/exchange-relay.service';
import { KeyEligibility } from '../core/key-eligibility';
import { SignerPool } from '../core/signer-pool.service';
import { DerivationScheme } from '../core/derived-keys';
import { LegacyDerivationPathStore } from '../store/legacy-derivation-path.store';
import { Estimate, Estimator } from './estimator.service';
import { ApprovalGate } from './approval-gate';
import { PendingWriter } from './pending-writer.service';
import { checkAllowedTarget } from './target-policy';
import { ReservedTargets } from './reserved-targets';
import { parseRelayRequest, RelayRequest } from './relay-request';
import { RegionResolver } from './region-resolver';
import { RelayCommand } from './relay-command';
import { toJobRow } from '../pipeline/send/send-job-row';
import { SendQueue } from '../pipeline/send/send-queue';

/** How long an account that had an enabled policy gets its policies read first, and how many such accounts are remembered. */
const SPONSORED_HINT_MS = 60_000;
const SPONSORED_HINT_MAX = 10_000;

const exceedsMaxUsd = (costMicro: bigint, maxUsd: number | null): boolean => maxUsd !== null && costMicro > usdToMicro(maxUsd);

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
    private readonly chains: ChainRegistry,
    private readonly regions: RegionResolver,
    private readonly signers: SignerPool,
    private readonly estimator: Estimator,
    private readonly publisher: TxStatusPublisher,
    private readonly sendQueue: SendQueue,
    private readonly exchange: ExchangeRelayService,
    private readonly metrics: MetricsService,
    private readonly pending: PendingWriter,
    private readonly approval: ApprovalGate,
    private readonly lowBalance: LowBalanceMonitor,
    private readonly eligibility: KeyEligibility,
    private readonly reserved: ReservedTargets,
    private readonly legacyPaths: LegacyDerivationPathStore,
    private readonly sponsorship: Sponsorship,
  ) {}

  /** POST /api/quote: the same estimate, nothing stored. */
  async quote(command: Omit<RelayCommand, 'within' | 'origin'>): Promise<{ costUSD: number; minBalanceRequired: string }> {
    const { tx: dto } = command;
    // Exchange actions cost nothing and need no native balance.
    if (this.chains.get(dto.chainId).capabilities.exchangeAction) return { costUSD: 0, minBalanceRequired: '0' };
    this.reserved.refuse(dto.chainId, dto);
    checkAllowedTarget(command.caller.account, dto);
    const { estimate } = await this.prepare(command);
    return { costUSD: microToUsd(estimate.costMicro), minBalanceRequired: estimate.minBalanceRequired.toString() };
  }

  async submit(command: RelayCommand): Promise<Submitted> {
    const { caller, tx: dto, within } = command;
    const chain = this.chains.get(dto.chainId);
    if (chain.capabilities.exchangeAction) {
      if (within) throw new AppError('VALIDATION_001', `chain ${chain.chainId} takes exchange actions, not EVM transactions`);
      if (caller.account.disabledChainIds.includes(chain.chainId)) throw new AppError('CHAIN_001', `chain ${chain.chainId} is disabled for this account`);
      const tx = await this.exchange.submit(caller, dto, chain, this.regions.resolve(command.region, dto.region));
      return { txId: tx.id, estimatedCostUSD: 0 };
    }
    // Policy first, so a refusal has reserved and written nothing: what no team may target and the
    // account's targets (its own submissions only; features relay to the service's contracts),
    // then its approval webhook.
    if (!command.origin) {
      this.reserved.refuse(chain.chainId, dto);
      checkAllowedTarget(caller.account, dto);
    }
    this.refuseWithoutFundedKey(chain.chainId, this.regions.resolve(command.region, dto.region));
    const { request, region, estimate, scheme, derivedSender } = await this.prepare(command);
    const endUser = normalizeAddress(command.endUser ?? dto.endUser) ?? derivedSender;
    // Before the approval webhook and anything reserved: a submission no policy may sponsor is refused here.
    const plan = () => this.sponsorship.plan(caller.account.id, { chainId: request.chain.chainId, to: request.to, callData: request.data, endUser, now: new Date() });
    // The usual account has no policy and no approval webhook: its policies are not read first,
    // its one statement reserves only while it has no enabled policy (PendingWriter), which saves
    // a statement per submission. A feature's submission (its own record in one database
    // transaction), an account seen with policies lately, one with an approval webhook (the
    // policies decide before it is asked) and a cost over maxUSD (a policy's refusal comes first)
    // read them first, as before.
    const readFirst = within !== undefined || caller.account.approvalWebhookEnabled || this.sponsoredLately(caller.account.id) || exceedsMaxUsd(estimate.costMicro, request.maxUsd);
    const sponsorship = readFirst ? await plan() : null;
    if (sponsorship) this.noteSponsored(caller.account.id);
    await this.approval.check(caller.account, {
      chainId: request.chain.chainId,
      to: request.to,
      callData: request.data,
      value: request.value.toString(),
      label: request.label,
      derivationPath: request.derivationPath,
      estimatedCostMicro: estimate.costMicro,
      authorizationList: request.authorizationList,
      gasLimit: estimate.gasLimit.toString(),
      fees: estimate.fees,
    });
    const { tx, notification } = await this.pending.write(
      caller.account.id,
      {
        chainId: request.chain.chainId,
        to: request.to,
        callData: request.data,
        value: request.value.toString(),
        gasLimit: estimate.gasLimit.toString(),
        gasPrice: estimate.fees.type === 'legacy' ? estimate.fees.gasPrice.toString() : null,
        maxFeePerGas: estimate.fees.type === 'eip1559' ? estimate.fees.maxFeePerGas.toString() : null,
        maxPriorityFeePerGas: estimate.fees.type === 'eip1559' ? estimate.fees.maxPriorityFeePerGas.toString() : null,
        label: request.label,
        transactionType: request.transactionType,
        submitRegion: region,
        derivationPath: request.derivationPath,
        derivationScheme: scheme,
        authorizationList: request.authorizationList,
        origin: command.origin ?? null,
        validUntil: request.validUntil,
        endUser,
      },
      estimate.costMicro,
      request.maxUsd,
      // The feature sees its transaction as an opaque unit of work, never the ORM's manager.
      within && ((em, row) => within(unitOfWork(em), row)),
      'accepted',
      sponsorship,
      readFirst ? undefined : async () => {
        const planned = await plan();
        if (planned) this.noteSponsored(caller.account.id);
        return planned;
      },
    );
    // Committed: a retry under the same Idempotency-Key gets this transaction, whatever fails from here (a feature's route answers its own shape).
    keepIdempotencyClaim(command.origin ? null : { status: 201, response: { txId: tx.id, estimatedCostUSD: microToUsd(estimate.costMicro) } });
    await this.sendQueue.enqueue(tx.id, 'send', 0, 0, toJobRow(tx));
    await this.publisher.publish('status', notification);
    // Off the answer's path: the check is idempotent and runs again at the next balance change.
    if (caller.account.lowBalanceThresholdMicro !== null) void this.lowBalance.check(caller.account.id);
    this.metrics.countSubmitted(tx.chainId, tx.transactionType);
    return { txId: tx.id, estimatedCostUSD: microToUsd(estimate.costMicro) };
  }

  /** A hint only (which way is tried first), never what decides: accounts with a plan in the last SPONSORED_HINT_MS. */
  private readonly sponsored = new Map<string, number>();

  private sponsoredLately(userId: string): boolean {
    const until = this.sponsored.get(userId);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.sponsored.delete(userId);
    return false;
  }

  private noteSponsored(userId: string): void {
    this.sponsored.delete(userId);
    if (this.sponsored.size >= SPONSORED_HINT_MAX) this.sponsored.delete(this.sponsored.keys().next().value as string);
    this.sponsored.set(userId, Date.now() + SPONSORED_HINT_MS);
  }

  /** Work no key can pay for is refused up front rather than accepted and left pending. */
  private refuseWithoutFundedKey(chainId: number, region: string): void {
    if (!this.eligibility.anyFunded(chainId, this.signers.poolAddresses(region))) {
      throw new AppError('RELAYER_001', `every relayer key of region ${region} on chain ${chainId} is out of funds`);
    }
  }

  private async prepare({ caller, tx: dto, region: hints }: Omit<RelayCommand, 'within' | 'origin'>): Promise<{ request: RelayRequest; region: string; estimate: Estimate; scheme: DerivationScheme | null; derivedSender: string | null }> {
    const chain = this.chains.get(dto.chainId);
    if (chain.capabilities.exchangeAction) throw new AppError('VALIDATION_001', `chain ${chain.chainId} takes exchange actions, not EVM transactions`);
    if (caller.account.disabledChainIds.includes(chain.chainId)) throw new AppError('CHAIN_001', `chain ${chain.chainId} is disabled for this account`);
    const request = parseRelayRequest(dto, chain);
    const region = this.regions.resolve(hints, dto.region);
    const scheme = request.derivationPath ? await this.schemeOf(caller.account, request.derivationPath) : null;
    const derived = request.derivationPath && scheme ? this.signers.derive(caller.account.id, request.derivationPath, scheme) : null;
    const from = derived?.address ?? this.signers.estimateFrom(region);
    const estimate = await this.estimator.estimate(request, from, { derivedSender: derived !== null });
    return { request, region, estimate, scheme, derivedSender: derived ? derived.address.toLowerCase() : null };
  }

  /** The account's own key; the path's old global key only while an operator lets the account recover a path it alone used before. */
  private async schemeOf(account: { id: string; legacyDerivation: boolean }, path: string): Promise<DerivationScheme> {
    return account.legacyDerivation && (await this.legacyPaths.ownedOnlyBy(account.id, path)) ? 'legacy' : 'account';
  }
}
