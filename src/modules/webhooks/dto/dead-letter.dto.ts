import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

/** Shared by the admin REST API and the admin CLI. */
export class DeadLetterQueryDto {
  @ApiPropertyOptional({ description: 'Only this account (wallet address)' })
  @IsOptional() @IsString()
  address?: string;

  @ApiPropertyOptional({ default: 50, maximum: 500 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500)
  limit?: number;
}

export class ReplayDeadLetterDto {
  @ApiProperty({ description: 'Dead-letter (delivery) id', example: '42' })
  @IsString() @Matches(/^[1-9]\d{0,18}$/, { message: 'id must be a delivery id (a positive integer)' })
  id: string;
}

export class DeadLetterDto {
  @ApiProperty() id: string;
  @ApiProperty() userId: string;
  @ApiProperty() webhookId: string;
  @ApiProperty() url: string;
  @ApiProperty({ type: String, nullable: true, description: 'null for an account event (account.low_balance)' }) txId: string | null;
  @ApiProperty({ description: 'The status the notification announces; low_balance for an account.low_balance event' }) txStatus: string;
  @ApiProperty() attempts: number;
  @ApiProperty({ nullable: true, type: Number }) lastStatusCode: number | null;
  @ApiProperty({ nullable: true, type: String }) lastError: string | null;
  @ApiProperty() createdAt: string;
  @ApiProperty() deadAt: string;
}

export class ReplayedDto {
  @ApiProperty() id: string;
  @ApiProperty({ example: 'pending' }) status: 'pending';
}
