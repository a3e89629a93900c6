import { Injectable } from '@nestjs/common';
import { formatUnits } from 'ethers';
import { ChainRegistry } from '../../../chains';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { BackPressureError } from './send-errors';

/** How often a held transaction looks at the fee again: about a block on the chains we serve. */
export const GAS_HOLD_RECHECK_MS = 1_000;

/**
 * A sponsorship policy's `maxGasPriceGwei`: while the chain's fee (the latest block's base fee,
 * or the gas price where there is none) is above the transaction's cap, its send waits, before
 * any key or nonce is taken, so it holds nothing another transaction needs. The wait is
 * back-pressure (no retry counted); its `validUntil` ends it as FAILED `expired` (the send and
 * the reconciler's expiry already do that for a transaction that was never sent).
 */
@Injectable()
export class GasPriceHold {
  constructor(private readonly chains: ChainRegistry) {}

  async check(tx: Pick<RelayTransactionEntity, 'chainId' | 'maxGasPriceWei'>): Promise<void> {
    if (tx.maxGasPriceWei === null || tx.maxGasPriceWei === undefined) return;
    const cap = BigInt(tx.maxGasPriceWei);
    const provider = this.chains.provider(tx.chainId);
    const block = await provider.getBlock('latest');
    const fee = block?.baseFeePerGas ?? BigInt(await provider.send('eth_gasPrice', []));
    if (fee > cap) throw new BackPressureError(`held: the chain's fee ${formatUnits(fee, 'gwei')} gwei is above the policy's maxGasPriceGwei ${formatUnits(cap, 'gwei')}`, GAS_HOLD_RECHECK_MS);
  }
}
