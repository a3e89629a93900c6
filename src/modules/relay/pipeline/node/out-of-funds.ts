import { Transaction } from 'ethers';

/** A node's refusal because the sender cannot pay gas × price + value. */
export function isOutOfFunds(err: unknown): boolean {
  const text = `${(err as { shortMessage?: string }).shortMessage ?? ''} ${(err as Error).message ?? ''}`.toLowerCase();
  return text.includes('insufficient funds');
}

/** The signer of a raw transaction, or null when it cannot be parsed. */
export function senderOf(raw: string): string | null {
  try {
    return Transaction.from(raw).from;
  } catch {
    return null;
  }
}
