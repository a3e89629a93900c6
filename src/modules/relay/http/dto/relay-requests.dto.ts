import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { SubmitTxDto } from './submit-tx.dto';

export const DEFAULT_SYNC_TIMEOUT_MS = 30_000;

export class SubmitTxSyncDto {
  @ApiProperty({ type: SubmitTxDto })
  @ValidateNested() @Type(() => SubmitTxDto)
  tx: SubmitTxDto;

  @ApiPropertyOptional({ minimum: 1000, maximum: 120000, default: DEFAULT_SYNC_TIMEOUT_MS })
  @IsOptional() @IsInt() @Min(1000) @Max(120000)
  timeoutMs?: number;

  @ApiPropertyOptional() @IsOptional() @IsBoolean() includeReceipt?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() includeRevertInfo?: boolean;

  @ApiPropertyOptional({ description: 'also end the wait once a transaction hash exists' })
  @IsOptional() @IsBoolean()
  returnOnTxHash?: boolean;
}

export class TxQueryDto {
  @ApiProperty()
  @IsString() @IsNotEmpty({ message: 'id is required' })
  id: string;

  @ApiPropertyOptional({ description: "'true' or '1' enables" })
  @IsOptional() @IsString()
  includeReceipt?: string;

  @ApiPropertyOptional({ description: "'true' or '1' enables" })
  @IsOptional() @IsString()
  includeRevertInfo?: string;
}

/** interface.md: 'true' or '1' enables, anything else or absent disables. */
export function flag(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}
