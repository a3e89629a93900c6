import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { RISK_TIERS, RiskTier } from '../domain/vault-types';

const invalid = { context: { code: 'VALIDATION_001' } };

/** POST /v1/quotes: a deposit intent for the solver auction. */
export class DepositQuoteRequestDto {
  @ApiProperty({ description: "the user's EOA (signs the settlement and receives the shares)" })
  @IsString({ context: { code: 'USER_003' } })
  userAddress: string;

  @ApiProperty({ example: 31337 })
  @IsInt(invalid)
  chain: number;

  @ApiProperty({ description: 'ERC-20 asset address' })
  @IsString(invalid) @MaxLength(64, invalid)
  asset: string;

  @ApiProperty({ description: 'base-10 integer string in asset units', example: '1000000' })
  @IsString(invalid) @MaxLength(78, invalid)
  amount: string;

  @ApiPropertyOptional({ enum: RISK_TIERS, default: 'balanced' })
  @IsOptional() @IsIn(RISK_TIERS, invalid)
  riskTier?: RiskTier;

  @ApiPropertyOptional({ description: 'least acceptable net APY in basis points', default: 0 })
  @IsOptional() @IsInt(invalid) @Min(0, invalid) @Max(1_000_000, invalid)
  minApyBps?: number;
}

/** POST /v1/withdrawals. */
export class WithdrawalRequestDto {
  @ApiProperty() @IsString({ context: { code: 'USER_003' } })
  userAddress: string;

  @ApiProperty({ example: 31337 })
  @IsInt(invalid)
  chain: number;

  @ApiProperty({ description: 'vault (venue) address' })
  @IsString(invalid) @MaxLength(64, invalid)
  vault: string;

  @ApiPropertyOptional({ description: "base-10 integer string, or 'max'; omitted = the whole balance" })
  @IsOptional() @IsString(invalid) @MaxLength(78, invalid)
  shares?: string;
}

/** The user's signed EIP-7702 authorization (interface.md). */
export class SignedAuthorizationDto {
  @ApiProperty({ example: 31337 }) @IsInt(invalid) @Min(0, invalid) chainId: number;
  @ApiProperty({ description: 'the settlement delegate' }) @IsString(invalid) address: string;
  @ApiProperty({ description: "the EOA's current account nonce" }) @IsInt(invalid) @Min(0, invalid) nonce: number;
  @ApiProperty({ description: '0x0 / 0x1 (or 0 / 1)', example: '0x0' }) @Matches(/^(0x0?[01]|[01])$/, invalid) @IsOptional() yParity: string;
  @ApiProperty() @Matches(/^0x[0-9a-fA-F]{1,64}$/, invalid) r: string;
  @ApiProperty() @Matches(/^0x[0-9a-fA-F]{1,64}$/, invalid) s: string;
}

/** POST /v1/deposits: executes a signed deposit or withdrawal plan. */
export class ExecutePlanRequestDto {
  @ApiProperty() @IsString() @MaxLength(64)
  quoteId: string;

  @ApiPropertyOptional({ type: SignedAuthorizationDto, description: 'may be omitted when the EOA already delegates to the settlement delegate' })
  @IsOptional() @ValidateNested() @Type(() => SignedAuthorizationDto)
  authorization?: SignedAuthorizationDto;

  @ApiProperty({ description: '65-byte signature of executeDigest, 0x hex' })
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: 'executeSignature must be a 65-byte 0x hex signature', ...invalid })
  executeSignature: string;
}
