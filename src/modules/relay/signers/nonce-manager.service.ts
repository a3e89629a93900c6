import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { returningRows } from '../../../database/returning-rows';
import { ChainRegistry } from '../../chains/domain/chain-registry.service';

/**
 * Nonces per (chain, signer) allocated from a database row, so any number of workers can sign
 * for the same key with many transactions in flight: the allocating UPDATE holds the row
 * lock until the caller's transaction (which stores the signed transaction) commits.
 */
@Injectable()
export class NonceManager {
  private readonly logger = new Logger(NonceManager.name);
  private readonly known = new Set<string>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chains: ChainRegistry,
  ) {}

  /** Next nonce for the signer (updated_at marks the last allocation, which gap detection reads); call inside the transaction that records the signed transaction. */
  async allocate(em: EntityManager, chainId: number, address: string): Promise<bigint> {
    const lower = address.toLowerCase();
    await this.ensureRow(chainId, lower);
    const rows = returningRows<{ nonce: string }>(
      await em.query(
      `UPDATE signer_nonces SET next_nonce = next_nonce + 1, updated_at = now()
        WHERE chain_id = $1 AND address = $2 RETURNING next_nonce - 1 AS nonce`,
        [chainId, lower],
      ),
    );
    return BigInt(rows[0].nonce);
  }

  /**
   * Moves the counter up to the chain's pending nonce when the chain is ahead (keys used
   * elsewhere, a database restored from backup). Never moves it down: nonces above the chain's
   * belong to signed transactions the reconciler rebroadcasts or fills.
   */
  async resync(chainId: number, address: string): Promise<{ database: bigint; chain: bigint }> {
    const lower = address.toLowerCase();
    const chainNonce = BigInt(await this.chains.provider(chainId).getTransactionCount(lower, 'pending'));
    const rows = returningRows<{ next_nonce: string }>(
      await this.dataSource.query(
      `INSERT INTO signer_nonces (chain_id, address, next_nonce) VALUES ($1, $2, $3)
       ON CONFLICT (chain_id, address) DO UPDATE SET next_nonce = GREATEST(signer_nonces.next_nonce, EXCLUDED.next_nonce),
         updated_at = CASE WHEN EXCLUDED.next_nonce > signer_nonces.next_nonce THEN now() ELSE signer_nonces.updated_at END
       RETURNING next_nonce`,
        [chainId, lower, chainNonce.toString()],
      ),
    );
    this.known.add(`${chainId}:${lower}`);
    const database = BigInt(rows[0].next_nonce);
    if (database > chainNonce) this.logger.log(`signer ${lower} on ${chainId}: ${database - chainNonce} nonce(s) in flight above the chain's ${chainNonce}`);
    return { database, chain: chainNonce };
  }

  private async ensureRow(chainId: number, lower: string): Promise<void> {
    if (this.known.has(`${chainId}:${lower}`)) return;
    await this.resync(chainId, lower);
  }
}
