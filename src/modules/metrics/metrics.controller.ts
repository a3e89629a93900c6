import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { MetricsAccessGuard } from './metrics-access.guard';
import { NotRateLimited } from '../rate-limit';
import { MetricsService } from './metrics.service';

/** Skips the API-key guard; MetricsAccessGuard decides (a token, or open outside production). */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Public()
  @UseGuards(MetricsAccessGuard)
  @NotRateLimited('Prometheus scrape of the in-process registry: no database, RPC or DNS')
  @RawResponse()
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
