import { FeeSettings, maxGasPrice } from '../core/fees';
import type { NonceRecord } from '../pipeline/nonce-manager.service';

export interface SignedTx {
  raw: string;
  hash: string;
}

/**
 * The statement parts that store a signed transaction: its broadcast row (the bytes, so it can
 * be sent again byte for byte) and the relay row's sender, nonce and hash. With `claimed`, both
 * are written only when the nonce claim of the same statement succeeded (NonceManager.claim).
 * Parameters start at `$first`; explicit casts because INSERT ... SELECT parameters get no type
 * from the target columns.
 */
export function broadcastRecord(
  txId: string,
  chainId: number,
  sender: string,
  fees: FeeSettings,
  signed: SignedTx,
  nonce: bigint,
  first: number,
  claimed: boolean,
): Required<Omit<NonceRecord, 'gate'>> {
  const p = (i: number) => `$${first + i}`;
  return {
    ctes: `broadcast AS (
             INSERT INTO relay_broadcasts (tx_id, hash, chain_id, sender, nonce, raw, max_fee_per_gas, max_priority_fee_per_gas)
             SELECT ${p(0)}::uuid, ${p(1)}::varchar, ${p(2)}::int, ${p(3)}::varchar, ${p(4)}::bigint, ${p(5)}::text, ${p(6)}::numeric, ${p(7)}::numeric
             ${claimed ? 'FROM claimed' : ''}
           ),
           signed_row AS (
             UPDATE relay_transactions SET sender = ${p(3)}, nonce = ${p(4)}, execution_tx_hash = ${p(1)}, updated_at = now()
              WHERE id = ${p(0)}${claimed ? ' AND EXISTS (SELECT 1 FROM claimed)' : ''}
           )`,
    params: [
      txId,
      signed.hash,
      chainId,
      sender.toLowerCase(),
      nonce.toString(),
      signed.raw,
      maxGasPrice(fees).toString(),
      fees.type === 'eip1559' ? fees.maxPriorityFeePerGas.toString() : null,
    ],
  };
}
