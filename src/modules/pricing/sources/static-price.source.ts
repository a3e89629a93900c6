import { Injectable } from '@nestjs/common';
import { ChainDefinition } from '../../chains';
import { NativePriceSource } from './price-source';

/** The configured fallback price, for chains without a live source or while it is down. */
@Injectable()
export class StaticPriceSource implements NativePriceSource {
  readonly name = 'static';

  nativeUsd(chain: ChainDefinition): Promise<number | null> {
    return Promise.resolve(chain.pricing?.staticNativeUsd ?? null);
  }
}
