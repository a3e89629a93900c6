import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../../common/http/authenticated-request';
import { ApiContract } from '../../../common/swagger/api-contract';
import { ApiKeyOrJwt } from '../../auth';
import { RateLimited } from '../../rate-limit';
import { TxListDto, TxListQueryDto } from './dto/tx-list.dto';
import { TxListService } from './tx-list.service';

@ApiTags('relay')
@Controller('api/txs')
export class TxListController {
  constructor(private readonly txs: TxListService) {}

  @Get()
  @RateLimited()
  @ApiKeyOrJwt()
  @ApiContract({
    summary: "The account's transactions, newest first, filtered by status, chain and label",
    description: 'Keyset pagination: pass `nextCursor` as `cursor` until it is null.',
    auth: 'api-key-or-jwt',
    envelope: 'success',
    type: TxListDto,
    rateLimited: true,
    errors: ['VALIDATION_001', 'VALIDATION_003'],
  })
  list(@CurrentCaller() caller: Caller, @Query() query: TxListQueryDto): Promise<TxListDto> {
    return this.txs.list(caller.account.id, query);
  }
}
