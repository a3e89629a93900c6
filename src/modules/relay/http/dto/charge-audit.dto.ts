import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One settled transaction of GET /api/audit, recomputed from the chain (extensions.md). */
export class ChargeAuditRowDto {
  @ApiProperty({ format: 'uuid' }) txId: string;
  @ApiProperty({ example: 31337 }) chainId: number;
  @ApiProperty({ type: String, nullable: true, example: '0x' + 'ab'.repeat(32) }) executionTxHash: string | null;
  @ApiProperty({ type: String, nullable: true, description: "the chain's receipt (decimal string); null when the chain has none", example: '21000' }) gasUsed: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'wei per gas, from the chain (decimal string)', example: '1000000000' }) effectiveGasPrice: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'L1 data fee in wei, from the chain (0 on L1s)', example: '0' }) l1Fee: string | null;
  @ApiProperty({ description: 'native value sent, wei (0 when the call reverted)', example: '0' }) valueWei: string;
  @ApiProperty({ type: Number, nullable: true, description: 'USD per native unit the charge was converted at', example: 3000 }) nativePriceUsd: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "USD: (gasUsed × effectiveGasPrice + l1Fee + valueWei + top-ups) × nativePriceUsd from the chain's receipt" }) costUSD: number | null;
  @ApiProperty({ description: 'USD the ledger charged for the transaction' }) chargedUsd: number;
  @ApiProperty({ enum: ['match', 'mismatch', 'missing'], description: 'missing: the recorded hash has no receipt on chain; mismatch: see detail' }) onChain: 'match' | 'mismatch' | 'missing';
  @ApiPropertyOptional({ description: 'what disagrees, when onChain is not match' }) detail?: string;
}

export class ChargeAuditDto {
  @ApiProperty({ description: 'start of the range (inclusive)' }) from: string;
  @ApiProperty({ description: 'end of the range (exclusive)' }) to: string;
  @ApiProperty({ type: [ChargeAuditRowDto], description: 'oldest first' }) items: ChargeAuditRowDto[];
  @ApiProperty({ description: 'true when every row matches' }) ok: boolean;
  @ApiProperty({ description: 'true when the row cap stopped before the end of the range' }) truncated: boolean;
}
