import { ChainDefinition } from '../../chains';

/** One way of pricing a chain's native currency in USD; null when this source cannot. */
export interface NativePriceSource {
  readonly name: string;
  nativeUsd(chain: ChainDefinition): Promise<number | null>;
}

export const NATIVE_PRICE_SOURCES = Symbol('NATIVE_PRICE_SOURCES');
