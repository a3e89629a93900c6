import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

export const DEFAULT_BUMP_PERCENT = 20;

/** POST /api/tx/{id}/speed-up: a percentage over the last fees, or the new fees themselves. */
export class SpeedUpDto {
  @ApiPropertyOptional({ minimum: 10, maximum: 500, default: DEFAULT_BUMP_PERCENT, description: 'raise both fees of the last broadcast by this percentage; not with explicit fees' })
  @IsOptional() @IsInt() @Min(10) @Max(500)
  bumpPercent?: number;

  @ApiPropertyOptional({ description: 'wei, base-10 integer string, with maxPriorityFeePerGas; at least 10% above the last broadcast (a legacy transaction uses it as gasPrice)' })
  @IsOptional() @IsString()
  maxFeePerGas?: string;

  @ApiPropertyOptional({ description: 'wei, base-10 integer string, with maxFeePerGas; at least 10% above the last broadcast' })
  @IsOptional() @IsString()
  maxPriorityFeePerGas?: string;
}
