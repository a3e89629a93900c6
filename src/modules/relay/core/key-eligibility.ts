import { Injectable } from '@nestjs/common';

/** ok: at or above the chain's floor; low: under it; empty: under a tenth of it. */
export type WalletState = 'ok' | 'low' | 'empty';

type StarvedListener = (chainId: number, address: string) => void;

/**
 * Which relayer keys may take new work on a chain, as the wallet monitor last saw their
 * balances. Kept apart from key selection so the rule stays one small check: a key under its
 * floor gets no new work while another key of its pool is at or above it. Keys never measured
 * count as ok, so a fresh process does not refuse work before its first balance read.
 */
@Injectable()
export class KeyEligibility {
  private readonly states = new Map<string, WalletState>();
  private readonly listeners: StarvedListener[] = [];

  set(chainId: number, address: string, state: WalletState): void {
    this.states.set(keyOf(chainId, address), state);
  }

  stateOf(chainId: number, address: string): WalletState {
    return this.states.get(keyOf(chainId, address)) ?? 'ok';
  }

  /** The keys that should get new work: the ok ones, else the low ones, else all (the node decides). */
  eligible<T extends { address: string }>(chainId: number, keys: T[]): T[] {
    const ok = keys.filter((k) => this.stateOf(chainId, k.address) === 'ok');
    if (ok.length > 0) return ok;
    const low = keys.filter((k) => this.stateOf(chainId, k.address) === 'low');
    return low.length > 0 ? low : keys;
  }

  /** False only when every key of the pool is known to be empty: new submissions are refused. */
  anyFunded(chainId: number, addresses: string[]): boolean {
    return addresses.some((a) => this.stateOf(chainId, a) !== 'empty');
  }

  /** A node refused a key's transaction for lack of funds: it takes no new work until measured again. */
  reportStarved(chainId: number, address: string): void {
    if (this.stateOf(chainId, address) === 'ok') this.set(chainId, address, 'low');
    for (const listener of this.listeners) listener(chainId, address);
  }

  onStarved(listener: StarvedListener): void {
    this.listeners.push(listener);
  }
}

const keyOf = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
