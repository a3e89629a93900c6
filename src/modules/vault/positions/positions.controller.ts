import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { RateLimited } from '../../rate-limit';
import { PositionDto, PositionsQueryDto } from './positions.dto';
import { PositionValuesService } from './position-values.service';

@ApiTags('vault')
@Controller('v1/positions')
export class PositionsController {
  constructor(private readonly positions: PositionValuesService) {}

  @Get()
  // Values every position with the vault's previewRedeem over RPC.
  @RateLimited()
  @ApiContract({
    summary: "An EOA's vault positions recorded from confirmed orders, valued now",
    auth: 'api-key',
    envelope: 'success',
    type: [PositionDto],
    rateLimited: true,
    errors: ['USER_003', 'VALIDATION_003', 'CHAIN_001', 'CHAIN_003'],
  })
  list(@Query() query: PositionsQueryDto): Promise<PositionDto[]> {
    return this.positions.list(query.userAddress, query.chain);
  }
}
