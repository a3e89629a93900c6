import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimitedPerIp } from '../rate-limit';
import { AccountView, toAccountView } from './domain/account-view';
import { AccountsService } from './domain/accounts.service';
import { AccountViewDto } from './dto/account-view.dto';
import { UserQueryDto } from './dto/user-query.dto';

@ApiTags('accounts')
@Controller('api/user')
export class UserController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @RateLimitedPerIp('public')
  @Get()
  @ApiContract({ summary: 'Account by wallet address', auth: 'public', envelope: 'success', type: AccountViewDto, rateLimited: true, errors: ['USER_001', 'USER_003'] })
  async get(@Query() query: UserQueryDto): Promise<AccountView> {
    return toAccountView(await this.accounts.getByAddress(query.address));
  }
}
