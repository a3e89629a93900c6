import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { VaultPositionEntity } from '../entities/vault-position.entity';

export interface ShareMovement {
  vault: string;
  venueId: string;
  asset: string;
  assets: bigint;
  shares: bigint;
}

/** Positions per (user EOA, chain, vault): shares and their cost basis in asset units. */
@Injectable()
export class PositionsService {
  async recordDeposit(em: EntityManager, user: string, chainId: number, movement: ShareMovement): Promise<void> {
    await em.query(
      `INSERT INTO vault_positions (user_address, chain_id, vault, venue_id, asset, shares, cost_basis)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (user_address, chain_id, vault) DO UPDATE
       SET shares = vault_positions.shares + EXCLUDED.shares, cost_basis = vault_positions.cost_basis + EXCLUDED.cost_basis, updated_at = now()`,
      [user, chainId, movement.vault, movement.venueId, movement.asset, movement.shares.toString(), movement.assets.toString()],
    );
  }

  /** Average-cost: redeeming a fraction of the shares removes that fraction of the cost basis. */
  async recordWithdrawal(em: EntityManager, user: string, chainId: number, movement: ShareMovement): Promise<void> {
    const row = await em
      .getRepository(VaultPositionEntity)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.user_address = :user AND p.chain_id = :chainId AND p.vault = :vault', { user, chainId, vault: movement.vault })
      .getOne();
    if (!row) return; // Shares bought outside the service: there is no cost basis of ours to reduce.
    const held = BigInt(row.shares);
    const redeemed = movement.shares < held ? movement.shares : held;
    const cost = BigInt(row.costBasis);
    const reduction = held === 0n ? cost : (cost * redeemed) / held;
    await em.query(`UPDATE vault_positions SET shares = $4, cost_basis = $5, updated_at = now() WHERE user_address = $1 AND chain_id = $2 AND vault = $3`, [
      user,
      chainId,
      movement.vault,
      (held - redeemed).toString(),
      (cost - reduction).toString(),
    ]);
  }
}
