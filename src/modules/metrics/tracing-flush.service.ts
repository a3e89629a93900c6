import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { shutdownTracing } from '../../common/trace/otel-sdk';

/** The spans still buffered go out before the process stops (nothing to do with tracing off). */
@Injectable()
export class TracingFlush implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return shutdownTracing();
  }
}
