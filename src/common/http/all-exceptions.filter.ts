import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../errors/app-error';
import { toAppError } from '../errors/to-app-error';
import { ProviderCallError } from '../evm/provider-error';
import { sendError } from './send-error';

/** The one place errors become HTTP responses. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    const { error, unexpected } = toAppError(exception);
    if (unexpected) {
      this.logger.error(`${req.method} ${req.path} failed: ${(exception as Error)?.stack ?? String(exception)}`);
    } else if (error.status >= 500) {
      this.logger.error(`${req.method} ${req.path} ${error.code}: ${error.message}`);
    }
    sendError(req, res, redacted(error));
  }
}

/**
 * Upstream failures answer with the catalog's stable message (plus the short code of a failed
 * node call, e.g. "(http 429)"): a node's or exchange's error text can name relayer addresses,
 * internal hosts or provider URLs with their keys. The detail is in the log line above (URLs
 * redacted), under the request's trace id (X-Trace-Id, and traceId in the body).
 */
function redacted(error: AppError): AppError {
  if (error.code !== 'CHAIN_003') return error;
  return new AppError('CHAIN_003', error instanceof ProviderCallError ? error.publicMessage : undefined, error.headers);
}
