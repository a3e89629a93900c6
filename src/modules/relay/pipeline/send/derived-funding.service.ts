import { Injectable } from '@nestjs/common';
import { maxGasPrice } from '../../core/fees';
import { RelaySigner } from '../../core/signer-pool.service';
import { feesOf } from '../../core/signed-request';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { ChainIo } from '../node/chain-io.service';
import { TransientSendError } from './send-errors';
import { TopUpService } from './top-up.service';

/**
 * Tops a derived sender up from the region's pool just in time, so it holds the worst case of
 * its transaction and of the sender's other in-flight ones (rows funded at once would otherwise
 * each see the other's top-up and leave the key short); the transfer's gas is recorded on the
 * row and charged with the transaction.
 */
@Injectable()
export class DerivedFunding {
  constructor(
    private readonly chain: ChainIo,
    private readonly topUps: TopUpService,
    private readonly txs: RelayTransactionStore,
  ) {}

  async fund(tx: RelayTransactionEntity, derived: RelaySigner): Promise<void> {
    const fees = feesOf(tx);
    const own = BigInt(tx.gasLimit ?? '0') * maxGasPrice(fees) + BigInt(tx.value);
    const needed = own + (await this.txs.derivedInFlightWorstCase(tx));
    const balance = await this.chain.balance(tx.chainId, derived.address);
    if (balance >= needed) return;
    const { raw, hash } = await this.topUps.sign(tx.chainId, tx.submitRegion, derived.address, needed - balance, fees.type);
    const outcome = await this.chain.broadcast(tx.chainId, raw);
    if (outcome !== 'sent') throw new TransientSendError(`funding transfer to ${derived.address} failed (${outcome})`);
    const receipt = await this.chain.pollReceipt(tx.chainId, hash, 60_000);
    if (!receipt || receipt.status !== 1) throw new TransientSendError(`funding transfer ${hash} did not confirm`);
    const cost = receipt.gasUsed * receipt.effectiveGasPrice;
    await this.txs.addFundingCost(tx.id, cost);
    tx.fundingCostWei = (BigInt(tx.fundingCostWei) + cost).toString();
  }
}
