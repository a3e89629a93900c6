import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';
import { AppError } from '../errors/app-error';

const DAY_MS = 86_400_000;
/** The longest range GET /api/audit and GET /api/ledger.csv answer (extensions.md). */
export const MAX_RANGE_DAYS = 31;
const bad = { context: { code: 'VALIDATION_001' } };

/** `from` and `to` (ISO 8601) of an account statement. */
export class TimeRangeQueryDto {
  @ApiPropertyOptional({ description: `start, inclusive (ISO 8601); default \`to\` − ${MAX_RANGE_DAYS} days`, format: 'date-time', example: '2026-11-01T00:00:00.000Z' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'from must be an ISO 8601 date-time', ...bad })
  from?: string;

  @ApiPropertyOptional({ description: 'end, exclusive (ISO 8601); default now', format: 'date-time', example: '2026-11-28T00:00:00.000Z' })
  @IsOptional() @IsISO8601({ strict: true }, { message: 'to must be an ISO 8601 date-time', ...bad })
  to?: string;
}

/** [from, to) of the query: VALIDATION_001 when `from` is not before `to` or the range is longer than MAX_RANGE_DAYS. */
export function resolveRange(query: TimeRangeQueryDto, now = new Date()): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - MAX_RANGE_DAYS * DAY_MS);
  if (Number.isNaN(to.getTime()) || Number.isNaN(from.getTime())) throw new AppError('VALIDATION_001', 'from and to must be ISO 8601 date-times');
  if (from.getTime() >= to.getTime()) throw new AppError('VALIDATION_001', 'from must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw new AppError('VALIDATION_001', `the range may span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}
