import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pipeline stage of each relayed transaction (src/modules/relay/core/stage.ts), the moments
 * it entered its stages, and which feature relayed it (so outcomes reach that feature as typed
 * events instead of by label). Existing rows get the stage their columns imply.
 */
export class RelayStages1764400000000 implements MigrationInterface {
  name = 'RelayStages1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions
      ADD COLUMN stage varchar(16),
      ADD COLUMN signed_at timestamptz,
      ADD COLUMN broadcast_at timestamptz,
      ADD COLUMN settled_at timestamptz,
      ADD COLUMN origin varchar(16)`);
    await q.query(`UPDATE relay_transactions t SET stage = CASE
        WHEN t.status = 'EXECUTED' THEN 'executed'
        WHEN t.status = 'FAILED' AND t.receipt IS NOT NULL THEN 'reverted'
        WHEN t.status = 'FAILED' THEN 'failed'
        WHEN t.nonce IS NULL THEN 'accepted'
        WHEN EXISTS (SELECT 1 FROM relay_broadcasts b WHERE b.tx_id = t.id AND b.broadcast_at IS NOT NULL) THEN 'broadcast'
        ELSE 'signed' END,
      settled_at = CASE WHEN t.status <> 'PENDING' THEN t.updated_at END`);
    await q.query(`UPDATE relay_transactions SET origin = split_part(label, ':', 1) WHERE label LIKE 'vault-%:%' OR label LIKE 'gasless:%'`);
    await q.query(`UPDATE relay_transactions SET origin = 'vault' WHERE origin LIKE 'vault-%'`);
    await q.query(`ALTER TABLE relay_transactions ALTER COLUMN stage SET NOT NULL`);
    // The public status is a function of the stage; the database refuses a row where they disagree.
    // No index on stage: a move between in-flight stages then changes no indexed column, so the
    // claim and the broadcast marks stay HOT updates; in-flight lookups use (status, created_at).
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_stage_status CHECK (
        (stage IN ('accepted', 'signed', 'broadcast') AND status = 'PENDING')
        OR (stage = 'executed' AND status = 'EXECUTED')
        OR (stage IN ('reverted', 'failed') AND status = 'FAILED'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions DROP CONSTRAINT relay_transactions_stage_status`);
    await q.query(`ALTER TABLE relay_transactions DROP COLUMN stage, DROP COLUMN signed_at, DROP COLUMN broadcast_at, DROP COLUMN settled_at, DROP COLUMN origin`);
  }
}
