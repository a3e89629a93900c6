import { Injectable, Logger } from '@nestjs/common';
import { isHexString, verifyTypedData } from 'ethers';
import { QueryFailedError } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import type { Caller } from '../../../common/http/authenticated-request';
import { RegionHints, SubmissionService } from '../../relay';
import { QuoteStore } from '../../swap';
import type { SubmitGaslessSwapDto } from '../dto/gasless.dto';
import { GaslessSwapEntity } from '../entities/gasless-swap.entity';
import { GaslessSwapStore } from '../store/gasless-swap.store';
import { settlementOf } from './gasless-quote.service';
import { GaslessQuoteStore } from './gasless-quote.store';
import type { StoredGaslessQuote } from './gasless-quote';
import { signingTypes } from './permit-typed-data';
import { encodeSettlement } from './settlement-call';
import { GaslessSwapView, toSwapView } from './gasless-swap-view';

const SIGNATURE_LENGTH = 132;
/** A permit this close to its deadline could expire between simulation and inclusion. */
const DEADLINE_MARGIN_SECONDS = 10;

/**
 * POST /gasless/submit-swap: checks the signature against the stored typed data, then relays the
 * settlement with the calling account paying the gas, recording the swap in the relay's own
 * transaction. The user's tokens pay the fee; the user pays no gas.
 */
@Injectable()
export class GaslessSubmitService {
  private readonly logger = new Logger(GaslessSubmitService.name);

  constructor(
    private readonly swaps: GaslessSwapStore,
    private readonly quotes: GaslessQuoteStore,
    private readonly routeQuotes: QuoteStore,
    private readonly submissions: SubmissionService,
  ) {}

  async submit(caller: Caller, dto: SubmitGaslessSwapDto, region: RegionHints): Promise<GaslessSwapView> {
    if (dto.signature.length !== SIGNATURE_LENGTH || !isHexString(dto.signature, 65)) {
      throw new AppError('VALIDATION_001', `signature must be 65 bytes of hex with 0x prefix (${SIGNATURE_LENGTH} characters)`);
    }
    const quote = await this.loadQuote(caller, dto.quoteId);
    if (quote.deadline - DEADLINE_MARGIN_SECONDS <= Math.floor(Date.now() / 1000)) throw new AppError('RESOURCE_001', 'quote expired: its permit deadline has passed');
    this.checkSigner(quote, dto.signature);

    let swap: GaslessSwapEntity | undefined;
    try {
      await this.submissions.submit({
        caller,
        tx: { chainId: quote.chainId, to: quote.settler, callData: encodeSettlement(quote.mode, settlementOf(quote), dto.signature), value: '0', label: `gasless:${quote.quoteId}` },
        region,
        origin: 'gasless',
        // The permit's signer (checked above to be the quote's sender): whom the team sponsors.
        endUser: quote.sender,
        // The swap row is written with the relay row, in one transaction: both or neither. Its
        // unique quote id makes the quote single-use, even for two submissions at once.
        within: async (work, tx) => {
          swap = await this.swaps.insert(swapRow(caller, quote, tx.id), work);
        },
      });
    } catch (err) {
      if (err instanceof QueryFailedError && (err as QueryFailedError & { code?: string }).code === '23505') throw new AppError('RESOURCE_001', 'quote already used');
      // Refused before anything was relayed (simulation, limits, balance): the signature was not
      // used on chain, so the quote stays available until its deadline.
      throw err;
    }
    if (!swap) throw new AppError('SYSTEM_001', 'the gasless swap was not recorded');
    await this.quotes.remove(quote.quoteId);
    this.logger.log(`gasless swap ${swap.id} relayed as ${swap.relayTxId}`);
    return toSwapView(swap);
  }

  private async loadQuote(caller: Caller, quoteId: string): Promise<StoredGaslessQuote> {
    const quote = await this.quotes.load(quoteId);
    if (quote && quote.userId === caller.account.id) return quote;
    // A route quote of GET /quote is a real quote, just not one this endpoint can settle.
    if (!quote && (await this.routeQuotes.load(quoteId))) throw new AppError('VALIDATION_001', 'quote is not a gasless quote');
    throw new AppError('RESOURCE_001', 'quote not found or expired');
  }

  private checkSigner(quote: StoredGaslessQuote, signature: string): void {
    let signer: string;
    try {
      signer = verifyTypedData(quote.eip712.domain, signingTypes(quote.eip712), quote.eip712.message, signature);
    } catch {
      throw new AppError('AUTH_008', 'the signature does not recover to an address');
    }
    if (signer.toLowerCase() !== quote.sender.toLowerCase()) throw new AppError('AUTH_008', `the permit is signed by ${signer}, not by the quote's sender ${quote.sender}`);
  }
}

function swapRow(caller: Caller, quote: StoredGaslessQuote, relayTxId: string): Partial<GaslessSwapEntity> {
  return {
    userId: caller.account.id,
    quoteId: quote.quoteId,
    relayTxId,
    status: 'submitted',
    acquisitionMode: quote.mode,
    chainId: quote.chainId,
    sender: quote.sender,
    receiver: quote.receiver,
    fromToken: quote.fromToken,
    toToken: quote.toToken,
    amountIn: quote.amountIn,
    amountOut: quote.amountOut,
    minAmountOut: quote.minAmountOut,
    feeAmount: quote.feeAmount,
    permitNonce: quote.nonce,
    routeKind: quote.routeKind,
    executionTxHash: null,
    failureReason: null,
  };
}
