import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TX_STATUSES } from '../../core/stage';
import { TRANSACTION_TYPES } from '../../store/relay-transaction.entity';

class ReceiptDto {
  @ApiProperty() transactionHash: string;
  @ApiProperty() blockNumber: number;
  @ApiProperty() blockHash: string;
  @ApiProperty({ enum: [0, 1] }) status: number;
  @ApiProperty() from: string;
  @ApiProperty({ type: String, nullable: true }) to: string | null;
  @ApiProperty({ description: 'decimal string' }) gasUsed: string;
  @ApiProperty({ description: 'wei, decimal string' }) effectiveGasPrice: string;
  @ApiProperty({ description: 'L1 data fee (OP-stack chains), wei' }) l1Fee: string;
  @ApiProperty({ type: String, nullable: true }) contractAddress: string | null;
  @ApiProperty({ description: 'number of logs' }) logs: number;
}

class RevertDto {
  @ApiProperty({ description: 'decoded Error(string), Panic(uint256) or custom error selector' }) reason: string;
}

/** The transaction record of interface.md (GET /api/tx, POST /api/submit-tx-sync). */
export class TxRecordDto {
  @ApiProperty() id: string;
  @ApiProperty() userId: string;
  @ApiProperty({ type: String, nullable: true }) to: string | null;
  @ApiProperty() callData: string;
  @ApiProperty({ description: 'wei' }) value: string;
  @ApiProperty() chainId: number;
  @ApiProperty({ type: String, nullable: true, description: 'wei, decimal string' }) gasPrice: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'wei, decimal string' }) maxFeePerGas: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'wei, decimal string' }) maxPriorityFeePerGas: string | null;
  @ApiProperty({ type: String, nullable: true }) gasLimit: string | null;
  @ApiProperty() label: string;
  @ApiProperty({ enum: TX_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) executionTxHash: string | null;
  @ApiProperty({ format: 'date-time' }) timestamp: string;
  @ApiProperty({ type: Number, nullable: true, description: 'milliseconds from acceptance to the terminal status' }) latency: number | null;
  @ApiProperty({ type: Number, nullable: true }) costUSD: number | null;
  @ApiProperty() retries: number;
  @ApiProperty() isAccountCharged: boolean;
  @ApiProperty({ enum: TRANSACTION_TYPES }) transactionType: string;
  @ApiProperty() submitRegion: string;
  @ApiPropertyOptional({ description: 'true only in a 202 of submit-tx-sync' }) timedOut?: boolean;
  @ApiPropertyOptional({ type: ReceiptDto, nullable: true }) receipt?: ReceiptDto | null;
  @ApiPropertyOptional({ type: RevertDto }) revert?: RevertDto;
}
