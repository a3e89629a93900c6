import { keccak256 } from '../../../../common/evm/keccak';
import { FeeSettings } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { signedRequest } from '../../core/signed-request';
import { copyOf } from '../../core/row-copy';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { SignedTx } from '../../store/relay-broadcast.store';

/** A signature of the row just stored: what it changed on the row (its sender, nonce, hash and fees). */
export interface Signature extends SignedTx {
  sender: string;
  nonce: bigint;
  fees: FeeSettings;
}

export async function signRow(signer: RelaySigner, tx: RelayTransactionEntity, fees: FeeSettings, nonce: bigint): Promise<SignedTx> {
  const request = signedRequest(tx, fees, nonce);
  if (signer.signTransactionHashed) return signer.signTransactionHashed(request);
  const raw = await signer.signTransaction(request);
  return { raw, hash: keccak256(raw) };
}

/**
 * The row as the statement that stored `sig` left it, as a new object: the caller's copy is
 * never edited, and the tracker and settlement get a row they need not read again.
 * `replacement`: the signature replaced another at the same nonce, so its fees are the row's.
 */
export function withSignature(tx: RelayTransactionEntity, sig: Signature, replacement: boolean): RelayTransactionEntity {
  const fees = replacement ? feeColumns(sig.fees) : {};
  return copyOf(tx, { sender: sig.sender.toLowerCase(), nonce: sig.nonce, executionTxHash: sig.hash, stage: tx.stage === 'accepted' ? 'signed' : tx.stage, ...fees });
}

function feeColumns(fees: FeeSettings): Partial<RelayTransactionEntity> {
  return fees.type === 'legacy'
    ? { gasPrice: fees.gasPrice.toString(), maxFeePerGas: null, maxPriorityFeePerGas: null }
    : { gasPrice: null, maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() };
}
