import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { WEBHOOK_AUTH_TYPES, WEBHOOK_EVENTS, WEBHOOK_KEY_PLACEMENTS, WebhookAuthType, WebhookEvent, WebhookKeyPlacement } from '../entities/webhook.entity';

const INVALID = { context: { code: 'VALIDATION_001' } } as const;

/** One element of the POST /api/user/register-webhooks array (interface.md, Webhook registration). */
export class RegisterWebhookDto {
  @ApiProperty({ example: 'https://example.com/hooks/relay' })
  @IsString(INVALID)
  @MaxLength(2048, INVALID)
  @Matches(/^https?:\/\/[^\s]+$/i, { message: 'url must start with http:// or https://', ...INVALID })
  url: string;

  @ApiProperty({ enum: WEBHOOK_AUTH_TYPES })
  @IsIn(WEBHOOK_AUTH_TYPES, { message: `authType must be one of ${WEBHOOK_AUTH_TYPES.join(', ')}`, ...INVALID })
  authType: WebhookAuthType;

  @ApiPropertyOptional({ description: 'Required unless authType is none; never returned. For basic: user:password', writeOnly: true })
  @ValidateIf((o: RegisterWebhookDto) => o.authType !== 'none')
  @IsString({ message: 'secret is required unless authType is none', ...INVALID })
  @MinLength(1, { message: 'secret is required unless authType is none', ...INVALID })
  @MaxLength(4096, INVALID)
  secret?: string;

  @ApiPropertyOptional({ description: 'Header name carrying the secret when authType is api-key', example: 'X-Api-Key' })
  @ValidateIf((o: RegisterWebhookDto) => o.authType === 'api-key' || o.apiKeyVar !== undefined)
  @IsString({ message: 'apiKeyVar is required when authType is api-key', ...INVALID })
  @Matches(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, { message: 'apiKeyVar must be an HTTP header name', ...INVALID })
  apiKeyVar?: string;

  @ApiPropertyOptional({ enum: WEBHOOK_KEY_PLACEMENTS, default: 'header' })
  @IsOptional()
  @IsIn(WEBHOOK_KEY_PLACEMENTS, { message: 'apiKeyPlacement must be header', ...INVALID })
  apiKeyPlacement?: WebhookKeyPlacement;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true, description: 'The events this webhook receives; absent: all' })
  @IsOptional()
  @IsArray(INVALID)
  @ArrayMaxSize(WEBHOOK_EVENTS.length * 2, INVALID)
  @IsIn(WEBHOOK_EVENTS, { each: true, message: `events must be a list of ${WEBHOOK_EVENTS.join(', ')}`, ...INVALID })
  events?: WebhookEvent[];
}

export class WebhookViewDto {
  @ApiProperty() url: string;
  @ApiProperty({ enum: WEBHOOK_AUTH_TYPES }) authType: WebhookAuthType;
  @ApiPropertyOptional() apiKeyVar?: string;
  @ApiProperty({ enum: WEBHOOK_KEY_PLACEMENTS }) apiKeyPlacement: WebhookKeyPlacement;
  @ApiProperty() enabled: boolean;
  @ApiPropertyOptional({ enum: WEBHOOK_EVENTS, isArray: true, description: 'absent: all events' }) events?: WebhookEvent[];
}

export class RegisteredWebhooksDto {
  @ApiProperty() userId: string;
  @ApiProperty({ description: 'lowercase' }) address: string;
  @ApiProperty({ type: [WebhookViewDto], description: 'The whole set now registered, secrets omitted' }) webhooks: WebhookViewDto[];
  @ApiPropertyOptional({
    description: 'Standard Webhooks signing secret (whsec_...). Present only when this call issued it: the first registration of the account, or ?rotateSigningSecret=true',
  })
  signingSecret?: string;
}

export class RegisterWebhooksQueryDto {
  @ApiPropertyOptional({ description: 'true issues a new signing secret (the old one stops working at once)', enum: ['true', 'false'] })
  @IsOptional() @IsIn(['true', 'false', '1', '0'])
  rotateSigningSecret?: string;
}
