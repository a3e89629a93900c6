import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator';
import { ApiEnvelopedResponse } from '../../common/swagger/api-enveloped-response';
import { AccountView, toAccountView } from './domain/account-view';
import { AccountsService } from './domain/accounts.service';
import { AccountViewDto } from './dto/account-view.dto';
import { UserQueryDto } from './dto/user-query.dto';

@ApiTags('accounts')
@Controller('api/user')
export class UserController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Get()
  @ApiOperation({ summary: 'Account by wallet address' })
  @ApiEnvelopedResponse(AccountViewDto)
  async get(@Query() query: UserQueryDto): Promise<AccountView> {
    return toAccountView(await this.accounts.getByAddress(query.address));
  }
}
