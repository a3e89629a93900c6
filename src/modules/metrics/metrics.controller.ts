import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { RawResponse } from '../../common/envelope/envelope-kind';
import { Public } from '../../common/http/public.decorator';
import { NotRateLimited } from '../rate-limit';
import { MetricsService } from './metrics.service';

@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Public()
  @NotRateLimited('Prometheus scrape of the in-process registry: no database, RPC or DNS')
  @RawResponse()
  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
