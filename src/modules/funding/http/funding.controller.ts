import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { FundingService } from '../domain/funding.service';
import { DepositListDto, DepositsQueryDto, FundingDto } from './funding.dto';

/** Self-serve funding (extensions.md): the caller's deposit address and its deposits. */
@ApiTags('accounts')
@Controller('api')
export class FundingController {
  constructor(private readonly funding: FundingService) {}

  @Get('funding')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: "The caller's deposit address and what it accepts on each chain",
    description: "One address per account, the same on every chain. A transfer to it of a listed token is credited once it is `confirmations` deep: USD stablecoins 1:1, the native currency at the price of the crediting block.",
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: FundingDto,
    rateLimited: true,
    noInput: true,
  })
  info(@CurrentCaller() caller: Caller): Promise<FundingDto> {
    return this.funding.funding(caller.account.id);
  }

  @Get('deposits')
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: "The caller's deposits, newest first",
    description: 'seen: found on chain, not yet deep enough; credited: added to the balance. Keyset pagination: pass `nextCursor` as `cursor` until it is null.',
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: DepositListDto,
    rateLimited: true,
    errors: ['VALIDATION_001'],
  })
  list(@CurrentCaller() caller: Caller, @Query() query: DepositsQueryDto): Promise<DepositListDto> {
    return this.funding.list(caller.account.id, query.limit, query.cursor);
  }
}
