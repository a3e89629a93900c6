import { Injectable, Logger } from '@nestjs/common';
import { getAddress, recoverAddress, Signature, verifyAuthorization } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { Caller } from '../../../common/http/authenticated-request';
import { RegionHints, SubmissionService } from '../../relay';
import { ExecutePlanRequestDto, SignedAuthorizationDto } from '../dto/vault-requests.dto';
import { OrderDto } from '../dto/vault-responses.dto';
import { VaultOrderEntity } from '../entities/vault-order.entity';
import { VaultQuoteEntity } from '../entities/vault-quote.entity';
import { VaultOrderStore } from '../store/vault-order.store';
import { VaultQuoteStore } from '../store/vault-quote.store';
import { OrderTrackingQueue } from './order-tracking.queue';
import { orderView } from './order-view';
import { encodeExecute } from './settlement-plan';
import { SettlementDelegates } from './settlement-delegates';
import { vaultLabel } from './vault-label';
import { VaultReader } from './vault-reader.service';
import { isUuid } from '../../../common/ids/uuid';

/**
 * POST /v1/deposits: checks that both signatures are the quote's user's, takes the quote (once),
 * relays `execute(...)` to the user's EOA as a type-4 transaction through the relay (the caller's
 * account pays the gas) and opens the order.
 */
@Injectable()
export class PlanExecutionService {
  private readonly logger = new Logger(PlanExecutionService.name);

  constructor(
    private readonly quotes: VaultQuoteStore,
    private readonly orders: VaultOrderStore,
    private readonly submissions: SubmissionService,
    private readonly delegates: SettlementDelegates,
    private readonly reader: VaultReader,
    private readonly tracking: OrderTrackingQueue,
  ) {}

  async execute(caller: Caller, dto: ExecutePlanRequestDto, region: RegionHints): Promise<OrderDto> {
    const quote = await this.usableQuote(caller, dto.quoteId);
    const delegate = this.delegates.get(quote.chainId);
    this.checkExecuteSignature(quote, dto.executeSignature);
    const authorizationList = dto.authorization ? [await this.checkAuthorization(quote, delegate, dto.authorization)] : undefined;
    if (!authorizationList) await this.requireDelegation(quote, delegate);

    let callData: string;
    try {
      callData = encodeExecute(quote.calls, BigInt(quote.executeNonce), BigInt(quote.deadline), dto.executeSignature);
    } catch (err) {
      throw new AppError('VALIDATION_001', `the stored plan cannot be encoded with this signature: ${(err as Error).message.split('\n')[0]}`);
    }

    const primary = quote.allocation.reduce((a, b) => (b.shareBps > a.shareBps ? b : a));
    let order: VaultOrderEntity | undefined;
    // The quote is taken and the order written in the relay row's own transaction: a refused
    // submission leaves the quote usable, an accepted one always has its order.
    await this.submissions.submit({
      caller,
      tx: { chainId: quote.chainId, to: getAddress(quote.userAddress), callData, value: '0', label: vaultLabel(quote.kind, quote.id), authorizationList },
      region,
      origin: 'vault',
      endUser: quote.userAddress,
      within: async (work, tx) => {
        if (!(await this.quotes.consume(quote.id, work))) throw new AppError('RESOURCE_001', `quote ${quote.id} is unknown, used or expired; request a fresh quote`);
        order = await this.orders.open({
          accountId: caller.account.id,
          quoteId: quote.id,
          kind: quote.kind,
          userAddress: quote.userAddress,
          chainId: quote.chainId,
          asset: quote.asset,
          amount: quote.amount,
          venueId: primary.venueId,
          allocation: quote.allocation,
          relayTxId: tx.id,
          status: 'relaying',
          executionTxHash: null,
          failureReason: null,
        }, work);
      },
    });
    if (!order) throw new AppError('SYSTEM_001', 'the vault order was not recorded');
    await this.tracking.schedule(order.id);
    this.logger.log(`vault ${quote.kind} order ${order.id} relaying as ${order.relayTxId}`);
    return orderView(order);
  }

  /** Unknown, foreign (another account's), expired and used quotes all look the same: 404. */
  private async usableQuote(caller: Caller, quoteId: string): Promise<VaultQuoteEntity> {
    const quote = isUuid(quoteId) ? await this.quotes.findOfAccount(quoteId, caller.account.id) : null;
    if (!quote || quote.consumedAt !== null || quote.expiresAt.getTime() <= Date.now()) {
      throw new AppError('RESOURCE_001', `quote ${quoteId} is unknown, used or expired; request a fresh quote`);
    }
    return quote;
  }

  private checkExecuteSignature(quote: VaultQuoteEntity, signature: string): void {
    let signer: string;
    try {
      signer = recoverAddress(quote.executeDigest, signature);
    } catch {
      throw new AppError('VALIDATION_001', 'executeSignature is not a valid signature');
    }
    if (signer.toLowerCase() !== quote.userAddress) throw new AppError('VALIDATION_001', 'executeSignature was not made by the quote’s userAddress');
  }

  private async checkAuthorization(quote: VaultQuoteEntity, delegate: string, auth: SignedAuthorizationDto) {
    if (normalizeAddress(auth.address) !== delegate) throw new AppError('VALIDATION_001', `authorization.address must be the settlement delegate ${delegate}`);
    // Not 0 (any chain): a relayed authorization could then be replayed on every other chain.
    if (auth.chainId !== quote.chainId) throw new AppError('VALIDATION_001', `authorization.chainId must be ${quote.chainId}`);
    const yParity = Number(auth.yParity) as 0 | 1;
    let signer: string;
    try {
      const signature = Signature.from({ r: zeroPad(auth.r), s: zeroPad(auth.s), yParity });
      signer = verifyAuthorization({ address: delegate, nonce: BigInt(auth.nonce), chainId: BigInt(auth.chainId) }, signature);
    } catch {
      throw new AppError('VALIDATION_001', 'authorization signature is malformed');
    }
    if (signer.toLowerCase() !== quote.userAddress) throw new AppError('VALIDATION_001', 'authorization was not signed by the quote’s userAddress');
    // A stale nonce makes the chain skip the authorization silently; refuse it while it is cheap to.
    const current = await this.reader.accountNonce(quote.chainId, quote.userAddress);
    if (auth.nonce !== current) throw new AppError('VALIDATION_001', `authorization.nonce must be the EOA's current nonce ${current}`);
    return { chainId: auth.chainId, address: delegate, nonce: auth.nonce, yParity: String(yParity), r: zeroPad(auth.r), s: zeroPad(auth.s) };
  }

  private async requireDelegation(quote: VaultQuoteEntity, delegate: string): Promise<void> {
    const code = (await this.reader.code(quote.chainId, quote.userAddress)).toLowerCase();
    if (code !== `0xef0100${delegate.slice(2)}`) throw new AppError('VALIDATION_001', 'authorization is required: the EOA does not delegate to the settlement delegate yet');
  }
}

function zeroPad(hex: string): string {
  return `0x${hex.slice(2).padStart(64, '0')}`;
}
