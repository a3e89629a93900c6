import { ApiProperty } from '@nestjs/swagger';

export class UserConfigDto {
  @ApiProperty({ description: 'USD' }) perTxLimit: number;
  @ApiProperty({ description: 'USD' }) dailyLimit: number;
  @ApiProperty({ description: 'USD consumed since 00:00 UTC' }) dailyAmountConsumed: number;
  @ApiProperty({ format: 'date-time' }) dailyAmountUpdatedAt: string;
  @ApiProperty({ type: [Number] }) disabledChainIds: number[];
  @ApiProperty() maxRetries: number;
  @ApiProperty() circuitBreakerEnabled: boolean;
  @ApiProperty() failureCountStreakLimit: number;
  @ApiProperty() failureCountStreak: number;
  @ApiProperty({ type: [String] }) ipWhitelist: string[];
  @ApiProperty({ type: [String] }) domainWhitelist: string[];
}

/** The Account resource of interface.md. */
export class AccountViewDto {
  @ApiProperty() userId: string;
  @ApiProperty({ description: 'lowercase' }) address: string;
  @ApiProperty({ description: 'USD' }) availableBalance: number;
  @ApiProperty({ description: 'USD reserved for transactions in flight' }) pendingBalance: number;
  @ApiProperty() disabled: boolean;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: null, description: 'free-form; null unless an operator set one' }) defaultRelayAccount: Record<string, unknown> | null;
  @ApiProperty({ type: UserConfigDto }) userConfig: UserConfigDto;
}
