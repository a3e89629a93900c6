import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export class OperatorFiguresQueryDto {
  @ApiProperty({ required: false, minimum: 1, maximum: 120, default: 10, description: 'Length of the series, in minutes back from now' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(120)
  minutes?: number;
}

export class FleetPointDto {
  @ApiProperty({ example: 1795750000, description: 'Start of the 10-second bucket (Unix seconds)' }) t: number;
  @ApiProperty({ example: 42, description: 'Relayed transactions accepted in the bucket, by every API instance' }) submitted: number;
  @ApiProperty({ example: 40, description: 'Transactions that reached EXECUTED in the bucket' }) executed: number;
  @ApiProperty({ example: 1, description: 'Transactions that reached FAILED in the bucket' }) failed: number;
  @ApiProperty({ type: Number, nullable: true, example: 2.5, description: 'Acceptance to final status, median of the bucket (seconds; the upper bound of its latency bucket); null with no final status' }) p50: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 5, description: 'The same, 95th percentile' }) p95: number | null;
}

export class FleetTotalsDto {
  @ApiProperty({ example: 2520 }) submitted: number;
  @ApiProperty({ example: 2498 }) executed: number;
  @ApiProperty({ example: 12 }) failed: number;
  @ApiProperty({ type: Number, nullable: true, example: 2.5 }) p50: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 5 }) p95: number | null;
}

export class QueueDepthDto {
  @ApiProperty({ example: 'relay-send' }) queue: string;
  @ApiProperty({ example: 3 }) waiting: number;
  @ApiProperty({ example: 16 }) active: number;
  @ApiProperty({ example: 0 }) delayed: number;
}

export class OperatorFiguresDto {
  @ApiProperty({ example: 10 }) bucketSeconds: number;
  @ApiProperty({ type: [FleetPointDto], description: 'Oldest first; the last bucket is still filling' }) series: FleetPointDto[];
  @ApiProperty({ type: FleetTotalsDto, description: 'The whole series summed' }) totals: FleetTotalsDto;
  @ApiProperty({ example: 7, description: 'Relayed transactions PENDING now (PostgreSQL)' }) pending: number;
  @ApiProperty({ type: [QueueDepthDto], description: 'BullMQ jobs per queue now (Redis)' }) queues: QueueDepthDto[];
}
