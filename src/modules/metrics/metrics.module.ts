import { Global, Module } from '@nestjs/common';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsController } from './metrics.controller';
import { FleetFigures } from './fleet-figures.service';
import { MetricsService } from './metrics.service';
import { TracingFlush } from './tracing-flush.service';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, MetricsAccessGuard, TracingFlush, FleetFigures],
  exports: [MetricsService, FleetFigures],
})
// The HTTP timing middleware is installed by configureApp (httpMetricsMiddleware), with the app's other middleware.
export class MetricsModule {}
