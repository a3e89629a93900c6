import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { AppConfig } from '../../../config/app-config';

/** SETTLEMENT_DELEGATE_<chainId>: the EIP-7702 delegate the vault flows use on each chain. */
@Injectable()
export class SettlementDelegates {
  constructor(private readonly config: AppConfig) {}

  /** 500 SYSTEM_002 when the chain has none (interface.md). */
  get(chainId: number): string {
    const delegate = this.config.SETTLEMENT_DELEGATES[chainId];
    if (!delegate) throw new AppError('SYSTEM_002', `no settlement delegate configured for chain ${chainId}`);
    return delegate;
  }
}
