import { Type } from 'class-transformer';
import {
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import { RpcEndpointDef } from './rpc-endpoints';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export class NativeCurrencyDef {
  @IsString() @MinLength(1) name: string;
  @IsString() @MinLength(1) symbol: string;
  @IsInt() @Min(0) @Max(36) decimals: number;
}

export class BlockExplorerDef {
  @IsString() name: string;
  @IsString() url: string;
  @IsString() apiUrl: string;
}

export class CapabilitiesDef {
  @IsBoolean() eip7702: boolean;
  @IsBoolean() flashBlocks: boolean;
  @IsBoolean() exchangeAction: boolean;
}

export class TokenDef {
  @Matches(ADDRESS) address: string;
  @IsString() @MinLength(1) symbol: string;
  @IsString() @MinLength(1) name: string;
  @IsInt() @Min(0) @Max(36) decimals: number;
  @IsOptional() @IsString() logoUrl?: string;
  /** A USD stablecoin of the chain (USDC, DAI): counted 1:1 in USD where the service takes deposits. */
  @IsOptional() @IsBoolean() usdStable?: boolean;
}

/** Native price from a Uniswap-V2-style pool of the wrapped native token against a USD stablecoin. */
export class NativeUsdPoolDef {
  @Matches(ADDRESS) pair: string;
  @Matches(ADDRESS) wrappedNative: string;
  @Matches(ADDRESS) stable: string;
  @IsInt() @Min(0) @Max(36) stableDecimals: number;
}

/** A DEX deployment the swap router may use (decisions.md: each deployment is a provider). */
export class DexDef {
  /** Stable id, e.g. uniswap-v2; shown as provider name in routes. */
  @IsString() @Matches(/^[a-z0-9-]+$/) key: string;
  @IsString() @MinLength(1) name: string;
  /** Pool math the router applies: constant-product V2 pairs, or Uniswap V3 concentrated-liquidity pools (every fee tier). */
  @IsIn(['uniswap-v2', 'uniswap-v3']) type: 'uniswap-v2' | 'uniswap-v3';
  @Matches(ADDRESS) factory: string;
  /** LP fee in basis points (30 for Uniswap V2); V3 pools carry their own fee tier, so 0 there. */
  @IsInt() @Min(0) @Max(1000) feeBps: number;
  /**
   * Discover this DEX's pools from its factory's creation events (PairCreated, PoolCreated) from
   * this block on, kept in PostgreSQL; without it, pools are looked up for the catalog's token pairs.
   */
  @IsOptional() @IsInt() @Min(0) fromBlock?: number;
}

/** A Chainlink AggregatorV3Interface feed of the native currency in USD. */
export class ChainlinkDef {
  @Matches(ADDRESS) nativeUsd: string;
  /** A round updated longer ago than this is stale: the next source answers. */
  @IsInt() @Min(1) @Max(30 * 86_400) maxAgeSeconds: number;
}

export class PricingDef {
  /** The primary source; the pool and the static price are fallbacks (docs/decisions.md, "Market data"). */
  @IsOptional() @ValidateNested() @Type(() => ChainlinkDef) chainlink?: ChainlinkDef;
  @IsOptional() @ValidateNested() @Type(() => NativeUsdPoolDef) nativeUsdPool?: NativeUsdPoolDef;
  /** Used when no live source answers; omit to have no fallback. */
  @IsOptional() @IsNumber() @IsPositive() staticNativeUsd?: number;
}

/** An ERC-4626 vault the vault feature may allocate deposits to. */
export class VenueDef {
  @IsString() @Matches(/^[a-z0-9][a-z0-9-]{0,63}$/) venueId: string;
  @Matches(ADDRESS) vault: string;
  @Matches(ADDRESS) asset: string;
  /** 0 (safest) to 1; the risk tiers' ceilings are 0.3, 0.6 and 1.0. */
  @IsNumber() @Min(0) @Max(1) riskScore: number;
  /** Annual fee on assets, subtracted from the measured gross APY. */
  @IsInt() @Min(0) @Max(10_000) feeBps: number;
}

/** One chain of the CHAINS_FILE. */
export class ChainDefinition {
  @IsInt() @IsPositive() chainId: number;
  @IsString() @MinLength(1) name: string;
  /**
   * Absent for exchange-action chains, which have no EVM RPC. After loading: the first provider's
   * URL (placeholders filled), kept so "has an EVM RPC" reads as before; calls go through
   * `providers` (ChainRegistry's provider pool), never through this field alone.
   */
  @IsOptional() @IsString() @Matches(/^(https?|wss?):\/\/.+/) rpcUrl?: string;
  /** Several providers: URL strings or {url, weight, maxRps, getLogsMaxRange, maxBatch}; checked by loadChainsFile. */
  @IsOptional() @IsArray() rpcUrls?: unknown[];
  /** Every provider of the chain, normalized from rpcUrl / rpcUrls at load (not a file field). */
  providers?: RpcEndpointDef[];
  /** Exchange endpoint of an exchange-action chain. */
  @IsOptional() @IsString() @Matches(/^https?:\/\/.+/) exchangeApiUrl?: string;
  @IsBoolean() enabled: boolean;
  @IsBoolean() isTestnet: boolean;
  @IsOptional() @IsString() iconUrl?: string;
  @ValidateNested() @Type(() => NativeCurrencyDef) nativeCurrency: NativeCurrencyDef;
  @ValidateNested() @Type(() => BlockExplorerDef) blockExplorer: BlockExplorerDef;
  @ValidateNested() @Type(() => CapabilitiesDef) capabilities: CapabilitiesDef;
  @IsOptional() @IsObject() contracts?: Record<string, string>;
  @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TokenDef) tokens?: TokenDef[];
  /** A token list (Uniswap token-lists schema) by path or https:// URL; its tokens of this chain join `tokens` at startup. */
  @IsOptional() @IsString() @Matches(/^(https:\/\/.+|[^:]+)$/, { message: 'tokenList must be a file path or an https:// URL' }) tokenList?: string;
  @IsOptional() @ValidateNested() @Type(() => PricingDef) pricing?: PricingDef;
  @IsOptional() @IsArray() @ArrayUnique((v: VenueDef) => v.venueId) @ValidateNested({ each: true }) @Type(() => VenueDef) venues?: VenueDef[];
  /** Relayer key balance floor on this chain (wei, integer string); overrides RELAYER_MIN_BALANCE_WEI. */
  @IsOptional() @IsString() @Matches(/^\d{1,78}$/) relayerMinBalanceWei?: string;
  /** What a treasury top-up brings a key to on this chain (wei); overrides RELAYER_TARGET_BALANCE_WEI. */
  @IsOptional() @IsString() @Matches(/^\d{1,78}$/) relayerTargetBalanceWei?: string;
  /**
   * Blocks after which a consumed nonce is taken as final (docs/decisions.md, "At most once"):
   * a relayed transaction is signed under a new nonce only when its old one was consumed this
   * deep by another transaction. Default 3; 0 on instant-mining local chains.
   */
  @IsOptional() @IsInt() @Min(0) @Max(1000) confirmations?: number;
  @IsOptional() @IsArray() @ArrayUnique((d: DexDef) => d.key) @ValidateNested({ each: true }) @Type(() => DexDef) dexes?: DexDef[];
  /** Most blocks per eth_getLogs call this chain's RPC accepts (default 2000); a refused range is retried smaller. */
  @IsOptional() @IsInt() @Min(1) @Max(1_000_000) getLogsMaxRange?: number;
}

export class ChainsFile {
  @IsArray() @ArrayUnique((c: ChainDefinition) => c.chainId) @ValidateNested({ each: true }) @Type(() => ChainDefinition)
  chains: ChainDefinition[];
}
