import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AccountsService, AccountViewDto, toAccountView } from '../../accounts';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { SpendDto, SpendQueryDto } from './spend.dto';
import { SpendService } from './spend.service';

/** What a team's dashboard reads about its own account with its API key or wallet-login JWT. */
@ApiTags('accounts')
@Controller('api')
export class TeamController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly spendService: SpendService,
  ) {}

  @Get('account')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({ summary: "The caller's account: balances, limits and today's spend", auth: 'api-key-or-jwt', envelope: 'success', type: AccountViewDto, rateLimited: true, noInput: true })
  async account(@CurrentCaller() caller: Caller): Promise<AccountViewDto> {
    // Read afresh: the authenticated account may come from the key cache, with older balances.
    return toAccountView(await this.accounts.getById(caller.account.id));
  }

  @Get('spend')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: 'USD charged per UTC hour or day and chain, from the ledger',
    description: 'One point per bucket and chain that had a charge (settled transactions), oldest first; empty buckets are absent.',
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: SpendDto,
    rateLimited: true,
  })
  spend(@CurrentCaller() caller: Caller, @Query() query: SpendQueryDto): Promise<SpendDto> {
    return this.spendService.spend(caller.account.id, query.bucket, query.count);
  }
}
