import { Injectable, Logger } from '@nestjs/common';
import { toQuantity } from 'ethers';
import { AppConfig } from '../../../../config/app-config';
import { ChainRegistry } from '../../../chains';
import { FeeSettings } from '../../core/fees';
import { marketFees } from '../../core/market-fees';
import { fromRpcReceipt, MinedReceipt } from '../../core/mined-receipt';
import { KeyEligibility } from '../../core/key-eligibility';
import { BroadcastOutcome, classifyBroadcastError } from './broadcast-error';
import { isOutOfFunds, senderOf } from './out-of-funds';
import { providerErrorDetail } from '../../../../common/evm/provider-error';

/** The pipeline's calls to a chain's node: broadcasts classified by outcome, receipts, pool and fee reads. */
@Injectable()
export class ChainIo {
  private readonly logger = new Logger(ChainIo.name);

  constructor(
    private readonly chains: ChainRegistry,
    private readonly config: AppConfig,
    private readonly eligibility: KeyEligibility,
  ) {}

  /**
   * 'sent' when a provider has the transaction (including "already known"); otherwise what the
   * refusal says. The provider layer sends the same bytes to every healthy provider.
   */
  async broadcast(chainId: number, raw: string): Promise<Exclude<BroadcastOutcome, 'known'> | 'sent'> {
    try {
      await this.chains.broadcast(chainId, raw);
      return 'sent';
    } catch (err) {
      const outcome = classifyBroadcastError(err);
      // An out-of-funds key takes no new work and is topped up now, instead of only being retried.
      const starved = isOutOfFunds(err) ? senderOf(raw) : null;
      if (starved) this.eligibility.reportStarved(chainId, starved);
      if (outcome !== 'known') this.logger.warn(`broadcast on ${chainId}: ${outcome}: ${providerErrorDetail(err)}`);
      return outcome === 'known' ? 'sent' : outcome;
    }
  }

  /** The receipt, or null when not mined (or the node could not say). */
  async receipt(chainId: number, hash: string): Promise<MinedReceipt | null> {
    const raw = await this.chains.provider(chainId).send('eth_getTransactionReceipt', [hash]).catch(() => null);
    return raw ? fromRpcReceipt(raw) : null;
  }

  /**
   * The receipt or null (not mined), read only from a provider at the chain's head; throws when
   * none can say (a "no receipt" it cannot trust is not turned into "not mined"). For the
   * decisions that may sign a row under another nonce.
   */
  async fateReceipt(chainId: number, hash: string): Promise<MinedReceipt | null> {
    const raw = await this.chains.provider(chainId).send('eth_getTransactionReceipt', [hash]);
    return raw ? fromRpcReceipt(raw) : null;
  }

  /** Polls for a receipt; ethers' waitForTransaction waits for a new block, which never comes on an idle automine chain. */
  async pollReceipt(chainId: number, hash: string, timeoutMs: number): Promise<MinedReceipt | null> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const receipt = await this.receipt(chainId, hash);
      if (receipt) return receipt;
      await new Promise((r) => setTimeout(r, this.config.RELAY_RECEIPT_POLL_MS));
    }
    return null;
  }

  /** The hash of the chain's block `number` as this node has it now, or null when it has none (yet). */
  async blockHash(chainId: number, number: number): Promise<string | null> {
    const block = (await this.chains.provider(chainId).send('eth_getBlockByNumber', [toQuantity(number), false])) as { hash?: string } | null;
    return block?.hash?.toLowerCase() ?? null;
  }

  /** The signer's nonce as of `block`: how many of its transactions were mined up to it. */
  async nonceAt(chainId: number, address: string, block: number): Promise<bigint> {
    return BigInt(await this.chains.provider(chainId).send('eth_getTransactionCount', [address, toQuantity(block)]));
  }

  /** The latest block's base fee (null on a chain without one). */
  async baseFee(chainId: number): Promise<bigint | null> {
    return (await this.chains.provider(chainId).getBlock('latest'))?.baseFeePerGas ?? null;
  }

  /** True when a node still holds one of the hashes (pending or mined). */
  async anyKnown(chainId: number, hashes: string[]): Promise<boolean> {
    const provider = this.chains.provider(chainId);
    for (const hash of hashes) {
      if (await provider.send('eth_getTransactionByHash', [hash])) return true;
    }
    return false;
  }

  async pendingNonce(chainId: number, address: string): Promise<bigint> {
    return BigInt(await this.chains.provider(chainId).getTransactionCount(address, 'pending'));
  }

  async balance(chainId: number, address: string): Promise<bigint> {
    return this.chains.provider(chainId).getBalance(address);
  }

  blockNumber(chainId: number): Promise<number> {
    return this.chains.provider(chainId).getBlockNumber();
  }

  marketFees(chainId: number, type: FeeSettings['type']): Promise<FeeSettings> {
    return marketFees(this.chains.provider(chainId), type);
  }
}
