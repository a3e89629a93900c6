import { JsonRpcProvider } from 'ethers';
import { FeeSettings } from './fees';

/**
 * Current fees: EIP-1559 with maxFee = 2 × baseFee + priority (survives six full blocks of
 * base-fee growth) where the chain has a base fee, else the legacy gas price.
 */
export async function marketFees(provider: JsonRpcProvider, type: FeeSettings['type'] | 'auto' = 'auto'): Promise<FeeSettings> {
  const block = type === 'legacy' ? null : await provider.getBlock('latest');
  if (type === 'legacy' || block?.baseFeePerGas === null || block?.baseFeePerGas === undefined) {
    return { type: 'legacy', gasPrice: BigInt(await provider.send('eth_gasPrice', [])) };
  }
  const priority = BigInt(await provider.send('eth_maxPriorityFeePerGas', []).catch(() => '0x3b9aca00'));
  return { type: 'eip1559', maxFeePerGas: block.baseFeePerGas * 2n + priority, maxPriorityFeePerGas: priority };
}
