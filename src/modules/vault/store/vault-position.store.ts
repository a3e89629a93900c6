import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';
import type { ShareMovement } from '../domain/vault-types';

export interface Holding {
  shares: string;
  costBasis: string;
}

/** The `vault_positions` table: shares and cost basis per (user EOA, chain, vault). */
@Injectable()
export class VaultPositionStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** An EOA's positions that still hold shares, on one chain or all. */
  listHeld(user: string, chainId?: number): Promise<Array<{ chainId: number; vault: string; venueId: string; asset: string; shares: string; costBasis: string }>> {
    return this.rows(
      sql`SELECT chain_id AS "chainId", vault, venue_id AS "venueId", asset, shares::text AS shares, cost_basis::text AS "costBasis"
          FROM vault_positions
          WHERE user_address = ${user} AND shares > 0 ${chainId === undefined ? sql`` : sql`AND chain_id = ${chainId}`}
          ORDER BY chain_id, vault`,
    );
  }

  async addDeposit(user: string, chainId: number, movement: ShareMovement, em: EntityManager): Promise<void> {
    await this.rows(
      sql`INSERT INTO vault_positions (user_address, chain_id, vault, venue_id, asset, shares, cost_basis)
          VALUES (${user}, ${chainId}, ${movement.vault}, ${movement.venueId}, ${movement.asset}, ${movement.shares}, ${movement.assets})
          ON CONFLICT (user_address, chain_id, vault) DO UPDATE
          SET shares = vault_positions.shares + EXCLUDED.shares, cost_basis = vault_positions.cost_basis + EXCLUDED.cost_basis, updated_at = now()`,
      em,
    );
  }

  /** The position, locked for the rest of `em`'s transaction; undefined when there is none. */
  lockHolding(user: string, chainId: number, vault: string, em: EntityManager): Promise<Holding | undefined> {
    return this.first<Holding>(sql`SELECT shares, cost_basis AS "costBasis" FROM vault_positions WHERE user_address = ${user} AND chain_id = ${chainId} AND vault = ${vault} FOR UPDATE`, em);
  }

  async setHolding(user: string, chainId: number, vault: string, shares: bigint, costBasis: bigint, em: EntityManager): Promise<void> {
    await this.rows(
      sql`UPDATE vault_positions SET shares = ${shares}, cost_basis = ${costBasis}, updated_at = now() WHERE user_address = ${user} AND chain_id = ${chainId} AND vault = ${vault}`,
      em,
    );
  }
}
