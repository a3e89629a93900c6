import { Injectable } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { ChainRegistry } from '../../../chains';
import { TRANSFER_GAS } from '../../intake/estimator.service';
import { FeeSettings, maxGasPrice } from '../../core/fees';
import { FeeOracle } from '../../core/fee-oracle.service';
import { marketFees } from '../../core/market-fees';
import { NonceManager } from '../keys/nonce-manager.service';
import { SignerPool } from '../../core/signer-pool.service';

export interface TopUp {
  hash: string;
  raw: string;
}

/**
 * Native-currency transfers from a region's relayer pool to an address that must pay its own
 * gas (derived senders, funding-signed senders). The nonce comes from the same allocator as
 * every relayed transaction, so pool keys never collide with themselves.
 */
@Injectable()
export class TopUpService {
  constructor(
    private readonly chains: ChainRegistry,
    private readonly signers: SignerPool,
    private readonly nonces: NonceManager,
    private readonly feeOracle: FeeOracle,
  ) {}

  /** Worst-case gas of a transfer at current fees (the estimates' shared read), without allocating a nonce. */
  async maxTransferGasWei(chainId: number): Promise<bigint> {
    return TRANSFER_GAS * maxGasPrice(await this.feeOracle.fees(chainId));
  }

  async sign(chainId: number, region: string, to: string, amountWei: bigint, type: FeeSettings['type'] | 'auto' = 'auto'): Promise<TopUp> {
    const pool = await this.signers.next(region, chainId);
    const fees = await marketFees(this.chains.provider(chainId), type);
    const feeFields = fees.type === 'legacy' ? { type: 0, gasPrice: fees.gasPrice } : { type: 2, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas };
    const { signed: raw } = await this.nonces.claim(chainId, pool.address, (nonce) =>
      pool.signTransaction({ ...feeFields, chainId, nonce: Number(nonce), to, value: amountWei, gasLimit: TRANSFER_GAS }),
    );
    return { hash: keccak256(raw), raw };
  }
}
