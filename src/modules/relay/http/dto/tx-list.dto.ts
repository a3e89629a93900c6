import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsPositive, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { TX_STATUSES } from '../../core/stage';
import { TxRecordDto } from './tx-record.dto';

export const TX_LIST_DEFAULT_LIMIT = 50;
export const TX_LIST_MAX_LIMIT = 200;
const bad = (code: string) => ({ context: { code } });

/** GET /api/txs (extensions.md "Lists for clients and the dashboard"). */
export class TxListQueryDto {
  @ApiPropertyOptional({ enum: TX_STATUSES })
  @IsOptional() @IsIn(TX_STATUSES, { message: `status must be one of ${TX_STATUSES.join(', ')}`, ...bad('VALIDATION_001') })
  status?: string;

  @ApiPropertyOptional({ example: 31337 })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  chainId?: number;

  @ApiPropertyOptional({ description: 'exact label', example: 'checkout' })
  @IsOptional() @IsString() @MaxLength(256)
  label?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: TX_LIST_MAX_LIMIT, default: TX_LIST_DEFAULT_LIMIT })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(TX_LIST_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`nextCursor` of the previous page', example: 'c2d1e4f0-0000-4000-8000-000000000001' })
  @IsOptional() @IsUUID('all', { message: 'cursor must be a nextCursor of this list', ...bad('VALIDATION_001') })
  cursor?: string;
}

export class TxListDto {
  @ApiProperty({ type: [TxRecordDto], description: 'newest first' }) items: TxRecordDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last page', example: null })
  nextCursor: string | null;
}
