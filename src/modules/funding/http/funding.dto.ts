import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export const DEPOSITS_DEFAULT_LIMIT = 50;
export const DEPOSITS_MAX_LIMIT = 200;
const bad = (code: string) => ({ context: { code } });

export class FundingTokenDto {
  @ApiProperty({ description: 'token address; the zero address for the native currency', example: '0x0000000000000000000000000000000000000000' }) address: string;
  @ApiProperty({ example: 'USDC' }) symbol: string;
  @ApiProperty({ example: 6 }) decimals: number;
}

export class FundingChainDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ type: [FundingTokenDto], description: "the chain's USD stablecoins (credited 1:1) and its native currency (credited at the feed's price of the crediting block)" })
  tokens: FundingTokenDto[];
  @ApiProperty({ description: 'blocks a deposit must be deep before it is credited', example: 3 }) confirmations: number;
}

/** GET /api/funding (extensions.md, "Self-serve funding"). */
export class FundingDto {
  @ApiProperty({ description: "the account's deposit address, the same on every chain", example: '0x1111111111111111111111111111111111111111' }) depositAddress: string;
  @ApiProperty({ type: [FundingChainDto] }) chains: FundingChainDto[];
}

export class DepositsQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: DEPOSITS_MAX_LIMIT, default: DEPOSITS_DEFAULT_LIMIT })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_001')) @Min(1, bad('VALIDATION_001')) @Max(DEPOSITS_MAX_LIMIT, bad('VALIDATION_001'))
  limit?: number;

  @ApiPropertyOptional({ description: '`nextCursor` of the previous page', example: '42' })
  @IsOptional() @Matches(/^[1-9]\d{0,17}$/, { message: 'cursor must be a nextCursor of this list', ...bad('VALIDATION_001') })
  cursor?: string;
}

export class DepositDto {
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ example: '0x' + 'ab'.repeat(32) }) txHash: string;
  @ApiProperty({ description: 'the Transfer log\'s index in its block; -1 for a native transfer', example: 3 }) logIndex: number;
  @ApiProperty({ description: 'token address; the zero address for the native currency' }) token: string;
  @ApiProperty({ description: "in the token's smallest unit (decimal string)", example: '25000000' }) amount: string;
  @ApiProperty({ type: Number, nullable: true, description: 'USD credited; null until credited', example: 25 }) creditedUsd: number | null;
  @ApiProperty({ enum: ['seen', 'credited'] }) status: 'seen' | 'credited';
  @ApiProperty({ description: 'blocks on top of the deposit\'s block now (capped at the chain\'s confirmations once credited)', example: 3 }) confirmations: number;
  @ApiProperty({ type: String, nullable: true, description: 'ISO time of the credit', example: null }) creditedAt: string | null;
}

export class DepositListDto {
  @ApiProperty({ type: [DepositDto], description: 'newest first' }) items: DepositDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last page', example: null }) nextCursor: string | null;
}
