import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { VaultPositionStore } from '../store/vault-position.store';
import type { ShareMovement } from './vault-types';

/** Positions per (user EOA, chain, vault): shares and their cost basis in asset units. */
@Injectable()
export class PositionsService {
  constructor(private readonly positions: VaultPositionStore) {}

  async recordDeposit(em: EntityManager, user: string, chainId: number, movement: ShareMovement): Promise<void> {
    await this.positions.addDeposit(user, chainId, movement, em);
  }

  /** Average-cost: redeeming a fraction of the shares removes that fraction of the cost basis. */
  async recordWithdrawal(em: EntityManager, user: string, chainId: number, movement: ShareMovement): Promise<void> {
    const row = await this.positions.lockHolding(user, chainId, movement.vault, em);
    if (!row) return; // Shares bought outside the service: there is no cost basis of ours to reduce.
    const held = BigInt(row.shares);
    const redeemed = movement.shares < held ? movement.shares : held;
    const cost = BigInt(row.costBasis);
    const reduction = held === 0n ? cost : (cost * redeemed) / held;
    await this.positions.setHolding(user, chainId, movement.vault, held - redeemed, cost - reduction, em);
  }
}
