import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for how relay_broadcasts is read on the hot path. Partitioning moved the UNIQUE (hash)
 * constraint to relay_broadcast_hashes, which left the marks and settlement's lookups by hash
 * (`hash = ANY(...)`) scanning every partition: a full scan per batch of marks and per settled
 * transaction, growing with the month's volume. The nonce filler's `ownedNonces` (chain, sender,
 * nonce range) never had an index. On a partitioned table these are created on every partition
 * (no CONCURRENTLY on a partitioned parent: see docs/operations.md for a large table).
 */
export class BroadcastLookups1795765000000 implements MigrationInterface {
  name = 'BroadcastLookups1795765000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS relay_broadcasts_hash_idx ON relay_broadcasts (hash)`);
    await q.query(`CREATE INDEX IF NOT EXISTS relay_broadcasts_sender_nonce_idx ON relay_broadcasts (chain_id, sender, nonce)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX relay_broadcasts_sender_nonce_idx`);
    await q.query(`DROP INDEX relay_broadcasts_hash_idx`);
  }
}
