import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { toAppError } from '../errors/to-app-error';
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
    sendError(req, res, error);
  }
}
