import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ChainRegistry } from '../../chains';
import { TxQueryService } from '../../relay';
import { VaultOrderEntity, OrderStatus } from '../entities/vault-order.entity';
import { VaultOrderStore } from '../store/vault-order.store';
import { ERC4626_IFACE } from './vault-abi';
import { PositionsService } from './positions.service';
import type { ShareMovement } from './vault-types';

/**
 * Moves an order from relaying to confirmed or failed once its relayed transaction is final.
 * Idempotent and safe to race (API GET, signal listener, durable job): the order row is locked
 * and only a relaying order changes.
 */
@Injectable()
export class OrderTracker {
  private readonly logger = new Logger(OrderTracker.name);

  constructor(
    private readonly orders: VaultOrderStore,
    private readonly txs: TxQueryService,
    private readonly chains: ChainRegistry,
    private readonly positions: PositionsService,
  ) {}

  async track(orderId: string): Promise<OrderStatus> {
    const order = await this.orders.find(orderId);
    if (!order) return 'failed';
    if (order.status !== 'relaying') return order.status;
    const tx = await this.txs.get(order.relayTxId);
    if (tx.status === 'PENDING') {
      if (tx.executionTxHash && tx.executionTxHash !== order.executionTxHash) {
        await this.orders.noteExecutionHash(order.id, tx.executionTxHash);
      }
      return 'relaying';
    }
    if (tx.status === 'FAILED' || !tx.executionTxHash) {
      return this.finish(order, 'failed', tx.executionTxHash, tx.revertReason ?? tx.error ?? 'relayed transaction failed');
    }
    // A call to an EOA that is not delegated succeeds without doing anything: only the vault
    // events prove the settlement happened.
    const movements = await this.movements(order, tx.executionTxHash);
    if (movements.length === 0) {
      return this.finish(order, 'failed', tx.executionTxHash, `transaction executed but no vault ${order.kind === 'deposit' ? 'deposit' : 'withdrawal'} happened (was the EOA delegated?)`);
    }
    return this.finish(order, 'confirmed', tx.executionTxHash, null, async (em) => {
      for (const movement of movements) {
        if (order.kind === 'deposit') await this.positions.recordDeposit(em, order.userAddress, order.chainId, movement);
        else await this.positions.recordWithdrawal(em, order.userAddress, order.chainId, movement);
      }
    });
  }

  private async finish(order: VaultOrderEntity, status: OrderStatus, hash: string | null, reason: string | null, apply?: (em: EntityManager) => Promise<void>): Promise<OrderStatus> {
    return this.orders.transaction(async (em) => {
      const current = await this.orders.lockStatus(order.id, em);
      if (current !== 'relaying') return current;
      if (apply) await apply(em);
      await this.orders.finish(order.id, status, hash, reason, em);
      this.logger.log(`vault order ${order.id} ${status}${reason ? `: ${reason}` : ''}`);
      return status;
    });
  }

  /** Deposit / Withdraw events of the order's vaults that moved the user's shares. */
  private async movements(order: VaultOrderEntity, hash: string): Promise<ShareMovement[]> {
    const receipt = await this.chains.provider(order.chainId).getTransactionReceipt(hash);
    if (!receipt) throw new Error(`receipt of ${hash} not available yet`);
    const out: ShareMovement[] = [];
    for (const log of receipt.logs) {
      const leg = order.allocation.find((l) => l.vault === log.address.toLowerCase());
      if (!leg) continue;
      const parsed = ERC4626_IFACE.parseLog(log);
      if (!parsed) continue;
      const owner = String(parsed.args.owner).toLowerCase();
      if (owner !== order.userAddress) continue;
      if ((order.kind === 'deposit' && parsed.name === 'Deposit') || (order.kind === 'withdraw' && parsed.name === 'Withdraw')) {
        out.push({ vault: leg.vault, venueId: leg.venueId, asset: order.asset, assets: parsed.args.assets as bigint, shares: parsed.args.shares as bigint });
      }
    }
    return out;
  }
}
