import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, DeepPartial, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import { OrderStatus, VaultOrderEntity } from '../entities/vault-order.entity';
import { managerOf, UnitOfWork } from '../../../database/unit-of-work';

/** The `vault_orders` table: an order follows its relayed transaction from relaying to confirmed or failed. */
@Injectable()
export class VaultOrderStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Written in the relay row's transaction (`work`), so an accepted submission always has its order. */
  open(order: DeepPartial<VaultOrderEntity>, work: UnitOfWork): Promise<VaultOrderEntity> {
    return managerOf(work).getRepository(VaultOrderEntity).save(order);
  }

  find(id: string): Promise<VaultOrderEntity | null> {
    return this.manager().findOneBy(VaultOrderEntity, { id });
  }

  findOfAccount(id: string, accountId: string): Promise<VaultOrderEntity | null> {
    return this.manager().findOneBy(VaultOrderEntity, { id, accountId });
  }

  async relayingIds(): Promise<string[]> {
    return (await this.rows<{ id: string }>(sql`SELECT id FROM vault_orders WHERE status = 'relaying'`)).map((r) => r.id);
  }

  async relayingIdsOfRelayTx(relayTxId: string): Promise<string[]> {
    return (await this.rows<{ id: string }>(sql`SELECT id FROM vault_orders WHERE relay_tx_id = ${relayTxId} AND status = 'relaying'`)).map((r) => r.id);
  }

  /** The hash of the relayed transaction while it is not final (it may still be replaced). */
  async noteExecutionHash(id: string, hash: string): Promise<void> {
    await this.rows(sql`UPDATE vault_orders SET execution_tx_hash = ${hash}, updated_at = now() WHERE id = ${id} AND status = 'relaying'`);
  }

  /** Locks the order row for the rest of `em`'s transaction and reads its status. */
  async lockStatus(id: string, em: EntityManager): Promise<OrderStatus> {
    const locked = await this.first<{ status: OrderStatus }>(sql`SELECT status FROM vault_orders WHERE id = ${id} FOR UPDATE`, em);
    return locked!.status;
  }

  async finish(id: string, status: OrderStatus, hash: string | null, reason: string | null, em: EntityManager): Promise<void> {
    await this.rows(sql`UPDATE vault_orders SET status = ${status}, execution_tx_hash = ${hash}, failure_reason = ${reason}, updated_at = now() WHERE id = ${id}`, em);
  }
}
