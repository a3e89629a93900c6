import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../../common/swagger/api-contract';
import { AdminApi } from '../../accounts';
import { OperatorFiguresDto, OperatorFiguresQueryDto } from './operator-figures.dto';
import { OperatorFigures } from './operator-figures.service';

@ApiTags('admin')
@AdminApi()
@Controller('admin/operator')
export class OperatorFiguresController {
  constructor(private readonly figures: OperatorFigures) {}

  @Get('figures')
  @ApiContract({
    summary: "The deployment's throughput and latency (10-second buckets), PENDING backlog and queue depths, from Redis and PostgreSQL: every instance answers the same",
    auth: 'admin',
    envelope: 'success',
    type: OperatorFiguresDto,
  })
  read(@Query() query: OperatorFiguresQueryDto): Promise<OperatorFiguresDto> {
    return this.figures.read(query.minutes ?? 10);
  }
}
