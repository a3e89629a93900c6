import { environment } from '../../config/process-env';
import { startTracingFromEnv } from './otel-sdk';

// Imported first by main.ts: the instrumentations patch http, express, pg and ioredis as they are required.
startTracingFromEnv(environment());
