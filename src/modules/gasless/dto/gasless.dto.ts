import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsNumber, IsOptional, IsPositive, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_FEE_BPS } from '../../swap';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const bad = (code: string) => ({ context: { code } });

/** Longest signature deadline a quote may ask for: one day. */
export const MAX_DEADLINE_MINUTES = 1440;

/** GET /gasless/quote (interface.md). */
export class GaslessQuoteQueryDto {
  @ApiProperty({ description: 'input token (an ERC-20: Permit2 cannot move the native currency)' })
  @IsString(bad('VALIDATION_001')) @Matches(ADDRESS, { message: 'fromToken must be an address', ...bad('VALIDATION_001') })
  fromToken: string;

  @ApiProperty({ description: 'output token; the zero address is the native currency' })
  @IsString(bad('VALIDATION_001')) @Matches(ADDRESS, { message: 'toToken must be an address', ...bad('VALIDATION_001') })
  toToken: string;

  @ApiProperty({ description: 'base-10 integer string in input base units, gasless fee included' })
  @IsString(bad('VALIDATION_001')) @Matches(/^[0-9]{1,78}$/, { message: 'amount must be a base-10 integer string', ...bad('VALIDATION_001') })
  amount: string;

  @ApiProperty() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  fromChain: number;

  @ApiProperty({ description: 'must equal fromChain' }) @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  toChain: number;

  @ApiProperty({ description: 'owns the input tokens and signs the permit' })
  @IsString(bad('VALIDATION_001')) @Matches(ADDRESS, { message: 'sender must be an address', ...bad('VALIDATION_001') })
  sender: string;

  @ApiProperty({ description: '2 permit transfer, 3 permit transfer with SwapWitness; anything else is 400' })
  @Type(() => Number) @IsInt(bad('VALIDATION_001'))
  acquisitionMode: number;

  @ApiPropertyOptional({ description: 'default sender' })
  @IsOptional() @IsString(bad('VALIDATION_001')) @Matches(ADDRESS, { message: 'receiver must be an address', ...bad('VALIDATION_001') })
  receiver?: string;

  @ApiPropertyOptional({ description: `integrator fee from the input, 0 to ${MAX_FEE_BPS}; added to the gasless fee` })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_001')) @Min(0, bad('VALIDATION_001')) @Max(MAX_FEE_BPS, bad('VALIDATION_001'))
  feeBps?: number;

  @ApiPropertyOptional({ description: 'percent', default: 0.5 })
  @IsOptional() @Type(() => Number) @IsNumber({ allowNaN: false, allowInfinity: false }, bad('VALIDATION_001')) @Min(0, bad('VALIDATION_001')) @Max(50, bad('VALIDATION_001'))
  slippage?: number;

  @ApiPropertyOptional({ description: `minutes until the permit deadline (1 to ${MAX_DEADLINE_MINUTES}); default GASLESS_DEADLINE_MINUTES` })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_001')) @Min(1, bad('VALIDATION_001')) @Max(MAX_DEADLINE_MINUTES, bad('VALIDATION_001'))
  deadlineMinutes?: number;

  @ApiPropertyOptional({ description: 'fastest, max_value, suggested; unknown falls back to max_value' })
  @IsOptional() @IsString(bad('VALIDATION_001')) @MaxLength(32, bad('VALIDATION_001'))
  rankingMode?: string;
}

export class SubmitGaslessSwapDto {
  @ApiProperty() @IsString(bad('VALIDATION_001')) @IsNotEmpty(bad('VALIDATION_001')) @MaxLength(128, bad('VALIDATION_001'))
  quoteId: string;

  @ApiProperty({ description: '65-byte signature of the quote eip712 payload: 0x plus 130 hex digits' })
  @IsString(bad('VALIDATION_001'))
  signature: string;
}

export class GaslessStatusQueryDto {
  @ApiProperty({ description: 'the swapId' }) @IsString(bad('VALIDATION_004')) @IsNotEmpty(bad('VALIDATION_004')) @MaxLength(64, bad('VALIDATION_004'))
  id: string;
}
