import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { checksumAddress } from '../../../common/evm/address';
import { positiveUint256 } from '../../../common/evm/uint256';
import type { Caller } from '../../../common/http/authenticated-request';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { NATIVE_TOKEN, parseRouteMode, RouteFinder, SwapQuoteService, SwapTxBuilder, TokenCatalog, type StoredQuote } from '../../swap';
import { usd } from '../../swap';
import type { GaslessQuoteQueryDto } from '../dto/gasless.dto';
import { GaslessFee, gaslessFee, SETTLER_OVERHEAD_GAS } from './gasless-fee';
import type { GaslessQuoteView, StoredGaslessQuote } from './gasless-quote';
import { GaslessQuoteStore } from './gasless-quote.store';
import { PermitNonceService } from './permit-nonce.service';
import { type GaslessMode, permitTypedData } from './permit-typed-data';
import { encodeSettlement, settlementNonceWord, SIGNATURE_PLACEHOLDER, type Settlement } from './settlement-call';
import { SettlerInfo } from './settler-info.service';

/** Gasless quotes offered at most per request: each costs a nonce bitmap read on chain. */
const MAX_QUOTES = 3;

/**
 * GET /gasless/quote: prices the settlement, takes the fee off the input, asks the router for
 * routes of what is left, and for each route prepares the Permit2 typed data the user signs
 * and the settlement call the relay will send.
 */
@Injectable()
export class GaslessQuoteService {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly catalog: TokenCatalog,
    private readonly router: RouteFinder,
    private readonly swapQuotes: SwapQuoteService,
    private readonly builder: SwapTxBuilder,
    private readonly store: GaslessQuoteStore,
    private readonly nonces: PermitNonceService,
    private readonly settlers: SettlerInfo,
    private readonly config: AppConfig,
  ) {}

  async quote(caller: Caller, q: GaslessQuoteQueryDto): Promise<GaslessQuoteView[]> {
    if (q.acquisitionMode !== 2 && q.acquisitionMode !== 3) {
      throw new AppError('VALIDATION_001', 'acquisitionMode must be 2 (permit transfer) or 3 (permit transfer with witness)');
    }
    const mode: GaslessMode = q.acquisitionMode;
    const chain = this.catalog.chain(q.fromChain);
    this.catalog.chain(q.toChain);
    if (q.fromChain !== q.toChain) throw new AppError('VALIDATION_001', 'gasless swaps are same-chain only: fromChain must equal toChain');
    const fromToken = q.fromToken.toLowerCase();
    const toToken = q.toToken.toLowerCase();
    if (fromToken === NATIVE_TOKEN) throw new AppError('VALIDATION_001', 'the input must be an ERC-20 token: Permit2 cannot move the native currency');
    if (fromToken === toToken) throw new AppError('VALIDATION_001', 'fromToken and toToken are the same token');
    const amount = positiveUint256(q.amount, 'amount');
    const settler = await this.settlers.get(chain.chainId);
    const tokenIn = await this.catalog.find(chain.chainId, fromToken);
    if (!tokenIn || !(await this.catalog.find(chain.chainId, toToken))) throw new AppError('VALIDATION_001', 'no route: a token is not in the catalog of this chain');

    // 1. What the settlement will cost, priced in the input token, from routes for the full amount.
    const { market, candidates } = await this.router.findRoutes({ chainId: chain.chainId, tokenIn: fromToken, tokenOut: toToken, amountIn: amount });
    if (candidates.length === 0) throw new AppError('VALIDATION_001', 'no route for this pair and amount');
    const routeGas = candidates.reduce((max, c) => (c.gasLimit > max ? c.gasLimit : max), 0n);
    const fee = gaslessFee({
      settlementGas: routeGas + SETTLER_OVERHEAD_GAS,
      gasPrice: market.gasPrice,
      marginBps: this.config.GASLESS_FEE_MARGIN_BPS,
      tokenPriceInNative: market.nativePrices.get(fromToken) ?? Number.NaN,
      tokenDecimals: tokenIn.decimals,
      amount,
      feeBps: q.feeBps ?? 0,
    });
    if (!fee) throw new AppError('VALIDATION_001', 'no route: the input token has no price to charge the gasless fee in');
    if (fee.total >= amount) throw new AppError('VALIDATION_001', `amount does not cover the gasless fee of ${fee.total} base units`);

    // 2. Routes for what is swapped; the integrator part is inside the gasless fee, so none here.
    const routes = await this.swapQuotes.quote(
      caller,
      {
        fromChain: chain.chainId,
        toChain: chain.chainId,
        fromToken,
        toToken,
        amount: (amount - fee.total).toString(),
        sender: q.sender,
        receiver: q.receiver,
        slippage: q.slippage,
        feeBps: 0,
        routeMode: parseRouteMode(q.rankingMode),
        acquisitionMode: mode,
      },
      { icons: false },
    );
    if (routes.length === 0) throw new AppError('VALIDATION_001', 'no route for this pair and amount');

    const deadline = Math.floor(Date.now() / 1000) + 60 * (q.deadlineMinutes ?? this.config.GASLESS_DEADLINE_MINUTES);
    const provider = this.chains.provider(chain.chainId);
    const sender = checksumAddress(q.sender);
    const receiver = checksumAddress(q.receiver ?? q.sender);
    const ttlMs = (deadline - Math.floor(Date.now() / 1000)) * 1000;
    const stored = await Promise.all(
      routes.slice(0, MAX_QUOTES).map(async (route): Promise<StoredGaslessQuote> => {
        const minAmountOut = route.route.minAmountOut;
        const planned: Omit<StoredGaslessQuote, 'nonce' | 'eip712'> = {
          quoteId: this.store.newId(),
          userId: caller.account.id,
          mode,
          chainId: chain.chainId,
          settler: settler.address,
          sender,
          receiver,
          fromToken: checksumAddress(fromToken),
          toToken: checksumAddress(toToken),
          amountIn: amount.toString(),
          feeAmount: fee.total.toString(),
          amountOut: route.route.amountOut,
          minAmountOut,
          deadline,
          // The route was quoted for the swapped part with the user as receiver: the executor pulls
          // exactly that from the settler and pays the user; only the deadline is the permit's.
          executorData: this.builder.executorCall(route, { deadline }).data,
          routeKind: route.route.routeKind,
        };
        // The nonce's word commits the permit to this exact settlement, route included: the
        // settler runs no other settlement with the user's signature, whoever sends it.
        const word = settlementNonceWord(settler.address, settler.executor, settlementOf({ ...planned, nonce: '0' }));
        const nonce = (await this.nonces.allocate(provider, chain.chainId, settler.permit2, sender, word, ttlMs)).toString();
        const eip712 = permitTypedData({
          chainId: chain.chainId,
          permit2: settler.permit2,
          spender: settler.address,
          token: planned.fromToken,
          amount: planned.amountIn,
          nonce,
          deadline: deadline.toString(),
          witness: mode === 3 ? { tokenOut: planned.toToken, minAmountOut, receiver, feeAmount: planned.feeAmount } : undefined,
        });
        return { ...planned, nonce, eip712 };
      }),
    );
    await this.store.saveAll(stored);
    return stored.map((s, i) => this.view(s, routes[i], fee, settler.feeRecipient, tokenIn.decimals));
  }


  private view(s: StoredGaslessQuote, route: StoredQuote, fee: GaslessFee, feeRecipient: string, decimals: number): GaslessQuoteView {
    const priceUsd = route.route.fromToken.priceUsd;
    const inUsd = (units: bigint): number => usd((Number(units) / 10 ** decimals) * priceUsd);
    return {
      quoteId: s.quoteId,
      // The route as the user experiences it: the whole signed amount in, the fees broken out.
      quote: {
        ...route.route,
        quoteId: s.quoteId,
        amount: s.amountIn,
        amountUsd: inUsd(BigInt(s.amountIn)),
        expiry: s.deadline,
        fees: { integratorFee: fee.integratorFee.toString(), integratorFeeUsd: inUsd(fee.integratorFee), routeFee: fee.relayFee.toString(), routeFeeUsd: inUsd(fee.relayFee) },
      },
      eip712: s.eip712,
      fee: { feeAmount: s.feeAmount, feeRecipient, feeUsd: inUsd(fee.total) },
      nonce: s.nonce,
      deadline: String(s.deadline),
      calldataTemplate: {
        to: s.settler,
        value: '0',
        innerData: encodeSettlement(s.mode, settlementOf(s), SIGNATURE_PLACEHOLDER),
        meta: `GaslessSettler.${s.mode === 2 ? 'settle' : 'settleWithWitness'}(Settlement,bytes): the trailing 65-byte zero signature is replaced by the user's signature of eip712; any sender may submit it, and only this exact settlement runs (the permit nonce commits to it)`,
      },
    };
  }
}

/** The on-chain Settlement struct of a stored quote. */
export function settlementOf(s: Omit<StoredGaslessQuote, 'eip712'>): Settlement {
  return {
    owner: s.sender,
    tokenIn: s.fromToken,
    amountIn: BigInt(s.amountIn),
    nonce: BigInt(s.nonce),
    deadline: BigInt(s.deadline),
    tokenOut: s.toToken === ZeroAddress ? ZeroAddress : s.toToken,
    minAmountOut: BigInt(s.minAmountOut),
    receiver: s.receiver,
    feeAmount: BigInt(s.feeAmount),
    executorData: s.executorData,
  };
}
