import { microToUsd } from '../../../common/money/usd';
import { TxRecordDto } from './dto/tx-record.dto';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { failureReasonOf, stagesOf } from '../../tx-events';

export type TxRecord = TxRecordDto;

export function toTxRecord(tx: RelayTransactionEntity, options: { includeReceipt?: boolean; includeRevertInfo?: boolean } = {}): TxRecord {
  const record: TxRecord = {
    id: tx.id,
    userId: tx.userId,
    to: tx.to,
    callData: tx.callData,
    value: tx.value,
    chainId: tx.chainId,
    gasPrice: tx.gasPrice,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    gasLimit: tx.gasLimit,
    label: tx.label,
    status: tx.status,
    executionTxHash: tx.executionTxHash,
    timestamp: tx.createdAt.toISOString(),
    latency: tx.latencyMs,
    costUSD: tx.costMicro === null ? null : microToUsd(tx.costMicro),
    nativePriceUsd: tx.nativePriceUsd === null || tx.nativePriceUsd === undefined ? null : Number(tx.nativePriceUsd),
    retries: tx.retries,
    isAccountCharged: tx.isAccountCharged,
    transactionType: tx.transactionType,
    submitRegion: tx.submitRegion,
    validUntil: tx.validUntil ? Math.floor(tx.validUntil.getTime() / 1000) : null,
    failureReason: failureReasonOf(tx),
    revertReason: tx.status === 'FAILED' ? tx.revertReason : null,
    stages: stagesOf(tx),
    policyId: tx.policyId ?? null,
  };
  if (options.includeReceipt) record.receipt = tx.receipt;
  if (options.includeRevertInfo && tx.status === 'FAILED') record.revert = { reason: tx.revertReason ?? tx.error ?? 'unknown' };
  return record;
}

