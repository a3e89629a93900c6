import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../common/swagger/api-contract';
import { RateLimited } from '../rate-limit';
import { StatusQueryDto } from './dto/swap-requests.dto';
import { SwapStatusDto } from './dto/swap-responses.dto';
import { SwapStatusService } from './tracking/swap-status.service';
import type { SwapStatusView } from './tracking/swap-status-view';

@ApiTags('swap')
@Controller()
export class SwapStatusController {
  constructor(private readonly statuses: SwapStatusService) {}

  @Get('status')
  // Reads receipts from the chain's RPC on every call.
  @RateLimited()
  @ApiContract({
    summary: 'Swap tracking by source transaction hash (unknown hashes are pending)',
    auth: 'api-key',
    envelope: 'code',
    type: SwapStatusDto,
    rateLimited: true,
    errors: ['VALIDATION_003', 'CHAIN_003'],
  })
  status(@Query() query: StatusQueryDto): Promise<SwapStatusView> {
    return this.statuses.status(query.txHash, query.fromChain, query.userAddress);
  }
}
