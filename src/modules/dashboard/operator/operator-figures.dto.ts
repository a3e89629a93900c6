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
  @ApiProperty({ description: 'Relayed transactions accepted in the bucket, by every API instance' }) submitted: number;
  @ApiProperty({ description: 'Transactions that reached EXECUTED in the bucket' }) executed: number;
  @ApiProperty({ description: 'Transactions that reached FAILED in the bucket' }) failed: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Acceptance to final status, median of the bucket (seconds; the upper bound of its latency bucket); null with no final status' }) p50: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The same, 95th percentile' }) p95: number | null;
}

export class FleetTotalsDto {
  @ApiProperty() submitted: number;
  @ApiProperty() executed: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: Number, nullable: true }) p50: number | null;
  @ApiProperty({ type: Number, nullable: true }) p95: number | null;
}

export class QueueDepthDto {
  @ApiProperty({ example: 'relay-send' }) queue: string;
  @ApiProperty() waiting: number;
  @ApiProperty() active: number;
  @ApiProperty() delayed: number;
}

export class OperatorFiguresDto {
  @ApiProperty({ example: 10 }) bucketSeconds: number;
  @ApiProperty({ type: [FleetPointDto], description: 'Oldest first; the last bucket is still filling' }) series: FleetPointDto[];
  @ApiProperty({ type: FleetTotalsDto, description: 'The whole series summed' }) totals: FleetTotalsDto;
  @ApiProperty({ description: 'Relayed transactions PENDING now (PostgreSQL)' }) pending: number;
  @ApiProperty({ type: [QueueDepthDto], description: 'BullMQ jobs per queue now (Redis)' }) queues: QueueDepthDto[];
}
