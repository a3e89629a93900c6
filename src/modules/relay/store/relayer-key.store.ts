import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../database/sql';
import { SqlStore } from '../../../database/sql-store';

export type RelayerKeyState = 'active' | 'draining' | 'retired';

export interface RelayerKeyRow {
  address: string;
  region: string;
  signer: 'local' | 'pkcs11';
  state: RelayerKeyState;
  stateChangedAt: Date;
}

/** Every statement on `relayer_keys`: each relayer key's lifecycle state, shared by all processes. */
@Injectable()
export class RelayerKeyStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Rows for keys seen for the first time (active); known keys keep their state. */
  async register(keys: ReadonlyArray<{ address: string; region: string; signer: 'local' | 'pkcs11' }>): Promise<void> {
    if (keys.length === 0) return;
    await this.rows(
      sql`INSERT INTO relayer_keys (address, region, signer)
          SELECT * FROM unnest(${keys.map((k) => k.address.toLowerCase())}::varchar[], ${keys.map((k) => k.region)}::varchar[], ${keys.map((k) => k.signer)}::varchar[])
          ON CONFLICT (address) DO NOTHING`,
    );
  }

  async all(): Promise<RelayerKeyRow[]> {
    const rows = await this.rows<{ address: string; region: string; signer: 'local' | 'pkcs11'; state: RelayerKeyState; state_changed_at: Date }>(
      sql`SELECT address, region, signer, state, state_changed_at FROM relayer_keys`,
    );
    return rows.map((r) => ({ address: r.address, region: r.region, signer: r.signer, state: r.state, stateChangedAt: new Date(r.state_changed_at) }));
  }

  /** Moves a key to `to` from one of `from`; false when the key was in none of them. */
  async transition(address: string, from: readonly RelayerKeyState[], to: RelayerKeyState): Promise<boolean> {
    const rows = await this.rows(
      sql`UPDATE relayer_keys SET state = ${to}, state_changed_at = now()
          WHERE address = ${address.toLowerCase()} AND state = ANY(${[...from]}::varchar[]) RETURNING address`,
    );
    return rows.length > 0;
  }
}
