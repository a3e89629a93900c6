import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { ApiContract } from '../../common/swagger/api-contract';
import { HealthReport } from './health-report.service';
import { HealthDto } from './health.dto';
import { NotRateLimited } from '../rate-limit';

/**
 * 200 when the database and Redis answer (status ok, or degraded); 503 when one does not.
 * Public: status only. The detail (latencies, probe errors, relayer and treasury addresses and
 * balances) is for operators at GET /admin/health.
 */
@ApiTags('operations')
@Controller('health')
export class HealthController {
  constructor(private readonly report: HealthReport) {}

  @Public()
  @NotRateLimited('orchestrator and load-balancer probe: a ping of the database and Redis and cached chain state, nothing on RPC or DNS; a limit would fail the probe of every instance behind one address')
  @RawResponse()
  @Get()
  @ApiContract({
    summary: 'Overall status and whether the database, Redis and each chain are up',
    description: '200 ok or degraded (a chain is down, or every relayer key of a chain is empty); 503 down (database or Redis), with the same body. No addresses, balances, hosts or error text: operators read GET /admin/health.',
    auth: 'public',
    envelope: 'bare',
    type: HealthDto,
    alsoStatus: { status: 503, description: 'down: the database or Redis does not answer (same body)' },
    noInput: true,
  })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthDto> {
    const body = await this.report.summary();
    res.status(body.status === 'down' ? 503 : 200);
    return body;
  }
}
