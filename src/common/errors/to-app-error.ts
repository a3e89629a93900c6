import { HttpException, HttpStatus } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AppError } from './app-error';

/**
 * Maps anything thrown while serving a request onto the catalog. Unknown errors become
 * SYSTEM_002 and are flagged `unexpected` so the caller logs them with their stack.
 */
export function toAppError(err: unknown): { error: AppError; unexpected: boolean } {
  if (err instanceof AppError) return { error: err, unexpected: false };
  if (err instanceof HttpException) return { error: fromHttpException(err), unexpected: false };
  if (err instanceof QueryFailedError) return { error: new AppError('SYSTEM_001'), unexpected: true };
  return { error: new AppError('SYSTEM_002'), unexpected: true };
}

function fromHttpException(err: HttpException): AppError {
  const status = err.getStatus();
  const message = messageOf(err);
  switch (status) {
    case HttpStatus.NOT_FOUND:
      return new AppError('RESOURCE_001', message);
    case HttpStatus.UNAUTHORIZED:
      return new AppError('AUTH_001', message);
    case HttpStatus.TOO_MANY_REQUESTS:
      return new AppError('RESOURCE_003', message);
    default:
      return status >= 500 ? new AppError('SYSTEM_002') : new AppError('VALIDATION_004', message);
  }
}

function messageOf(err: HttpException): string {
  const body = err.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : err.message;
}
