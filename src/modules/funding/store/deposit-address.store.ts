import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

/** Every statement on `deposit_addresses` (one deposit address per account). */
@Injectable()
export class DepositAddressStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async find(userId: string): Promise<string | null> {
    const row = await this.first<{ address: string }>(sql`SELECT address FROM deposit_addresses WHERE user_id = ${userId}`);
    return row?.address ?? null;
  }

  /** Records the account's address (idempotent: the same account always derives the same one). */
  async record(userId: string, address: string): Promise<void> {
    await this.rows(sql`INSERT INTO deposit_addresses (user_id, address) VALUES (${userId}, ${address}) ON CONFLICT (user_id) DO NOTHING`);
  }

  /** Every recorded address and its account (the watcher's filter). */
  async all(): Promise<Map<string, string>> {
    const rows = await this.rows<{ user_id: string; address: string }>(sql`SELECT user_id, address FROM deposit_addresses`);
    return new Map(rows.map((r) => [r.address, r.user_id]));
  }

  /** Changes whenever an address is recorded: a pass that saw it change must not move its cursor. */
  async version(): Promise<string> {
    const row = await this.first<{ v: string }>(sql`SELECT count(*)::text || ':' || COALESCE(max(created_at)::text, '') AS v FROM deposit_addresses`);
    return row?.v ?? '';
  }

  async ownerOf(address: string): Promise<string | null> {
    const row = await this.first<{ user_id: string }>(sql`SELECT user_id FROM deposit_addresses WHERE address = ${address.toLowerCase()}`);
    return row?.user_id ?? null;
  }
}
