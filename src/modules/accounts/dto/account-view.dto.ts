import { ApiProperty } from '@nestjs/swagger';
import { AllowedTargetDto, ApprovalWebhookViewDto } from './policy.dto';

const OWN = "Absent from GET /api/user unless the request carries the account's own api-key or JWT.";

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
  // The policy fields below are the account's own business: GET /api/user shows them only to the
  // account's own credentials; /api/account and the admin API always show them.
  @ApiProperty({ required: false, type: [String], description: `IPs/CIDR blocks allowed to use the account's API keys and JWTs (403 AUTH_003 otherwise); empty: any. ${OWN}` }) ipWhitelist?: string[];
  @ApiProperty({ required: false, type: [String], description: `Hosts (or *.domain) allowed as the request Origin (403 AUTH_003 otherwise); empty: any. ${OWN}` }) domainWhitelist?: string[];
  @ApiProperty({ required: false, type: [AllowedTargetDto], description: `Targets and methods the submissions may call (403 TRANSACTION_007 otherwise); empty: any. ${OWN}` }) allowedTargets?: AllowedTargetDto[];
  @ApiProperty({ required: false, type: Number, nullable: true, description: `USD; account.low_balance event below it; null: none. ${OWN}` }) lowBalanceThresholdUsd?: number | null;
  @ApiProperty({ required: false, type: ApprovalWebhookViewDto, nullable: true, description: `Asked to approve each sponsorship (403 TRANSACTION_008 unless it approves); the secret is never returned. ${OWN}` }) approvalWebhook?: ApprovalWebhookViewDto | null;
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
