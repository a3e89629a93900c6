import { Injectable, Logger } from '@nestjs/common';
import { bumpFees } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { txFees } from '../../core/signed-request';
import { TRANSFER_GAS } from '../../intake/estimator.service';
import { ChainIo } from '../node/chain-io.service';

/** Fills a nonce that no transaction will use (its transaction failed before reaching the chain) with a no-op self-transfer. */
@Injectable()
export class NonceFiller {
  private readonly logger = new Logger(NonceFiller.name);

  constructor(private readonly chain: ChainIo) {}

  async fill(chainId: number, signer: RelaySigner, nonce: bigint): Promise<void> {
    const fees = bumpFees(await this.chain.marketFees(chainId, 'eip1559'), 20);
    const raw = await signer.signTransaction({ ...txFees(fees), chainId, nonce: Number(nonce), to: signer.address, value: 0n, gasLimit: TRANSFER_GAS });
    const outcome = await this.chain.broadcast(chainId, raw);
    if (outcome === 'sent') this.logger.warn(`filled nonce ${nonce} of ${signer.address} on ${chainId} with a no-op transfer`);
    else if (outcome !== 'nonce-used') this.logger.error(`could not fill nonce ${nonce} of ${signer.address} on ${chainId}: ${outcome}`);
  }
}
