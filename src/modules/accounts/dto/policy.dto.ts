import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, ValidateIf, ValidateNested, ValidationOptions } from 'class-validator';
import { IsUsdNumber } from '../../../common/money/is-usd-number';
import { IsEvmAddress } from '../../../common/evm/is-evm-address';
import { isDomainEntry } from '../policy/domain-whitelist';
import { isIpOrCidr } from '../../../common/net/ip-list';

const INVALID = { context: { code: 'VALIDATION_001' } } as const;

function eachString(name: string, test: (value: string) => boolean, what: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => Array.isArray(value) && value.every((v) => typeof v === 'string' && test(v)),
        defaultMessage: (args) => {
          const bad = Array.isArray(args?.value) ? args.value.find((v: unknown) => typeof v !== 'string' || !test(v)) : args?.value;
          return `${args?.property ?? 'value'} must be a list of ${what}; ${JSON.stringify(bad)} is not`;
        },
      },
    },
    options,
  );
}

/** One element of `allowedTargets`. */
export class AllowedTargetDto {
  @ApiPropertyOptional({ description: 'Only on this chain; absent: every chain', example: 31337 })
  @IsOptional() @IsInt(INVALID) @Min(1, INVALID)
  chainId?: number;

  @ApiProperty({ description: 'Contract (or account) the submissions may call', example: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
  @IsEvmAddress(INVALID)
  address: string;

  @ApiPropertyOptional({ type: [String], description: '4-byte method selectors allowed on this target (first 4 bytes of callData); absent or empty: every method', example: ['0xa9059cbb'] })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(256, INVALID)
  @Matches(/^0x[0-9a-fA-F]{8}$/, { each: true, message: 'selectors must be 4-byte hex selectors like 0xa9059cbb', ...INVALID })
  selectors?: string[];
}

/**
 * `approvalWebhook` of PATCH /admin/accounts/{address}/limits: a new url needs its secret; a
 * body with only `enabled` switches the configured one on or off.
 */
export class ApprovalWebhookInputDto {
  @ApiPropertyOptional({ example: 'https://example.com/relay/approve', description: 'http(s); required with secret when setting a new one' })
  @ValidateIf((o: ApprovalWebhookInputDto) => o.url !== undefined || o.secret !== undefined)
  @IsString(INVALID) @MaxLength(2048, INVALID)
  @Matches(/^https?:\/\/[^\s]+$/i, { message: 'approvalWebhook.url must start with http:// or https://', ...INVALID })
  url?: string;

  @ApiPropertyOptional({ description: 'Standard Webhooks signing secret (whsec_ + base64 of at least 16 bytes); write-only, stored sealed', writeOnly: true, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' })
  @ValidateIf((o: ApprovalWebhookInputDto) => o.url !== undefined || o.secret !== undefined)
  @IsString({ message: 'approvalWebhook.secret is required with approvalWebhook.url', ...INVALID })
  @Matches(/^whsec_[A-Za-z0-9+/]{22,}={0,2}$/, { message: 'approvalWebhook.secret must be whsec_ followed by base64 of at least 16 bytes', ...INVALID })
  secret?: string;

  @ApiPropertyOptional({ description: 'default true when a url is given' })
  @IsOptional() @IsBoolean(INVALID)
  enabled?: boolean;
}

/** The policy fields of the limits body (extensions.md, "Account policy"); empty lists mean no restriction. */
export class AccountPolicyFieldsDto {
  @ApiPropertyOptional({ type: [String], description: 'IPv4/IPv6 addresses or CIDR blocks allowed to use the account\'s API keys; empty: any', example: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'] })
  @IsOptional() @ArrayMaxSize(1000, INVALID)
  @eachString('isIpList', isIpOrCidr, 'IPv4/IPv6 addresses or CIDR blocks', INVALID)
  ipWhitelist?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Host names allowed as the request Origin (`*.example.com` for subdomains); empty: any', example: ['app.example.com', '*.example.org'] })
  @IsOptional() @ArrayMaxSize(1000, INVALID)
  @eachString('isDomainList', (v) => isDomainEntry(v.toLowerCase()), 'host names or *.domain wildcards', INVALID)
  domainWhitelist?: string[];

  @ApiPropertyOptional({ type: [AllowedTargetDto], description: 'Targets the account\'s own submissions may call; empty: any' })
  @IsOptional() @IsArray(INVALID) @ArrayMaxSize(1000, INVALID)
  @ValidateNested({ each: true }) @Type(() => AllowedTargetDto)
  allowedTargets?: AllowedTargetDto[];

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'USD; an account.low_balance event when availableBalance falls below it; null removes it', example: 50 })
  @IsOptional() @IsUsdNumber(INVALID) @Min(0, INVALID) @Max(1e9, INVALID)
  lowBalanceThresholdUsd?: number | null;

  @ApiPropertyOptional({ type: ApprovalWebhookInputDto, nullable: true, description: 'null removes the approval webhook' })
  @IsOptional() @IsObject(INVALID) @ValidateNested() @Type(() => ApprovalWebhookInputDto)
  approvalWebhook?: ApprovalWebhookInputDto | null;
}

/** The approval webhook as GET /api/user shows it (never the secret). */
export class ApprovalWebhookViewDto {
  @ApiProperty() url: string;
  @ApiProperty() enabled: boolean;
}
