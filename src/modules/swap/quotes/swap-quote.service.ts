import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { positiveUint256 } from '../../../common/evm/uint256';
import type { Caller } from '../../../common/http/authenticated-request';
import { AppConfig } from '../../../config/app-config';
import { checksum, NATIVE_TOKEN, TokenCatalog } from '../catalog/token-catalog.service';
import type { TokenInfo } from '../domain/types';
import type { ChainMarket } from '../indexer/chain-market';
import { RouteFinder, type RouteCandidate } from '../routing/route-finder.service';
import { parseRouteMode } from '../routing/route-ranking';
import type { QuoteQueryDto } from '../dto/swap-requests.dto';
import { CrossChainRoutes } from './cross-chain';
import { QuoteStore } from './quote-store.service';
import { type RouteTokenView, type RouteView, usd } from './route-view';
import type { ExecutionPlan, StoredQuote } from './stored-quote';

export const DEFAULT_SLIPPAGE_PERCENT = 0.5;

/** Time to a confirmed swap: one block (about 2 s on flash-blocks chains, 12 s elsewhere). */
const estimatedTimeMs = (flashBlocks: boolean): number => (flashBlocks ? 2_000 : 12_000);

/**
 * GET /quote: validates the request against the catalog, asks the router for candidates, turns
 * each into an interface.md Route with a stored, expiring quote behind it.
 */
@Injectable()
export class SwapQuoteService {
  constructor(
    private readonly catalog: TokenCatalog,
    private readonly router: RouteFinder,
    private readonly store: QuoteStore,
    private readonly config: AppConfig,
    private readonly crossChain: CrossChainRoutes,
  ) {}

  async quote(caller: Caller, q: QuoteQueryDto, options: { icons: boolean }): Promise<StoredQuote[]> {
    const fromChain = this.catalog.chain(q.fromChain);
    this.catalog.chain(q.toChain);
    const fromToken = q.fromToken.toLowerCase();
    const toToken = q.toToken.toLowerCase();
    const amount = positiveUint256(q.amount, 'amount');
    // Two chains: the bridge's routes (extensions.md, "Cross-chain swaps"); none without a bridge.
    if (q.fromChain !== q.toChain) return (await this.crossChain.get()?.quote(caller, q, options)) ?? [];
    if (fromToken === toToken) throw new AppError('VALIDATION_001', 'fromToken and toToken are the same token');

    const [tokenIn, tokenOut] = await Promise.all([this.catalog.find(q.fromChain, fromToken), this.catalog.find(q.toChain, toToken)]);
    const executor = fromChain.contracts?.swapExecutor;
    if (!tokenIn || !tokenOut || !executor) return [];

    const feeBps = BigInt(q.feeBps ?? 0);
    const feeAmount = (amount * feeBps) / 10_000n;
    const slippage = q.slippage ?? DEFAULT_SLIPPAGE_PERCENT;
    // Slippage in hundredths of a basis point keeps fractional percents exact enough (0.01% steps and below).
    const slippageUnits = BigInt(Math.round(slippage * 10_000));
    const { market, candidates } = await this.router.findRoutes({
      chainId: q.fromChain,
      tokenIn: fromToken,
      tokenOut: toToken,
      amountIn: amount - feeAmount,
      routeMode: parseRouteMode(q.routeMode),
    });
    if (candidates.length === 0) return [];

    const now = Math.floor(Date.now() / 1000);
    const expiry = now + this.config.SWAP_QUOTE_TTL_SECONDS;
    const sender = q.sender.toLowerCase();
    const receiver = (q.receiver ?? q.sender).toLowerCase();
    const nativeUsd = candidates[0].nativeUsd;
    const priceOf = (token: TokenInfo): number => {
      const routeToken = token.address === NATIVE_TOKEN ? market.wrappedNative : token.address;
      const inNative = routeToken ? market.nativePrices.get(routeToken) : undefined;
      return inNative !== undefined && nativeUsd !== null ? inNative * nativeUsd : 0;
    };
    const routeToken = (token: TokenInfo): RouteTokenView => ({
      address: checksum(token.address),
      chain: token.chainId,
      decimals: token.decimals,
      name: token.name,
      priceUsd: usd(priceOf(token)),
      symbol: token.symbol,
      ...(options.icons ? { icon: token.logoUrl } : {}),
    });
    const value = (token: TokenInfo, units: bigint): number => usd((Number(units) / 10 ** token.decimals) * priceOf(token));
    const gasToken: RouteTokenView = {
      address: ZeroAddress,
      chain: fromChain.chainId,
      decimals: fromChain.nativeCurrency.decimals,
      name: fromChain.nativeCurrency.name,
      priceUsd: usd(nativeUsd),
      symbol: fromChain.nativeCurrency.symbol,
      ...(options.icons ? { icon: fromChain.iconUrl ?? '' } : {}),
    };

    const quotes = candidates.map((candidate): StoredQuote => {
      const quoteId = this.store.newId();
      const amountOut = candidate.plan.amountOut;
      const minAmountOut = (amountOut * (1_000_000n - slippageUnits)) / 1_000_000n;
      const route: RouteView = {
        amount: amount.toString(),
        amountOut: amountOut.toString(),
        amountOutUsd: value(tokenOut, amountOut),
        amountUsd: value(tokenIn, amount),
        expiry,
        fees: { integratorFee: feeAmount.toString(), integratorFeeUsd: value(tokenIn, feeAmount), routeFee: '0', routeFeeUsd: 0 },
        fromToken: routeToken(tokenIn),
        toToken: routeToken(tokenOut),
        gasFee: {
          gasFee: candidate.gasCostWei.toString(),
          gasFeeUsd: usd(candidate.gasUsd),
          gasLimit: candidate.gasLimit.toString(),
          gasToken,
          gasPrice: candidate.gasPrice.toString(),
        },
        minAmountOut: minAmountOut.toString(),
        minAmountOutUsd: value(tokenOut, minAmountOut),
        // Hop amounts as simulated with the legs in order (a later leg meets the pools the earlier ones moved).
        path: candidate.plan.legs.flatMap((leg) =>
          leg.path.hops.map((hop, h) => ({
            amount: leg.hopAmounts[h].toString(),
            amountOut: leg.hopAmounts[h + 1].toString(),
            fromToken: checksum(hop.tokenIn),
            toToken: checksum(hop.tokenOut),
            provider: { name: hop.pool.provider.key, type: 'dex' },
            type: 'swap' as const,
          })),
        ),
        providers: uniqueProviders(candidate),
        quoteId,
        receiver: checksum(receiver),
        sender: checksum(sender),
        slippage,
        estimatedTimeMs: estimatedTimeMs(fromChain.capabilities.flashBlocks),
        routeKind: 'sameChainSwap',
        ...(q.Integrator !== undefined ? { integratorId: q.Integrator } : {}),
      };
      return {
        quoteId,
        userId: caller.account.id,
        expiry,
        createdAt: now,
        acquisitionMode: q.acquisitionMode ?? null,
        integratorId: q.Integrator ?? null,
        route,
        plan: executionPlan(market, candidate, {
          executor,
          amountIn: amount,
          feeAmount,
          feeRecipient: caller.account.address,
          minAmountOut,
          sender,
          receiver,
        }),
      };
    });
    await this.store.saveAll(quotes);
    return quotes;
  }
}

function uniqueProviders(candidate: RouteCandidate): Array<{ name: string; type: string }> {
  const keys = new Set(candidate.plan.legs.flatMap((leg) => leg.path.hops.map((hop) => hop.pool.provider.key)));
  return [...keys].map((name) => ({ name, type: 'dex' }));
}

/** The executor plan of a router candidate (also the bridge's source- and destination-side swaps). */
export function executionPlan(
  market: ChainMarket,
  candidate: RouteCandidate,
  p: { executor: string; amountIn: bigint; feeAmount: bigint; feeRecipient: string; minAmountOut: bigint; sender: string; receiver: string },
): ExecutionPlan {
  return {
    chainId: market.chainId,
    executor: p.executor.toLowerCase(),
    tokenIn: candidate.plan.tokenIn,
    tokenOut: candidate.plan.tokenOut,
    amountIn: p.amountIn.toString(),
    feeAmount: p.feeAmount.toString(),
    feeRecipient: p.feeRecipient.toLowerCase(),
    amountOut: candidate.plan.amountOut.toString(),
    minAmountOut: p.minAmountOut.toString(),
    sender: p.sender,
    receiver: p.receiver,
    gasLimit: candidate.gasLimit.toString(),
    legs: candidate.plan.legs.map((leg) => ({
      amountIn: leg.amountIn.toString(),
      amountOut: leg.amountOut.toString(),
      hops: leg.path.hops.map((hop) => ({
        pool: hop.pool.address,
        tokenIn: hop.tokenIn,
        tokenOut: hop.tokenOut,
        zeroForOne: hop.tokenIn === hop.pool.token0,
        feeBps: hop.pool.kind === 'v2' ? hop.pool.provider.feeBps : 0,
        kind: hop.pool.kind,
        provider: hop.pool.provider.key,
      })),
    })),
  };
}
