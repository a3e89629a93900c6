import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { AccountWebhooksDto, AccountWebhooksQueryDto } from '../dto/account-webhooks.dto';
import { ReplayDeadLetterDto, ReplayedDto } from '../dto/dead-letter.dto';
import { AccountWebhooks } from './account-webhooks.service';

@ApiTags('webhooks')
@Controller('api/user/webhooks')
export class AccountWebhooksController {
  constructor(private readonly webhooks: AccountWebhooks) {}

  @Get()
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: "The account's webhooks and their latest deliveries (dead letters included)", auth: 'api-key-or-jwt', envelope: 'success', type: AccountWebhooksDto, rateLimited: true })
  overview(@CurrentCaller() caller: Caller, @Query() query: AccountWebhooksQueryDto): Promise<AccountWebhooksDto> {
    return this.webhooks.overview(caller.account.id, query.deliveries ?? 20);
  }

  @Post('dead-letters/:id/replay')
  @HttpCode(200)
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: "Deliver one of the account's dead letters again, with a fresh retry schedule", auth: 'api-key-or-jwt', envelope: 'success', type: ReplayedDto, rateLimited: true, errors: ['RESOURCE_001'] })
  replay(@CurrentCaller() caller: Caller, @Param() params: ReplayDeadLetterDto): Promise<ReplayedDto> {
    return this.webhooks.replay(caller.account.id, params.id);
  }
}
