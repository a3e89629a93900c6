import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsOptional, IsPositive, IsString, Max, Min, MinLength, ValidateIf } from 'class-validator';
import { Type } from 'class-transformer';
import { IsUsdNumber } from '../../../common/money/is-usd-number';
import { AccountPolicyFieldsDto } from './policy.dto';

/** Shared by the admin REST API and the admin CLI, so both validate the same way. */
export class CreateAccountDto {
  @ApiProperty({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' })
  @IsString()
  address: string;

  @ApiPropertyOptional({ description: 'Initial credit in USD', example: 100 })
  @IsOptional() @IsUsdNumber() @Min(0) @Max(1e9)
  creditUsd?: number;
}

export class AccountListQueryDto {
  @ApiPropertyOptional({ default: 50, maximum: 500 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500)
  limit?: number;

  @ApiPropertyOptional({ default: 0 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(1_000_000)
  offset?: number;
}

export class CreditDto {
  @ApiProperty({ description: 'USD to add to the available balance', example: 25 })
  @IsUsdNumber() @IsPositive() @Max(1e9)
  usd: number;
}

export class RevokeKeyDto {
  @ApiProperty({ description: 'The plain API key to revoke' })
  @IsString() @MinLength(8)
  key: string;
}

export class AccountLimitsDto extends AccountPolicyFieldsDto {
  @ApiPropertyOptional({ description: 'USD per transaction' })
  @IsOptional() @IsUsdNumber() @Min(0) @Max(1e9)
  perTxLimit?: number;

  @ApiPropertyOptional({ description: 'USD per UTC day' })
  @IsOptional() @IsUsdNumber() @Min(0) @Max(1e9)
  dailyLimit?: number;

  @ApiPropertyOptional()
  @IsOptional() @IsInt() @Min(0) @Max(20)
  maxRetries?: number;

  @ApiPropertyOptional()
  @IsOptional() @IsBoolean()
  circuitBreakerEnabled?: boolean;

  @ApiPropertyOptional()
  @IsOptional() @IsInt() @Min(1) @Max(10_000)
  failureCountStreakLimit?: number;

  @ApiPropertyOptional({ type: [Number] })
  @IsOptional() @IsArray() @ArrayMaxSize(1000) @IsInt({ each: true })
  disabledChainIds?: number[];

  @ApiPropertyOptional({ description: 'Disables the account: its keys stop authenticating' })
  @IsOptional() @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({
    description:
      "While true, a derivationPath this account (and no other) used before derived senders were per account sends from that path's old address, so the team can move what it holds; other paths keep the account's own keys",
  })
  @IsOptional() @IsBoolean()
  legacyDerivation?: boolean;

  @ApiPropertyOptional({ description: 'Reset the circuit breaker failure streak to 0' })
  @IsOptional() @IsBoolean()
  resetFailureStreak?: boolean;
}

export class KeyRateLimitDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Requests per minute on the submit and quote endpoints for this key; null: the deployment default (RATE_LIMIT_PER_MINUTE)', example: 120 })
  @ValidateIf((o: KeyRateLimitDto) => o.rateLimitPerMinute !== null)
  @IsInt() @Min(1) @Max(1_000_000)
  rateLimitPerMinute: number | null;
}

export class KeyViewDto {
  @ApiProperty() keyId: string;
  @ApiProperty({ description: 'first characters of the key' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'null: the deployment default' }) rateLimitPerMinute: number | null;
}

export class CreatedAccountDto {
  @ApiProperty() userId: string;
  @ApiProperty() address: string;
  @ApiProperty({ description: 'Shown once; only its hash is stored' }) apiKey: string;
}

export class CreatedKeyDto {
  @ApiProperty() userId: string;
  @ApiProperty() apiKey: string;
}

export class AccountAuditDto {
  @ApiProperty() userId: string;
  @ApiProperty({ description: 'the cached balances equal the ledger sums' }) reconciles: boolean;
  @ApiProperty({ description: 'micro-USD, integer string', example: '1000000000' }) availableMicro: string;
  @ApiProperty({ description: 'micro-USD, integer string', example: '0' }) pendingMicro: string;
  @ApiProperty({ description: 'micro-USD, integer string', example: '1000000000' }) ledgerAvailableMicro: string;
  @ApiProperty({ description: 'micro-USD, integer string', example: '0' }) ledgerPendingMicro: string;
}

export class RevokedKeyDto {
  @ApiProperty({ enum: [true] }) revoked: true;
}
