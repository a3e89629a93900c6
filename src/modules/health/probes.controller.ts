import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { NotRateLimited } from '../rate-limit';
import { LivenessBody, Readiness, ReadinessBody } from './readiness.service';

/**
 * `/livez` and `/readyz` on the API port (the operations listener serves the same on
 * METRICS_PORT): orchestrator probes, outside the API contract like /metrics.
 */
@ApiExcludeController()
@Controller()
export class ProbesController {
  constructor(private readonly readiness: Readiness) {}

  @Public()
  @NotRateLimited('orchestrator liveness probe: answers from the process alone, nothing on the database, Redis, RPC or DNS')
  @RawResponse()
  @Get('livez')
  livez(@Res({ passthrough: true }) res: Response): LivenessBody {
    res.setHeader('Cache-Control', 'no-store');
    return this.readiness.alive();
  }

  @Public()
  @NotRateLimited('orchestrator readiness probe: a ping of the database and Redis and cached chain state, as /health')
  @RawResponse()
  @Get('readyz')
  async readyz(@Res({ passthrough: true }) res: Response): Promise<ReadinessBody> {
    const body = await this.readiness.ready();
    res.setHeader('Cache-Control', 'no-store');
    res.status(body.status === 'ready' ? 200 : 503);
    return body;
  }
}
