import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const SPEND_BUCKETS = ['hour', 'day'] as const;

export class SpendQueryDto {
  @ApiPropertyOptional({ enum: SPEND_BUCKETS, default: 'hour', description: 'UTC hours or UTC days' })
  @IsOptional() @IsIn(SPEND_BUCKETS, { message: 'bucket must be hour or day' })
  bucket?: (typeof SPEND_BUCKETS)[number];

  @ApiPropertyOptional({ description: 'How many buckets back from now (default 48 hours or 30 days)', minimum: 1, maximum: 400 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(400)
  count?: number;
}

export class SpendPointDto {
  @ApiProperty({ description: 'Start of the bucket (UTC)', example: '2026-11-23T20:00:00.000Z' }) bucket: string;
  @ApiProperty({ nullable: true, type: Number, description: 'null for a charge that names no relayed transaction' }) chainId: number | null;
  @ApiProperty({ description: 'USD charged' }) spent: number;
  @ApiProperty({ description: 'The same in micro-USD (integer, decimal string)' }) spentMicro: string;
  @ApiProperty({ description: 'Settled transactions' }) count: number;
}

export class SpendDto {
  @ApiProperty({ enum: SPEND_BUCKETS }) bucket: string;
  @ApiProperty({ description: 'Start of the first bucket (UTC)' }) since: string;
  @ApiProperty({ type: [SpendPointDto], description: 'One point per bucket and chain with a charge, oldest first' }) points: SpendPointDto[];
  @ApiProperty({ description: 'USD charged over the whole range' }) totalSpent: number;
}
