import { TransactionRequest } from 'ethers';
import type { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { FeeSettings } from './fees';

/** The fees a row was accepted with (its reservation covers them). */
export function feesOf(tx: Pick<RelayTransactionEntity, 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'>): FeeSettings {
  if (tx.gasPrice !== null) return { type: 'legacy', gasPrice: BigInt(tx.gasPrice) };
  return { type: 'eip1559', maxFeePerGas: BigInt(tx.maxFeePerGas ?? '0'), maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas ?? '0') };
}

/** The fees of a signed broadcast as recorded (max fee, and the tip when EIP-1559). */
export function recordedFees(b: { maxFeePerGas: string; maxPriorityFeePerGas: string | null }): FeeSettings {
  return b.maxPriorityFeePerGas === null
    ? { type: 'legacy', gasPrice: BigInt(b.maxFeePerGas) }
    : { type: 'eip1559', maxFeePerGas: BigInt(b.maxFeePerGas), maxPriorityFeePerGas: BigInt(b.maxPriorityFeePerGas) };
}

export function txFees(fees: FeeSettings): Pick<TransactionRequest, 'type' | 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas'> {
  return fees.type === 'legacy'
    ? { type: 0, gasPrice: fees.gasPrice }
    : { type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
}

/** What the relayer signs for a row at `nonce` with `fees` (type 4 when the row carries 7702 authorizations). */
export function signedRequest(tx: RelayTransactionEntity, fees: FeeSettings, nonce: bigint): TransactionRequest {
  const request: TransactionRequest = {
    ...txFees(fees),
    chainId: tx.chainId,
    nonce: Number(nonce),
    to: tx.to,
    data: tx.callData,
    value: BigInt(tx.value),
    gasLimit: BigInt(tx.gasLimit ?? '0'),
  };
  if (tx.authorizationList?.length) {
    request.type = 4;
    request.authorizationList = tx.authorizationList.map((a) => ({
      chainId: BigInt(a.chainId),
      address: a.address,
      nonce: BigInt(a.nonce),
      signature: { r: a.r, s: a.s, yParity: a.yParity as 0 | 1 },
    }));
  }
  return request;
}
