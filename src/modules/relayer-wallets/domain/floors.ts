import type { WalletState } from '../../relay';

export interface Floors {
  floorWei: bigint;
  targetWei: bigint;
}

/** A chain's relayerMinBalanceWei / relayerTargetBalanceWei win over the env; the target defaults to 5 × the floor. */
export function floorsFor(chain: { relayerMinBalanceWei?: string; relayerTargetBalanceWei?: string }, env: { RELAYER_MIN_BALANCE_WEI: string; RELAYER_TARGET_BALANCE_WEI?: string }): Floors {
  const floorWei = BigInt(chain.relayerMinBalanceWei ?? env.RELAYER_MIN_BALANCE_WEI);
  const target = chain.relayerTargetBalanceWei ?? (chain.relayerMinBalanceWei === undefined ? env.RELAYER_TARGET_BALANCE_WEI : undefined);
  const targetWei = target !== undefined ? BigInt(target) : floorWei * 5n;
  return { floorWei, targetWei };
}

/** ok at or above the floor, empty under a tenth of it (not worth one more transaction), low in between. */
export function walletState(balanceWei: bigint, floorWei: bigint): WalletState {
  if (balanceWei >= floorWei) return 'ok';
  return balanceWei * 10n < floorWei ? 'empty' : 'low';
}

/** What tops a key up to the target (0 when it is not under the floor). */
export function topUpAmount(balanceWei: bigint, floors: Floors): bigint {
  return balanceWei < floors.floorWei ? floors.targetWei - balanceWei : 0n;
}
