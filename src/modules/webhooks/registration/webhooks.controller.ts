import { Body, Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { RawResponse } from '../../../common/envelope/envelope-kind';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { RegisteredWebhooksDto, RegisterWebhookDto, RegisterWebhooksQueryDto } from '../dto/register-webhook.dto';
import { RegisterWebhooksPipe } from './register-webhooks.pipe';
import { WebhookRegistry } from './webhook-registry.service';

@ApiTags('webhooks')
@Controller('api/user')
export class WebhooksController {
  constructor(private readonly registry: WebhookRegistry) {}

  @Post('register-webhooks')
  @HttpCode(200)
  // Resolves every URL's host (SSRF check); after the auth guard, which sets the caller it counts.
  @RateLimited()
  @ApiKeyOrJwt()
  @RawResponse()
  @ApiContract({
    summary: 'Replace the account’s webhooks',
    auth: 'api-key-or-jwt',
    envelope: 'bare',
    type: RegisteredWebhooksDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'AUTH_007'],
    description:
      'Top-level JSON array (at most 20). Secrets are never returned. The response carries signingSecret (Standard Webhooks, whsec_...) only when this call issued it: the first registration, or with ?rotateSigningSecret=true. ' +
      'A wallet-login JWT can only register a set while the account has none: replacing a registered set or rotating the signing secret needs an API key (403 AUTH_007).',
  })
  @ApiBody({ type: [RegisterWebhookDto] })
  register(
    @CurrentCaller() caller: Caller,
    @Body(RegisterWebhooksPipe) body: RegisterWebhookDto[],
    @Query() query: RegisterWebhooksQueryDto,
  ): Promise<RegisteredWebhooksDto> {
    const rotate = query.rotateSigningSecret === 'true' || query.rotateSigningSecret === '1';
    return this.registry.register(caller.account, body, rotate, caller.keyId ? 'api-key' : 'session');
  }
}
