import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminApi } from '../../accounts';
import { ChainAuditService } from '../audit/chain-audit.service';
import { ChainAuditDto, ChainAuditQueryDto } from './dto/chain-audit.dto';

@ApiTags('admin')
@AdminApi()
@Controller('admin')
export class ChainAuditController {
  constructor(private readonly audit: ChainAuditService) {}

  @Get('audit')
  @ApiContract({
    summary: 'Check final relayed transactions against the chain and the ledger',
    description: 'Each EXECUTED/FAILED row: its hash mined with the recorded status, no second mined transaction, the recorded cost equal to the chain\'s, the charge equal to the ledger\'s. Read-only.',
    auth: 'admin',
    envelope: 'success',
    type: ChainAuditDto,
    errors: ['VALIDATION_001', 'VALIDATION_003', 'CHAIN_003'],
  })
  run(@Query() query: ChainAuditQueryDto): Promise<ChainAuditDto> {
    return this.audit.audit({ chainId: query.chainId, since: query.since }, query.limit);
  }
}
