import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsPositive, IsString, Matches, MaxLength } from 'class-validator';

/** decisions.md: POST /api/submit-signed-tx (transactionType funding-signed). */
export class SubmitSignedTxDto {
  @ApiProperty({ example: 84532 })
  @Type(() => Number) @IsInt() @IsPositive()
  chainId: number;

  @ApiProperty({ description: 'raw signed transaction, 0x hex' })
  @IsString() @Matches(/^0x[0-9a-fA-F]+$/, { message: 'signedTx must be 0x-prefixed hex' }) @MaxLength(262_144)
  signedTx: string;

  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional() @IsString() @MaxLength(256)
  label?: string;

  @ApiPropertyOptional({ description: 'refuse (TRANSACTION_001) when the funding would cost more USD than this' })
  @IsOptional() @IsNumber() @IsPositive()
  maxUSD?: number;
}

export class SubmitSignedTxResultDto {
  @ApiProperty() txId: string;
  @ApiProperty() estimatedCostUSD: number;
  @ApiProperty({ type: String, nullable: true, description: 'the top-up transfer; null when the sender already held enough' }) fundingTxHash: string | null;
}
