import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsInt, IsOptional, IsPositive, Max, Min } from 'class-validator';
import { AUDIT_MAX_ROWS } from '../../audit/chain-audit.service';

const bad = (code: string) => ({ context: { code } });

/** GET /admin/audit. */
export class ChainAuditQueryDto {
  @ApiPropertyOptional({ description: 'only this chain; all chains when omitted', example: 31337 })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_003')) @IsPositive(bad('VALIDATION_003'))
  chainId?: number;

  @ApiPropertyOptional({ description: 'only rows created at or after this time (ISO 8601)', format: 'date-time', example: '2026-11-23T00:00:00.000Z' })
  @IsOptional() @Type(() => Date) @IsDate({ message: 'since must be an ISO 8601 date-time', ...bad('VALIDATION_001') })
  since?: Date;

  @ApiPropertyOptional({ description: `rows to check at most (1-${AUDIT_MAX_ROWS})`, default: AUDIT_MAX_ROWS })
  @IsOptional() @Type(() => Number) @IsInt(bad('VALIDATION_001')) @Min(1, bad('VALIDATION_001')) @Max(AUDIT_MAX_ROWS, bad('VALIDATION_001'))
  limit?: number;
}

export class AuditMismatchDto {
  @ApiProperty({ format: 'uuid' }) txId: string;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({
    enum: ['hash_not_mined', 'status_mismatch', 'second_mined', 'failed_but_mined', 'cost_wei_mismatch', 'charge_mismatch', 'reservation_open'],
    description:
      'hash_not_mined: the recorded hash has no receipt; status_mismatch: receipt status vs EXECUTED/FAILED; second_mined: another signed transaction of the row was mined too; ' +
      'failed_but_mined: a FAILED row with a mined transaction; cost_wei_mismatch: gasUsed × effectiveGasPrice + L1 fee (+ value when executed, + top-ups) from the chain vs the recorded receipt (wei); ' +
      'charge_mismatch: the row cost vs what the ledger charged (micro-USD); reservation_open: the ledger still reserves for a final row (micro-USD)',
  })
  kind: string;
  @ApiProperty({ example: '1077207000000000' }) expected: string;
  @ApiProperty({ example: '1077207000000001' }) actual: string;
}

export class ChainAuditDto {
  @ApiProperty({ description: 'true when no mismatch was found' }) ok: boolean;
  @ApiProperty({ description: 'EXECUTED/FAILED rows checked against the chain and the ledger' }) examined: number;
  @ApiProperty({ description: 'final rows of exchange-action chains (no EVM node), not checked' }) skipped: number;
  @ApiProperty({ description: 'the row limit stopped the audit before the end of the range' }) truncated: boolean;
  @ApiProperty({ type: [AuditMismatchDto] }) mismatches: AuditMismatchDto[];
}
