import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsISO8601, IsNumber, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { IsEvmAddress } from '../../../common/evm/is-evm-address';
import { IsUsdNumber } from '../../../common/money/is-usd-number';

const INVALID = { context: { code: 'VALIDATION_001' } } as const;

export class PolicyTargetDto {
  @ApiProperty({ example: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
  @IsEvmAddress(INVALID)
  address: string;

  @ApiPropertyOptional({ type: [String], description: '4-byte selectors (first 4 bytes of callData); absent or empty: every method', example: ['0xa9059cbb'] })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(256, INVALID)
  @Matches(/^0x[0-9a-fA-F]{8}$/, { each: true, message: 'selectors must be 4-byte hex selectors like 0xa9059cbb', ...INVALID })
  selectors?: string[];
}

export class PerEndUserDto {
  @ApiPropertyOptional({ description: 'USD each end user may spend per window (reservations count at once)', example: 5 })
  @IsOptional() @IsUsdNumber(INVALID) @Min(0, INVALID)
  maxUsd?: number;

  @ApiPropertyOptional({ description: 'Transactions each end user may have sponsored per window', example: 5 })
  @IsOptional() @IsInt(INVALID) @Min(0, INVALID) @Max(1_000_000_000, INVALID)
  maxTxs?: number;

  @ApiProperty({ description: "Length of an end user's window in seconds; it starts at the end user's first transaction after the last window ended", example: 86400 })
  @IsInt(INVALID) @Min(1, INVALID) @Max(366 * 24 * 3600, INVALID)
  windowSeconds: number;
}

export class EndUserListsDto {
  @ApiPropertyOptional({ type: [String], description: 'Only these end users; absent or empty: any' })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(10_000, INVALID) @IsEvmAddress({ each: true, ...INVALID })
  allow?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Never these end users' })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(10_000, INVALID) @IsEvmAddress({ each: true, ...INVALID })
  deny?: string[];
}

/**
 * Body of POST /api/policies and PATCH /api/policies/{id} (extensions.md). On PATCH a field
 * left out stays, null clears it (name and enabled cannot be cleared).
 */
export class PolicyInputDto {
  @ApiPropertyOptional({ description: 'Required on create', example: 'Launch campaign' })
  @IsOptional() @IsString(INVALID) @MinLength(1, INVALID) @MaxLength(100, INVALID)
  name?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional() @IsBoolean(INVALID)
  enabled?: boolean;

  @ApiPropertyOptional({ type: [Number], nullable: true, description: 'Only these chains; absent: every chain', example: [84532] })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(100, INVALID) @IsInt({ each: true, ...INVALID }) @Min(1, { each: true, ...INVALID })
  chainIds?: number[] | null;

  @ApiPropertyOptional({ type: [PolicyTargetDto], nullable: true, description: 'Only these targets (and methods); absent: any target' })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(1000, INVALID)
  @ValidateNested({ each: true }) @Type(() => PolicyTargetDto)
  targets?: PolicyTargetDto[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 8601; not before', example: '2026-12-01T00:00:00Z' })
  @IsOptional() @IsISO8601({ strict: true }, INVALID)
  startsAt?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 8601; until (exclusive)', example: '2026-12-05T00:00:00Z' })
  @IsOptional() @IsISO8601({ strict: true }, INVALID)
  endsAt?: string | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'USD the policy sponsors in all (settled costs plus open reservations)', example: 200 })
  @IsOptional() @IsUsdNumber(INVALID) @Min(0, INVALID)
  budgetUsd?: number | null;

  @ApiPropertyOptional({ type: PerEndUserDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => PerEndUserDto)
  perEndUser?: PerEndUserDto | null;

  @ApiPropertyOptional({ type: EndUserListsDto, nullable: true })
  @IsOptional() @ValidateNested() @Type(() => EndUserListsDto)
  endUsers?: EndUserListsDto | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: "While the chain's base fee (or gas price) is above this, accepted transactions wait unsigned", example: 30 })
  @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 9 }, INVALID) @Min(0.000000001, INVALID) @Max(1_000_000, INVALID)
  maxGasPriceGwei?: number | null;
}

export class PolicyTargetViewDto {
  @ApiProperty() address: string;
  @ApiPropertyOptional({ type: [String] }) selectors?: string[];
}

export class PerEndUserViewDto {
  @ApiPropertyOptional() maxUsd?: number;
  @ApiPropertyOptional() maxTxs?: number;
  @ApiProperty() windowSeconds: number;
}

export class EndUserListsViewDto {
  @ApiPropertyOptional({ type: [String] }) allow?: string[];
  @ApiPropertyOptional({ type: [String] }) deny?: string[];
}

export class PolicyDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;
  @ApiProperty() enabled: boolean;
  @ApiPropertyOptional({ type: [Number] }) chainIds?: number[];
  @ApiPropertyOptional({ type: [PolicyTargetViewDto] }) targets?: PolicyTargetViewDto[];
  @ApiPropertyOptional() startsAt?: string;
  @ApiPropertyOptional() endsAt?: string;
  @ApiPropertyOptional() budgetUsd?: number;
  @ApiPropertyOptional({ type: PerEndUserViewDto }) perEndUser?: PerEndUserViewDto;
  @ApiPropertyOptional({ type: EndUserListsViewDto }) endUsers?: EndUserListsViewDto;
  @ApiPropertyOptional() maxGasPriceGwei?: number;
  @ApiProperty({ description: 'ISO 8601' }) createdAt: string;
}

export class EndUserUsageDto {
  @ApiProperty({ description: 'lowercase' }) address: string;
  @ApiProperty({ description: 'USD settled in the current window' }) spentUsd: number;
  @ApiProperty({ description: 'transactions counted in the current window' }) txCount: number;
  @ApiProperty({ nullable: true, type: String, description: 'ISO 8601; null when the policy has no per-end-user window' }) windowResetsAt: string | null;
}

export class PolicyUsageDto {
  @ApiProperty() spentUsd: number;
  @ApiProperty() reservedUsd: number;
  @ApiProperty() txCount: number;
  @ApiProperty({ type: [EndUserUsageDto] }) endUsers: EndUserUsageDto[];
}

export class PolicyIdDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'id must be a policy id', context: { code: 'RESOURCE_001' } })
  id: string;
}
