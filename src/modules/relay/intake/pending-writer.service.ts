import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { type Account, AccountsService, LedgerService, ReservationRequest, utcDayStart } from '../../accounts';
import { notificationFor, stagesOf, TxNotification, TxStatusPublisher } from '../../tx-events';
import { Stage, statusOf } from '../core/stage';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { applyStamps, RelayTransactionStore, StageStamps } from '../store/relay-transaction.store';
import { GAS_HOLD_DEFAULT_VALID_FOR_MS, Sponsorship, SponsorshipClaim, SponsorshipPlan } from '../../policies';
import { ReservationQueue } from './reservation-queue';
import { checkSpendLimits } from './spend-limits';

/** A PostgreSQL bigint holds at most this; a larger maxUSD caps nothing a bigint reservation could reach. */
const BIGINT_MAX = 2n ** 63n - 1n;
const clampToBigintColumn = (micro: bigint): bigint => (micro > BIGINT_MAX ? BIGINT_MAX : micro);

export type PendingFields = Omit<Partial<RelayTransactionEntity>, 'status' | 'stage' | 'isAccountCharged' | 'retries' | 'estimatedCostMicro' | 'maxCostMicro'>;

/**
 * Accepting a transaction, for every kind of submission: the row in its first stage, its
 * status event and the reservation, with the limits checked, all or nothing. The usual
 * submission is ONE statement (RelayTransactionStore.insertReserved), shared with the account's
 * other submissions that arrived while its previous one ran (ReservationQueue); a feature that
 * writes its own record with it (`within`) gets one database transaction instead.
 */
@Injectable()
export class PendingWriter {
  private readonly queue: ReservationQueue;

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly ledger: LedgerService,
    private readonly publisher: TxStatusPublisher,
    private readonly accounts: AccountsService,
    private readonly sponsorship: Sponsorship,
  ) {
    this.queue = new ReservationQueue(txs);
  }

  /**
   * `stage`: accepted, or signed for a transaction that arrives signed (funding-signed).
   * `sponsorship`: the account's matching policies (null: it has none enabled); the first whose
   * limits hold counts the reservation in the same database transaction as the account's.
   * `planSponsorship`: the policies were not read (the caller expects none, as for most
   * accounts): the one statement reserves only while the account has no enabled policy, and
   * when it was refused this plans the sponsorship (or refuses with the policies' reason) and
   * the write goes the sponsored way; with no policy it was the limits that refused.
   */
  async write(
    userId: string,
    fields: PendingFields & { chainId: number },
    costMicro: bigint,
    maxUsd: number | null,
    within?: (em: EntityManager, tx: RelayTransactionEntity) => Promise<void>,
    stage: Extract<Stage, 'accepted' | 'signed'> = 'accepted',
    sponsorship: SponsorshipPlan | null = null,
    planSponsorship?: () => Promise<SponsorshipPlan | null>,
  ): Promise<{ tx: RelayTransactionEntity; notification: TxNotification }> {
    // Request-only limit: no need to hold anything to check it.
    if (maxUsd !== null && costMicro > usdToMicro(maxUsd)) {
      throw new AppError('TRANSACTION_001', `estimated cost ${microToUsd(costMicro)} USD exceeds maxUSD ${maxUsd}`);
    }
    // A feature's own record goes in one database transaction: its policies are planned before it.
    if (within && planSponsorship) return this.write(userId, fields, costMicro, maxUsd, within, stage, await planSponsorship());
    const now = new Date();
    const tx = Object.assign(new RelayTransactionEntity(), {
      ...fields,
      id: randomUUID(),
      userId,
      stage,
      status: statusOf(stage),
      estimatedCostMicro: costMicro,
      // A later fee raise (speed-up, re-price) is held to the same maxUSD.
      maxCostMicro: maxUsd === null ? null : clampToBigintColumn(usdToMicro(maxUsd)),
      isAccountCharged: false,
      retries: 0,
      label: fields.label ?? '',
      fundingCostWei: fields.fundingCostWei ?? '0',
      // What the database leaves null, spelled out: the status event carries these fields.
      executionTxHash: fields.executionTxHash ?? null,
      costMicro: null,
      sender: fields.sender ?? null,
      nonce: fields.nonce ?? null,
      origin: fields.origin ?? null,
      signedAt: stage === 'signed' ? now : null,
      policyId: null,
      endUser: fields.endUser ?? null,
    } satisfies Partial<RelayTransactionEntity>);
    const reservation: ReservationRequest = { userId, amountMicro: costMicro, reference: `tx:${tx.id}`, chainId: fields.chainId, now, dayStart: utcDayStart(now) };
    if (!within && !sponsorship) {
      const notification = notificationFor(tx, null);
      const unlessSponsored = planSponsorship !== undefined;
      const inserted = await this.queue.reserve(tx, unlessSponsored ? { ...reservation, unlessSponsored } : reservation, notification);
      if (inserted) return this.stamped(tx, notification, inserted);
      const plan = planSponsorship ? await planSponsorship() : null;
      if (plan) return this.write(userId, fields, costMicro, maxUsd, within, stage, plan);
      const account = await this.withinLimits(userId, fields.chainId, costMicro, now);
      // No policy enabled now. One was when the statement ran (disabled since) if the account's
      // own balance covers the cost: then it pays, as it would have a moment later.
      if (unlessSponsored && account.availableMicro >= costMicro) {
        const again = await this.queue.reserve(tx, reservation, notification);
        if (again) return this.stamped(tx, notification, again);
      }
      throw insufficientBalance();
    }
    return this.txs.transaction(async (em) => {
      if (sponsorship) {
        // Lock order account, then policy: a settlement of the account holds them in that order.
        await this.ledger.lockAccount(em, userId);
        applyClaim(tx, await this.sponsorship.claim(em, sponsorship, costMicro), now, stage);
      }
      if (!within) {
        // A refusal throws: the policy's claim rolls back with the transaction.
        const notification = notificationFor(tx, null);
        const inserted = await this.txs.insertReserved(tx, reservation, notification, em);
        if (!inserted) await this.refusal(userId, fields.chainId, costMicro, now);
        return this.stamped(tx, notification, inserted!);
      }
      await this.txs.insert(tx, em);
      await within(em, tx);
      const recorded = await this.publisher.record(em, tx, null);
      if (!(await this.ledger.reserveWithinLimits(em, reservation))) await this.refusal(userId, fields.chainId, costMicro, now);
      return { tx, notification: recorded };
    });
  }

  private stamped(tx: RelayTransactionEntity, notification: TxNotification, inserted: StageStamps & { updated_at: Date }): { tx: RelayTransactionEntity; notification: TxNotification } {
    applyStamps(tx, inserted);
    tx.updatedAt = new Date(inserted.updated_at);
    // As in the outbox row: the acceptance time is the row's.
    notification.stages = stagesOf(tx);
    return { tx, notification };
  }

  /** Which limit refused a reservation, read from the account as it is now; else the balance. */
  private async refusal(userId: string, chainId: number, costMicro: bigint, now: Date): Promise<never> {
    await this.withinLimits(userId, chainId, costMicro, now);
    throw insufficientBalance();
  }

  /** The account as it is now; throws the spend limit that refuses `costMicro`, if one does. */
  private async withinLimits(userId: string, chainId: number, costMicro: bigint, now: Date): Promise<Account> {
    const account = await this.accounts.getById(userId);
    checkSpendLimits(account, chainId, costMicro, now);
    return account;
  }
}

/**
 * The row carries what its policy counted (settlement gives back exactly that) and, for a
 * policy with maxGasPriceGwei, the cap an unsigned transaction waits under with a deadline (600 s unless the
 * client gave one), so a held transaction cannot wait for ever.
 */
function applyClaim(tx: RelayTransactionEntity, claim: SponsorshipClaim, now: Date, stage: Stage): void {
  tx.policyId = claim.policyId;
  tx.endUser = claim.endUser;
  tx.policyReservedMicro = claim.reservedMicro;
  tx.policyWindowStart = claim.windowStart;
  // A transaction that arrives signed (funding-signed) has its fees fixed by its user: nothing to hold.
  if (claim.maxGasPriceWei !== null && stage === 'accepted') {
    tx.maxGasPriceWei = claim.maxGasPriceWei.toString();
    tx.validUntil ??= new Date(now.getTime() + GAS_HOLD_DEFAULT_VALID_FOR_MS);
  }
}

const insufficientBalance = (): AppError => new AppError('TRANSACTION_002', 'insufficient balance for the estimated cost');
