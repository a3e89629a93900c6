import type { ChainDefinition } from '../../chains';

/** Where the chains file does not say (docs/decisions.md, "At most once under real chain conditions"). */
export const DEFAULT_CONFIRMATIONS = 3;

/** Blocks after which the relay takes what a chain shows as final: a consumed nonce, a settled receipt. */
export function confirmationsOf(chain: Pick<ChainDefinition, 'confirmations'>): number {
  return chain.confirmations ?? DEFAULT_CONFIRMATIONS;
}
