import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsNumber, IsOptional, IsPositive, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsEvmAddress } from '../../../common/evm/is-evm-address';
import { ROUTE_MODES } from '../routing/route-ranking';

const bad = (code: string) => ({ context: { code } });

/** Largest integrator fee: 10% of the input. */
export const MAX_FEE_BPS = 1000;

/** GET /quote and GET /build-best-path (interface.md). */
export class QuoteQueryDto {
  @ApiProperty() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  fromChain: number;

  @ApiProperty() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  toChain: number;

  @ApiProperty({ description: 'address; the zero address is the native currency' })
  @IsString(bad('VALIDATION_001')) @IsEvmAddress({ message: 'fromToken must be an address', ...bad('VALIDATION_001') })
  fromToken: string;

  @ApiProperty({ description: 'address; the zero address is the native currency' })
  @IsString(bad('VALIDATION_001')) @IsEvmAddress({ message: 'toToken must be an address', ...bad('VALIDATION_001') })
  toToken: string;

  @ApiProperty({ description: 'base-10 integer string in the input token smallest unit' })
  @IsString(bad('VALIDATION_001')) @Matches(/^[0-9]{1,78}$/, { message: 'amount must be a base-10 integer string', ...bad('VALIDATION_001') })
  amount: string;

  @ApiProperty() @IsString(bad('VALIDATION_001')) @IsEvmAddress({ message: 'sender must be an address', ...bad('VALIDATION_001') })
  sender: string;

  @ApiPropertyOptional({ description: 'default sender' })
  @IsOptional() @IsString(bad('VALIDATION_001')) @IsEvmAddress({ message: 'receiver must be an address', ...bad('VALIDATION_001') })
  receiver?: string;

  @ApiPropertyOptional({ description: 'percent', default: 0.5 })
  @IsOptional() @Type(() => Number) @IsNumber({ allowNaN: false, allowInfinity: false }, bad('VALIDATION_001')) @Min(0, bad('VALIDATION_001')) @Max(50, bad('VALIDATION_001'))
  slippage?: number;

  @ApiPropertyOptional({ description: `integrator fee from the input, 0 to ${MAX_FEE_BPS}; paid to the calling account's address` })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_001')) @Min(0, bad('VALIDATION_001')) @Max(MAX_FEE_BPS, bad('VALIDATION_001'))
  feeBps?: number;

  @ApiPropertyOptional({ enum: ROUTE_MODES, description: 'unknown values fall back to max_value' })
  @IsOptional() @IsString(bad('VALIDATION_001'))
  routeMode?: string;

  @ApiPropertyOptional({ description: 'accepted, ignored' }) @IsOptional() @IsString() allowMultiBridge?: string;
  @ApiPropertyOptional({ description: 'accepted, ignored' }) @IsOptional() @IsString() priorityProvider?: string;

  @ApiPropertyOptional({ description: 'echoed as integratorId' })
  @IsOptional() @IsString(bad('VALIDATION_001')) @MaxLength(128, bad('VALIDATION_001'))
  Integrator?: string;

  @ApiPropertyOptional({ description: 'accepted, ignored' }) @IsOptional() @IsString() Referrer?: string;

  @ApiPropertyOptional({ enum: [0, 1, 2, 3], description: '0 direct transfer, 1 native value, 2 permit, 3 permit with witness; recorded with the quote' })
  @IsOptional() @Type(() => Number) @IsIn([0, 1, 2, 3], bad('VALIDATION_001'))
  acquisitionMode?: number;
}

export class BuildByIdDto {
  @ApiProperty() @IsString(bad('VALIDATION_001')) @IsNotEmpty(bad('VALIDATION_001')) @MaxLength(200, bad('VALIDATION_001'))
  quoteId: string;

  @ApiPropertyOptional({ description: 'flags the transaction for simulation instead of live submission' })
  @IsOptional() @IsBoolean(bad('VALIDATION_001'))
  simulation?: boolean;
}

export class TokensQueryDto {
  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  chain_id?: number;
}

export class SearchTokenQueryDto {
  @ApiProperty({ description: 'symbol or name substring (case-insensitive), or an exact address' })
  @IsString(bad('VALIDATION_001')) @IsNotEmpty({ message: 'query is required', ...bad('VALIDATION_001') }) @MaxLength(100, bad('VALIDATION_001'))
  query: string;

  @ApiPropertyOptional() @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  chainId?: number;
}

export class StatusQueryDto {
  @ApiProperty() @IsString(bad('VALIDATION_001')) @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'txHash must be a transaction hash', ...bad('VALIDATION_001') })
  txHash: string;

  @ApiProperty() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  fromChain: number;

  @ApiPropertyOptional() @IsOptional() @IsString(bad('VALIDATION_001')) @IsEvmAddress({ message: 'userAddress must be an address', ...bad('VALIDATION_001') })
  userAddress?: string;
}
