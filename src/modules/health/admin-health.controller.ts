import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiContract } from '../../common/swagger/api-contract';
import { AdminApi } from '../accounts';
import { HealthReport } from './health-report.service';
import { HealthDetailDto } from './health.dto';

/** The health detail operators need: what public /health leaves out. */
@ApiTags('admin')
@AdminApi()
@Controller('admin/health')
export class AdminHealthController {
  constructor(private readonly report: HealthReport) {}

  @Get()
  @ApiContract({
    summary: 'Health detail: probe latencies and errors (short codes), relayer keys and treasury with balances',
    description: 'The same status as GET /health (always answered 200 here; the status is in the body).',
    auth: 'admin',
    envelope: 'success',
    type: HealthDetailDto,
    noInput: true,
  })
  detail(): Promise<HealthDetailDto> {
    return this.report.detail();
  }
}
