import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StatusQueryDto } from './dto/swap-requests.dto';
import { SwapStatusService, SwapStatusView } from './tracking/swap-status.service';

@ApiTags('swap')
@ApiHeader({ name: 'api-key', required: true })
@Controller()
export class SwapStatusController {
  constructor(private readonly statuses: SwapStatusService) {}

  @Get('status')
  @ApiOperation({ summary: 'Swap tracking by source transaction hash (unknown hashes are pending)' })
  @ApiOkResponse({ description: 'code envelope; data: swap tracking record' })
  status(@Query() query: StatusQueryDto): Promise<SwapStatusView> {
    return this.statuses.status(query.txHash, query.fromChain, query.userAddress);
  }
}
