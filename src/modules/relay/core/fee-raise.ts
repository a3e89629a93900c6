import { FeeSettings, maxGasPrice, weiToMicroUsd } from './fees';

/** Gas of a 0-value transfer to an EOA: what a cancellation needs. */
export const CANCEL_GAS = 21_000n;

/** What a re-signature at the row's nonce carries: the row's call, or the relay's 0-value cancellation. */
export type ResignKind = 'call' | 'cancel';

/**
 * The most a signature of the row at `fees` can cost, in wei: its gas limit × the max fee per gas
 * (legacy: the gas price), plus the value it sends and the top-ups already spent for its sender,
 * as the submission's reservation counts them. A cancellation sends nothing and needs CANCEL_GAS.
 */
export function worstCaseWei(tx: { gasLimit: string | null; value: string; fundingCostWei: string }, fees: FeeSettings, kind: ResignKind): bigint {
  const funding = BigInt(tx.fundingCostWei);
  if (kind === 'cancel') return CANCEL_GAS * maxGasPrice(fees) + funding;
  return BigInt(tx.gasLimit ?? '0') * maxGasPrice(fees) + BigInt(tx.value) + funding;
}

/**
 * The reservation a re-signature at `fees` needs, in micro-USD at `usdPerNative` (rounded up,
 * like the submission's). A nonce is consumed once, so the reservation must cover the worst of
 * every signature at it: never less than what is reserved already.
 */
export function reservationNeeded(input: { worstWei: bigint; usdPerNative: number; decimals: number; reservedMicro: bigint }): bigint {
  const micro = weiToMicroUsd(input.worstWei, input.usdPerNative, input.decimals);
  return micro > input.reservedMicro ? micro : input.reservedMicro;
}
