import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TX_STATUSES } from '../../core/stage';
import { FAILURE_REASONS, TRANSACTION_TYPES } from '../../store/relay-transaction.entity';

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

/** When the transaction entered each step (ISO 8601), null for a step it has not reached (or skipped). */
export class TxStagesDto {
  @ApiProperty({ format: 'date-time', description: 'accepted: reserved and queued' }) acceptedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'signed with its nonce' }) signedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'a node accepted it' }) broadcastAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'the relay saw its receipt' }) minedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'terminal status written and the cost settled' }) settledAt: string | null;
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
  @ApiProperty({ type: Number, nullable: true, description: 'the native currency USD price the settled cost was converted at' }) nativePriceUsd: number | null;
  @ApiProperty() retries: number;
  @ApiProperty() isAccountCharged: boolean;
  @ApiProperty({ enum: TRANSACTION_TYPES }) transactionType: string;
  @ApiProperty() submitRegion: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Unix seconds: not mined by then, the service cancels it (FAILED, failureReason expired)' }) validUntil: number | null;
  @ApiProperty({
    type: String,
    enum: FAILURE_REASONS,
    nullable: true,
    description:
      'null unless FAILED. reverted: mined with status 0 (gas charged); simulation_reverted: the call reverted when re-simulated before sending; ' +
      'expired: validUntil passed before it was mined; cancelled: POST /api/tx/{id}/cancel won; not_sent: refused by the node or given up before anything was mined; ' +
      'exchange_rejected: the exchange refused the action',
  })
  failureReason: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'why it reverted, decoded: Error(string), Panic(uint256), known custom errors (OpenZeppelin 5 ERC-20/721/4626, Permit2, the relay\'s contracts) by name and arguments, else the raw data; null unless FAILED',
  })
  revertReason: string | null;
  @ApiProperty({ type: TxStagesDto }) stages: TxStagesDto;
  @ApiProperty({ type: String, nullable: true, description: "The sponsorship policy that sponsored it; null when the account had no enabled policy" }) policyId: string | null;
  @ApiPropertyOptional({ description: 'true only in a 202 of submit-tx-sync' }) timedOut?: boolean;
  @ApiPropertyOptional({ type: ReceiptDto, nullable: true }) receipt?: ReceiptDto | null;
  @ApiPropertyOptional({ type: RevertDto }) revert?: RevertDto;
}
