import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthenticatedRequest } from '../../common/http/authenticated-request';
import { PublicIdentified } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimitedPerIp } from '../rate-limit';
import { AccountView, toAccountView, toPublicAccountView } from './domain/account-view';
import { AccountsService } from './domain/accounts.service';
import { AccountViewDto } from './dto/account-view.dto';
import { UserQueryDto } from './dto/user-query.dto';

@ApiTags('accounts')
@Controller('api/user')
export class UserController {
  constructor(private readonly accounts: AccountsService) {}

  @PublicIdentified()
  @RateLimitedPerIp('public')
  @Get()
  @ApiContract({
    summary: 'Account by wallet address',
    description:
      "Public. userConfig's policy fields (ipWhitelist, domainWhitelist, allowedTargets, lowBalanceThresholdUsd, approvalWebhook) are included only when the request carries the account's own api-key or wallet-login JWT (from inside its lists); any other request, with or without credentials, gets the account without them.",
    auth: 'public',
    envelope: 'success',
    type: AccountViewDto,
    rateLimited: true,
    errors: ['USER_001', 'USER_003'],
  })
  async get(@Query() query: UserQueryDto, @Req() req: AuthenticatedRequest): Promise<AccountView> {
    const account = await this.accounts.getByAddress(query.address);
    return req.caller?.account.id === account.id ? toAccountView(account) : toPublicAccountView(account);
  }
}
