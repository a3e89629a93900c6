import { Inject, Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { Caller } from '../../../common/http/authenticated-request';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { DepositQuoteRequestDto, WithdrawalRequestDto } from '../dto/vault-requests.dto';
import { DepositQuoteDto, TxPayloadDto, WithdrawalQuoteDto } from '../dto/vault-responses.dto';
import { VaultQuoteEntity } from '../entities/vault-quote.entity';
import { runAuction } from '../solvers/auction';
import { VAULT_SOLVERS, VaultSolver } from '../solvers/solver';
import { VaultBid, VaultBidStore } from '../store/vault-bid.store';
import { VaultQuoteStore } from '../store/vault-quote.store';
import { ApyService } from './apy.service';
import { depositCalls, executeDigest, newExecuteNonce, redeemCalls } from './settlement-plan';
import { SettlementDelegates } from './settlement-delegates';
import { VaultReader } from './vault-reader.service';
import { AllocationLeg, DepositIntent, PlannedCall, VenueState } from './vault-types';
import { Venue, VenueRegistry } from './venue-registry';

const UINT = /^(0|[1-9]\d{0,77})$/;

/** APYs leave the service as percentages with four decimals (decisions: 7.25 means 7.25 %). */
const percent = (fraction: number): number => Math.round(fraction * 1_000_000) / 10_000;

/** Deposit quotes (solver auction) and withdrawal quotes, each with its unsigned settlement payload. */
@Injectable()
export class VaultQuotesService {
  private readonly logger = new Logger(VaultQuotesService.name);

  constructor(
    private readonly quotes: VaultQuoteStore,
    private readonly bids: VaultBidStore,
    private readonly chains: ChainRegistry,
    private readonly venues: VenueRegistry,
    private readonly reader: VaultReader,
    private readonly apy: ApyService,
    private readonly delegates: SettlementDelegates,
    private readonly config: AppConfig,
    @Inject(VAULT_SOLVERS) private readonly solvers: VaultSolver[],
  ) {}

  async depositQuote(caller: Caller, dto: DepositQuoteRequestDto): Promise<DepositQuoteDto> {
    const user = normalizeAddress(dto.userAddress);
    if (!user) throw new AppError('USER_003', 'userAddress is not an address');
    const asset = normalizeAddress(dto.asset);
    if (!asset) throw new AppError('VALIDATION_001', 'asset is not an address');
    if (!UINT.test(dto.amount) || dto.amount === '0') throw new AppError('VALIDATION_001', 'amount must be a positive base-10 integer string');
    this.chains.get(dto.chain);
    const delegate = this.delegates.get(dto.chain);
    const intent: DepositIntent = { amount: BigInt(dto.amount), riskTier: dto.riskTier ?? 'balanced', minApyBps: dto.minApyBps ?? 0 };

    const states = await this.venueStates(this.venues.forAsset(dto.chain, asset), user);
    const { bids, winner } = runAuction(intent, states, this.solvers);
    if (!winner) {
      this.logger.log(`no vault bid for ${dto.amount} of ${asset} on ${dto.chain} (${intent.riskTier}, min ${intent.minApyBps} bps): ${states.length} eligible venues, ${bids.length} bids`);
      throw new AppError('RESOURCE_001', `no solver bid: no healthy venue on chain ${dto.chain} matches asset ${asset}, risk tier ${intent.riskTier} and minApyBps ${intent.minApyBps}`);
    }
    const legs: AllocationLeg[] = winner.score.legs.map((l) => ({ venueId: l.venueId, vault: l.vault, shareBps: l.shareBps, amount: l.amount.toString() }));
    const calls = depositCalls(asset, user, legs);
    const quote = await this.store(caller, {
      kind: 'deposit',
      userAddress: user,
      chainId: dto.chain,
      asset,
      amount: dto.amount,
      shares: null,
      riskTier: intent.riskTier,
      minApyBps: intent.minApyBps,
      solverId: winner.solverId,
      allocation: legs,
      grossApy: winner.score.grossApy.toFixed(12),
      netApy: winner.score.netApy.toFixed(12),
      feeBps: winner.score.feeBps,
      riskScore: winner.score.riskScore.toFixed(6),
      delegate,
      calls,
    }, bids.map((bid) => ({
      solverId: bid.solverId,
      allocation: bid.score?.legs.map((l) => ({ venueId: l.venueId, vault: l.vault, shareBps: l.shareBps, amount: l.amount.toString() })) ?? bid.legs.map((l) => ({ ...l, vault: '', amount: '0' })),
      grossApy: (bid.score?.grossApy ?? 0).toFixed(12),
      netApy: (bid.score?.netApy ?? 0).toFixed(12),
      feeBps: bid.score?.feeBps ?? 0,
      riskScore: (bid.score?.riskScore ?? 0).toFixed(6),
      rejectedReason: bid.rejectedReason,
      won: bid === winner,
    })));
    return {
      quoteId: quote.id,
      netApy: percent(winner.score.netApy),
      grossApy: percent(winner.score.grossApy),
      feeBps: winner.score.feeBps,
      allocation: legs.map(({ venueId, vault, shareBps }) => ({ venueId, vault, shareBps })),
      solverId: winner.solverId,
      riskScore: Number(winner.score.riskScore.toFixed(6)),
      txPayload: await this.payload(quote),
      expiresAt: Math.floor(quote.expiresAt.getTime() / 1000),
    };
  }

  async withdrawalQuote(caller: Caller, dto: WithdrawalRequestDto): Promise<WithdrawalQuoteDto> {
    const user = normalizeAddress(dto.userAddress);
    if (!user) throw new AppError('USER_003', 'userAddress is not an address');
    const vault = normalizeAddress(dto.vault);
    if (!vault) throw new AppError('VALIDATION_001', 'vault is not an address');
    const requested = dto.shares ?? 'max';
    if (requested !== 'max' && !UINT.test(requested)) throw new AppError('VALIDATION_001', "shares must be a base-10 integer string or 'max'");
    this.chains.get(dto.chain);
    const venue = this.venues.byVault(dto.chain, vault);
    if (!venue) throw new AppError('RESOURCE_001', `no configured venue has vault ${vault} on chain ${dto.chain}`);
    const delegate = this.delegates.get(dto.chain);

    const balance = await this.reader.shareBalance(venue, user);
    const shares = requested === 'max' ? balance : BigInt(requested);
    if (balance === 0n) throw new AppError('TRANSACTION_002', `${user} holds no shares of ${vault}`);
    if (shares === 0n || shares > balance) throw new AppError('TRANSACTION_002', `${user} holds ${balance} shares of ${vault}, cannot redeem ${shares}`);
    const assets = await this.reader.previewRedeem(venue, shares).catch(() => 0n);

    const quote = await this.store(caller, {
      kind: 'withdraw',
      userAddress: user,
      chainId: dto.chain,
      asset: venue.asset,
      amount: assets.toString(),
      shares: shares.toString(),
      riskTier: null,
      minApyBps: null,
      solverId: null,
      allocation: [{ venueId: venue.venueId, vault: venue.vault, shareBps: 10_000, amount: shares.toString() }],
      grossApy: null,
      netApy: null,
      feeBps: null,
      riskScore: null,
      delegate,
      calls: redeemCalls(venue.vault, user, shares),
    }, []);
    return { quoteId: quote.id, kind: 'withdraw', shares: shares.toString(), txPayload: await this.payload(quote), expiresAt: Math.floor(quote.expiresAt.getTime() / 1000) };
  }

  /** Healthy venues with a measured APY; the others are left out (and logged at debug level). */
  private async venueStates(venues: Venue[], user: string): Promise<VenueState[]> {
    const states = await Promise.all(
      venues.map(async (venue): Promise<VenueState | null> => {
        const [health, grossApy] = await Promise.all([this.reader.health(venue, user), this.apy.grossApy(venue)]);
        if (!health.healthy) {
          this.logger.debug(`venue ${venue.venueId} excluded: ${health.reason}`);
          return null;
        }
        if (grossApy === null) {
          this.logger.debug(`venue ${venue.venueId} excluded: no APY measured yet`);
          return null;
        }
        return { ...venue, totalAssets: health.totalAssets, maxDeposit: health.maxDeposit, grossApy };
      }),
    );
    return states.filter((s): s is VenueState => s !== null);
  }

  private async store(
    caller: Caller,
    fields: Omit<VaultQuoteEntity, 'id' | 'accountId' | 'executeNonce' | 'deadline' | 'executeDigest' | 'expiresAt' | 'consumedAt' | 'createdAt' | 'calls'> & { calls: PlannedCall[] },
    bids: VaultBid[],
  ): Promise<VaultQuoteEntity> {
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + this.config.VAULT_QUOTE_TTL_SECONDS * 1000);
    const deadline = BigInt(Math.floor(expiresAt.getTime() / 1000) + this.config.VAULT_SETTLEMENT_GRACE_SECONDS);
    const nonce = newExecuteNonce();
    return this.quotes.transaction(async (em) => {
      const quote = await this.quotes.insert(
        {
          ...fields,
          accountId: caller.account.id,
          executeNonce: nonce.toString(),
          deadline: deadline.toString(),
          executeDigest: executeDigest(fields.chainId, fields.userAddress, fields.calls, nonce, deadline),
          expiresAt,
          consumedAt: null,
        },
        em,
      );
      await this.bids.insertOfQuote(quote.id, bids, em);
      return quote;
    });
  }

  /** The authorization names the EOA's current account nonce, which a type-4 authorization must match. */
  private async payload(quote: VaultQuoteEntity): Promise<TxPayloadDto> {
    const nonce = await this.reader.accountNonce(quote.chainId, quote.userAddress);
    return {
      authorization: { chainId: quote.chainId, address: quote.delegate, nonce },
      executeDigest: quote.executeDigest,
      calls: quote.calls,
      executeNonce: quote.executeNonce,
      deadline: Number(quote.deadline),
    };
  }
}
