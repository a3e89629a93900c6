import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Response shapes of the swap endpoints (interface.md "Route", "Tx", "Token", "Swap tracking record"), for the OpenAPI document. */
const WETH = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const USER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

export class ProviderDto {
  @ApiProperty({ example: 'Uniswap V2' }) name: string;
  @ApiProperty({ example: 'dex' }) type: string;
}

export class RouteTokenDto {
  @ApiProperty({ example: WETH }) address: string;
  @ApiProperty({ example: 31337 }) chain: number;
  @ApiProperty({ example: 18 }) decimals: number;
  @ApiProperty({ example: 'Wrapped Ether' }) name: string;
  @ApiProperty({ example: 3000 }) priceUsd: number;
  @ApiProperty({ example: 'WETH' }) symbol: string;
  @ApiPropertyOptional({ description: 'in GET /quote responses', example: '' }) icon?: string;
}

export class RouteStepDto {
  @ApiProperty({ example: '1000000000000000000' }) amount: string;
  @ApiProperty({ example: '2991034215' }) amountOut: string;
  @ApiProperty({ example: WETH }) fromToken: string;
  @ApiProperty({ example: USDC }) toToken: string;
  @ApiProperty({ type: ProviderDto }) provider: ProviderDto;
  @ApiProperty({ enum: ['swap', 'bridge'] }) type: 'swap' | 'bridge';
}

export class RouteFeesDto {
  @ApiProperty({ example: '0' }) integratorFee: string;
  @ApiProperty({ example: 0 }) integratorFeeUsd: number;
  @ApiProperty({ example: '3000000000000000' }) routeFee: string;
  @ApiProperty({ example: 9 }) routeFeeUsd: number;
}

export class GasFeeDto {
  @ApiProperty({ example: '220000000000000' }) gasFee: string;
  @ApiProperty({ example: 0.66 }) gasFeeUsd: number;
  @ApiProperty({ example: '220000' }) gasLimit: string;
  @ApiProperty({ type: RouteTokenDto }) gasToken: RouteTokenDto;
  @ApiProperty({ example: '1000000000' }) gasPrice: string;
}

export class RouteDto {
  @ApiProperty({ example: '1000000000000000000' }) amount: string;
  @ApiProperty({ example: '2991034215' }) amountOut: string;
  @ApiProperty({ example: 2991.03 }) amountOutUsd: number;
  @ApiProperty({ example: 3000 }) amountUsd: number;
  @ApiProperty({ description: 'Unix seconds; the quote is usable until then', example: 1795000000 }) expiry: number;
  @ApiProperty({ type: RouteFeesDto }) fees: RouteFeesDto;
  @ApiProperty({ type: RouteTokenDto }) fromToken: RouteTokenDto;
  @ApiProperty({ type: RouteTokenDto }) toToken: RouteTokenDto;
  @ApiProperty({ type: GasFeeDto }) gasFee: GasFeeDto;
  @ApiProperty({ example: '2976078044' }) minAmountOut: string;
  @ApiProperty({ example: 2976.07 }) minAmountOutUsd: number;
  @ApiProperty({ type: [RouteStepDto] }) path: RouteStepDto[];
  @ApiProperty({ type: [ProviderDto] }) providers: ProviderDto[];
  @ApiProperty({ description: 'for POST /build-path-by-id', example: 'q_3f9c1e7a2b' }) quoteId: string;
  @ApiProperty({ example: USER }) receiver: string;
  @ApiProperty({ example: USER }) sender: string;
  @ApiProperty({ description: 'percent', example: 0.5 }) slippage: number;
  @ApiProperty({ example: 2000 }) estimatedTimeMs: number;
  @ApiProperty({ enum: ['sameChainSwap', 'crossChainSwap', 'bridge'] }) routeKind: 'sameChainSwap' | 'crossChainSwap' | 'bridge';
  @ApiPropertyOptional({ description: 'the Integrator query parameter, when given', example: 'my-dapp' }) integratorId?: string;
}

/** Executable transaction (interface.md `Tx`): approve `allowanceTarget` for the input token, then send it from `sender`. */
export class SwapTxDto {
  @ApiProperty({ example: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0' }) allowanceTarget: string;
  @ApiProperty({ example: 31337 }) chain: number;
  @ApiProperty({ example: '0x' }) data: string;
  @ApiProperty({ description: 'Unix seconds', example: 1795000000 }) expiry: number;
  @ApiProperty({ example: '220000' }) gasLimit: string;
  @ApiProperty({ example: false }) simulation: boolean;
  @ApiProperty({ example: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0' }) to: string;
  @ApiProperty({ example: '0' }) value: string;
}

export class BestPathDto {
  @ApiProperty({ type: SwapTxDto }) Tx: SwapTxDto;
  @ApiProperty({ type: RouteDto }) route: RouteDto;
}

export class TokenDto {
  @ApiProperty({ example: USDC }) address: string;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ example: 6 }) decimals: number;
  @ApiProperty({ example: '' }) logoUrl: string;
  @ApiProperty({ example: 'USD Coin' }) name: string;
  @ApiProperty({ example: 'USDC' }) symbol: string;
}

export class SwapProviderKeyDto {
  @ApiProperty({ example: 'uniswap-v2' }) key: string;
  @ApiProperty({ example: 'Uniswap V2' }) name: string;
}

export class SwapTxDetailsDto {
  @ApiProperty({ type: String, nullable: true, example: '0x2c1f0e3d4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0' }) txHash: string | null;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ type: String, nullable: true, example: null }) chainLogo: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) timestamp: string | null;
}

export class SwapStatusDto {
  @ApiProperty({ enum: ['pending', 'src_confirmed', 'completed', 'failed'] }) status: string;
  @ApiProperty({ example: 'swap' }) kind: string;
  @ApiProperty({ type: SwapProviderKeyDto }) provider: SwapProviderKeyDto;
  @ApiProperty({ type: SwapTxDetailsDto }) srcTxDetails: SwapTxDetailsDto;
  @ApiProperty({ type: SwapTxDetailsDto }) destTxDetails: SwapTxDetailsDto;
  @ApiProperty({ example: 'sameChainSwap' }) routeKind: string;
  @ApiProperty({ description: 'Unix milliseconds', example: 1795000000000 }) updatedAtMs: number;
  @ApiProperty({ type: String, nullable: true, example: USER }) userAddress: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'the SwapExecutor event of the source transaction, when found' })
  details?: Record<string, string>;
}
