import { Injectable } from '@nestjs/common';
import { ZeroAddress } from 'ethers';
import { positiveUint256 } from '../../../common/evm/uint256';
import type { Caller } from '../../../common/http/authenticated-request';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { PricingService } from '../../pricing';
import { confirmationsOf } from '../../relay';
import {
  checksum,
  DEFAULT_SLIPPAGE_PERCENT,
  executionPlan,
  NATIVE_TOKEN,
  parseRouteMode,
  QuoteStore,
  RouteFinder,
  SwapTxBuilder,
  TokenCatalog,
  usd,
  type ExecutionPlan,
  type QuoteQueryDto,
  type RouteCandidate,
  type RouteTokenView,
  type RouteView,
  type StoredQuote,
  type TokenInfo,
  type TxView,
} from '../../swap';
import { BridgeAsset, bridgeAssets, bridgeFee, estimatedBridgeTimeMs, FILL_GAS, toDestUnits } from './bridge-assets';
import { BridgeInventory } from './bridge-inventory.service';
import type { BridgePlan } from './bridge-plan';
import { SPOKE_ABI } from './spoke';

/** Gas of a plain deposit into a spoke; a source-side swap adds its route's gas. */
const DEPOSIT_GAS = 200_000n;
export const BRIDGE_PROVIDER = { key: 'relay-bridge', name: 'Relay bridge' } as const;

/**
 * Cross-chain quotes (extensions.md, "Cross-chain swaps"): an optional source-side swap into a
 * bridged stablecoin, the bridge (a deposit into the source spoke, filled on the destination
 * from the spoke's inventory), and an optional destination-side swap, each swap priced with the
 * router of its chain. The fee covers the fill's destination gas and the filler's capital cost.
 */
@Injectable()
export class BridgeQuotes {
  constructor(
    private readonly catalog: TokenCatalog,
    private readonly router: RouteFinder,
    private readonly store: QuoteStore,
    private readonly builder: SwapTxBuilder,
    private readonly registry: ChainRegistry,
    private readonly pricing: PricingService,
    private readonly inventory: BridgeInventory,
    private readonly config: AppConfig,
  ) {}

  async quote(caller: Caller, q: QuoteQueryDto, options: { icons: boolean }): Promise<StoredQuote[]> {
    const src = this.catalog.chain(q.fromChain);
    const dest = this.catalog.chain(q.toChain);
    const amount = positiveUint256(q.amount, 'amount');
    const srcSpoke = src.contracts?.bridgeSpoke?.toLowerCase();
    if (!srcSpoke || !dest.contracts?.bridgeSpoke) return [];
    const fromToken = q.fromToken.toLowerCase();
    const toToken = q.toToken.toLowerCase();
    const [tokenIn, tokenOut] = await Promise.all([this.catalog.find(src.chainId, fromToken), this.catalog.find(dest.chainId, toToken)]);
    if (!tokenIn || !tokenOut) return [];
    const assets = bridgeAssets(src, dest);
    const asset = assets.find((a) => a.src === fromToken) ?? assets.find((a) => a.dest === toToken) ?? assets[0];
    if (!asset) return [];
    const slippage = q.slippage ?? DEFAULT_SLIPPAGE_PERCENT;
    const slippageUnits = BigInt(Math.round(slippage * 10_000));
    const lessSlippage = (x: bigint): bigint => (x * (1_000_000n - slippageUnits)) / 1_000_000n;
    const routeMode = parseRouteMode(q.routeMode);

    // Source side: the input swapped into the bridged asset, paid to the spoke.
    let srcCandidate: RouteCandidate | null = null;
    let srcPlan: ExecutionPlan | null = null;
    let bridged = amount;
    let minBridged = amount;
    const expiry = Math.floor(Date.now() / 1000) + this.config.SWAP_QUOTE_TTL_SECONDS;
    const sender = q.sender.toLowerCase();
    const recipient = (q.receiver ?? q.sender).toLowerCase();
    if (fromToken !== asset.src) {
      const { market, candidates } = await this.router.findRoutes({ chainId: src.chainId, tokenIn: fromToken, tokenOut: asset.src, amountIn: amount, routeMode, limit: 1 });
      if (candidates.length === 0) return [];
      srcCandidate = candidates[0];
      bridged = srcCandidate.plan.amountOut;
      minBridged = lessSlippage(bridged);
      srcPlan = executionPlan(market, srcCandidate, {
        executor: src.contracts?.swapExecutor ?? ZeroAddress,
        amountIn: amount,
        feeAmount: 0n,
        feeRecipient: caller.account.address,
        minAmountOut: minBridged,
        sender,
        receiver: srcSpoke,
      });
    }

    // The bridge: destination gas and capital cost, out of the bridged amount.
    const bridgedDest = toDestUnits(bridged, asset);
    let destCandidate: RouteCandidate | null = null;
    let destGas = FILL_GAS;
    const feeFor = (gas: bigint): Promise<bigint> => this.fee(dest, bridgedDest, asset, gas);
    let fee = await feeFor(destGas);
    let outBridge = bridgedDest - fee;
    if (outBridge <= 0n) return [];

    // Destination side: the bridged asset swapped into the user's token at the fill.
    let amountOut = outBridge;
    let minAmountOut = toDestUnits(minBridged, asset) - fee;
    if (toToken !== asset.dest) {
      const { candidates } = await this.router.findRoutes({ chainId: dest.chainId, tokenIn: asset.dest, tokenOut: toToken, amountIn: outBridge, routeMode, limit: 1 });
      if (candidates.length === 0) return [];
      destCandidate = candidates[0];
      const routedIn = outBridge;
      // The fill swaps too: its fee covers the route's gas, and what is swapped shrinks by that.
      destGas = FILL_GAS + destCandidate.gasLimit;
      fee = await feeFor(destGas);
      outBridge = bridgedDest - fee;
      if (outBridge <= 0n) return [];
      amountOut = (destCandidate.plan.amountOut * outBridge) / routedIn;
      minAmountOut = lessSlippage((amountOut * (toDestUnits(minBridged, asset) - fee)) / outBridge);
    }
    if (minAmountOut <= 0n) return [];
    // Nothing the filler could not pay today is offered.
    if ((await this.inventory.liquidity(dest.chainId, asset.dest).catch(() => 0n)) < outBridge) return [];

    const srcFees = srcCandidate ? { gasPrice: srcCandidate.gasPrice, nativeUsd: srcCandidate.nativeUsd } : await this.gasPrice(src);
    const gasLimit = DEPOSIT_GAS + (srcCandidate?.gasLimit ?? 0n);
    const gasWei = gasLimit * srcFees.gasPrice;
    // The fee as a share of the input, in input-token units.
    const feeInput = (fee * amount) / bridgedDest;
    const quoteId = this.store.newId();
    const now = Math.floor(Date.now() / 1000);
    // The spokes compare the deadline with their chains' block time: counted from the later of the clocks.
    const heads = await Promise.all([src.chainId, dest.chainId].map((id) => this.registry.provider(id).getBlock('latest').catch(() => null)));
    const fillDeadline = Math.max(now, ...heads.map((b) => b?.timestamp ?? 0)) + this.config.BRIDGE_FILL_DEADLINE_SECONDS;
    const view = (token: TokenInfo): RouteTokenView => ({
      address: checksum(token.address),
      chain: token.chainId,
      decimals: token.decimals,
      name: token.name,
      priceUsd: 0,
      symbol: token.symbol,
      ...(options.icons ? { icon: token.logoUrl } : {}),
    });
    const swapSteps = (candidate: RouteCandidate | null): RouteView['path'] =>
      candidate
        ? candidate.plan.legs.flatMap((leg) =>
            leg.path.hops.map((hop, h) => ({
              amount: leg.hopAmounts[h].toString(),
              amountOut: leg.hopAmounts[h + 1].toString(),
              fromToken: checksum(hop.tokenIn),
              toToken: checksum(hop.tokenOut),
              provider: { name: hop.pool.provider.key, type: 'dex' },
              type: 'swap' as const,
            })),
          )
        : [];
    const confirmations = confirmationsOf(src);
    const route: RouteView = {
      amount: amount.toString(),
      amountOut: amountOut.toString(),
      amountOutUsd: 0,
      amountUsd: 0,
      expiry,
      fees: { integratorFee: '0', integratorFeeUsd: 0, routeFee: feeInput.toString(), routeFeeUsd: usd(Number(fee) / 10 ** asset.destDecimals) },
      fromToken: view(tokenIn),
      toToken: view(tokenOut),
      gasFee: {
        gasFee: gasWei.toString(),
        gasFeeUsd: usd(srcFees.nativeUsd === null ? 0 : (Number(gasWei) / 1e18) * srcFees.nativeUsd),
        gasLimit: gasLimit.toString(),
        gasToken: { address: ZeroAddress, chain: src.chainId, decimals: src.nativeCurrency.decimals, name: src.nativeCurrency.name, priceUsd: usd(srcFees.nativeUsd), symbol: src.nativeCurrency.symbol, ...(options.icons ? { icon: src.iconUrl ?? '' } : {}) },
        gasPrice: srcFees.gasPrice.toString(),
      },
      minAmountOut: minAmountOut.toString(),
      minAmountOutUsd: 0,
      path: [
        ...swapSteps(srcCandidate),
        { amount: bridged.toString(), amountOut: outBridge.toString(), fromToken: checksum(asset.src), toToken: checksum(asset.dest), provider: { name: BRIDGE_PROVIDER.name, type: 'bridge' }, type: 'bridge' as const },
        ...swapSteps(destCandidate),
      ],
      providers: [{ name: BRIDGE_PROVIDER.name, type: 'bridge' }],
      quoteId,
      receiver: checksum(recipient),
      sender: checksum(sender),
      slippage,
      estimatedTimeMs: estimatedBridgeTimeMs(src, dest, confirmations, this.config.BRIDGE_WATCH_INTERVAL_MS),
      routeKind: srcCandidate || destCandidate ? 'crossChainSwap' : 'bridge',
      ...(q.Integrator !== undefined ? { integratorId: q.Integrator } : {}),
    };
    const bridgePlan: BridgePlan = {
      srcChainId: src.chainId,
      destChainId: dest.chainId,
      srcSpoke,
      fromToken,
      amountIn: amount.toString(),
      bridgeToken: asset.src,
      minBridged: minBridged.toString(),
      toToken,
      minAmountOut: minAmountOut.toString(),
      recipient,
      fillDeadline,
      sourceSwap: srcPlan !== null,
      gasLimit: gasLimit.toString(),
    };
    const stored: StoredQuote = {
      quoteId,
      userId: caller.account.id,
      expiry,
      createdAt: now,
      acquisitionMode: q.acquisitionMode ?? null,
      integratorId: q.Integrator ?? null,
      route,
      plan: srcPlan ?? emptyPlan(src.chainId, srcSpoke, fromToken, amount, sender),
      crossChain: bridgePlan as unknown as Record<string, unknown>,
    };
    await this.store.saveAll([stored]);
    return [stored];
  }

  /** The source-chain `Tx`: a deposit into the spoke, through a source-side swap when quoted. */
  transaction(quote: StoredQuote, simulation: boolean): TxView {
    const p = quote.crossChain as unknown as BridgePlan;
    const params = {
      inputToken: p.bridgeToken,
      inputAmount: BigInt(p.minBridged),
      destinationChainId: p.destChainId,
      outputToken: p.toToken,
      outputAmount: BigInt(p.minAmountOut),
      recipient: p.recipient,
      fillDeadline: p.fillDeadline,
      ref: quote.quoteId,
    };
    const nativeIn = p.fromToken === NATIVE_TOKEN;
    let data: string;
    let value = 0n;
    if (p.sourceSwap) {
      const call = this.builder.executorCall(quote);
      data = SPOKE_ABI.encodeFunctionData('swapAndDeposit', [params, p.fromToken, BigInt(p.amountIn), call.data]);
      value = call.value;
    } else {
      if (nativeIn) throw new AppError('VALIDATION_001', 'the bridge carries tokens, not the native currency');
      data = SPOKE_ABI.encodeFunctionData('deposit', [{ ...params, inputAmount: BigInt(p.amountIn) }]);
    }
    return {
      allowanceTarget: nativeIn ? ZeroAddress : checksum(p.srcSpoke),
      chain: p.srcChainId,
      data,
      expiry: quote.expiry,
      gasLimit: ((BigInt(p.gasLimit) * 13n) / 10n).toString(),
      simulation,
      to: checksum(p.srcSpoke),
      value: value.toString(),
    };
  }

  /** The fee in destination units of the bridged stablecoin for a fill of `gas`. */
  async fee(dest: ChainDefinition, amountDest: bigint, asset: BridgeAsset, gas: bigint): Promise<bigint> {
    const { gasPrice, nativeUsd } = await this.gasPrice(dest);
    return bridgeFee({ amountDest, destDecimals: asset.destDecimals, gasWei: gas * gasPrice, nativeUsd: nativeUsd ?? 0, capitalBps: this.config.BRIDGE_CAPITAL_FEE_BPS });
  }

  private async gasPrice(chain: ChainDefinition): Promise<{ gasPrice: bigint; nativeUsd: number | null }> {
    const [feeData, price] = await Promise.all([this.registry.provider(chain.chainId).getFeeData(), this.pricing.nativeUsd(chain.chainId).catch(() => null)]);
    return { gasPrice: feeData.maxFeePerGas ?? feeData.gasPrice ?? 0n, nativeUsd: price?.usd ?? null };
  }
}

/** A deposit without a source-side swap has no executor plan; this stands in for it. */
function emptyPlan(chainId: number, spoke: string, token: string, amount: bigint, sender: string): ExecutionPlan {
  return { chainId, executor: spoke, tokenIn: token, tokenOut: token, amountIn: amount.toString(), feeAmount: '0', feeRecipient: sender, amountOut: amount.toString(), minAmountOut: amount.toString(), sender, receiver: spoke, gasLimit: DEPOSIT_GAS.toString(), legs: [] };
}
