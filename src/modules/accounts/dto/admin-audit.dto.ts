import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';

export class AdminAuditQueryDto {
  @ApiPropertyOptional({ default: 50, maximum: 500 })
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: '`nextCursor` of the previous page' })
  @IsOptional() @IsString() @Matches(/^[1-9]\d{0,18}$/, { message: 'cursor must be a nextCursor of this list' })
  cursor?: string;
}

export class AdminAuditEntryDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'When the action was asked for' }) at: string;
  @ApiProperty({ description: '`admin:<first 12 hex digits of the SHA-256 of the admin token>` for REST, `cli:<OS user>` for the CLI', example: 'admin:3f9a0c1b2d4e' }) actor: string;
  @ApiProperty({ enum: ['rest', 'cli'] }) source: 'rest' | 'cli';
  @ApiProperty({ description: 'Method and route for REST, the command for the CLI', example: 'PATCH /admin/accounts/:address/limits' }) action: string;
  @ApiProperty({ type: String, nullable: true, description: 'The address, key id or delivery id acted on' }) target: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The request body (REST) or the options (CLI) without their secrets: secret fields "[redacted]", API keys by prefix, URLs without credentials or query',
    example: { usd: 2.5 },
  })
  summary: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true, description: 'Client IP (null for the CLI)' }) ip: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'HTTP status of the outcome; null while running or when the process stopped midway' }) status: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Catalog code of a refused action' }) errorCode: string | null;
  @ApiProperty({ type: String, nullable: true }) finishedAt: string | null;
}

export class AdminAuditPageDto {
  @ApiProperty({ type: [AdminAuditEntryDto] }) entries: AdminAuditEntryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next (older) page; null on the last page' }) nextCursor: string | null;
}
