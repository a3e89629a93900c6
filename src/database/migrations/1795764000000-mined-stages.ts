import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stage is the whole state of a relayed transaction (src/modules/relay/core/stage.ts): a
 * settled row not yet at its chain's confirmation depth is in a `mined_*` stage (a reorg moves it
 * between them), and finality is the move to its final stage (`finalized_at` stays as that move's
 * time). Rows settled and not yet final get the mined stage of their outcome; the public status
 * does not change.
 */
export class MinedStages1795764000000 implements MigrationInterface {
  name = 'MinedStages1795764000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE relay_transactions DROP CONSTRAINT relay_transactions_stage_status`);
    await q.query(`UPDATE relay_transactions SET stage = 'mined_' || CASE stage WHEN 'failed' THEN 'cancelled' ELSE stage END
                    WHERE finalized_at IS NULL AND receipt IS NOT NULL AND stage IN ('executed', 'reverted', 'failed')`);
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_stage_status CHECK (
        (stage IN ('accepted', 'signed', 'broadcast') AND status = 'PENDING')
        OR (stage IN ('executed', 'mined_executed') AND status = 'EXECUTED')
        OR (stage IN ('reverted', 'failed', 'mined_reverted', 'mined_cancelled') AND status = 'FAILED'))`);
    await q.query(`DROP INDEX relay_transactions_unfinalized_idx`);
    await q.query(`CREATE INDEX relay_transactions_mined_idx ON relay_transactions (chain_id) WHERE stage IN ('mined_executed', 'mined_reverted', 'mined_cancelled')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX relay_transactions_mined_idx`);
    await q.query(`CREATE INDEX relay_transactions_unfinalized_idx ON relay_transactions (chain_id) WHERE finalized_at IS NULL AND receipt IS NOT NULL`);
    await q.query(`ALTER TABLE relay_transactions DROP CONSTRAINT relay_transactions_stage_status`);
    // Not final yet: `finalized_at` is still NULL on these rows, which is what the old code follows.
    await q.query(`UPDATE relay_transactions SET stage = CASE stage WHEN 'mined_executed' THEN 'executed' WHEN 'mined_reverted' THEN 'reverted' ELSE 'failed' END
                    WHERE stage IN ('mined_executed', 'mined_reverted', 'mined_cancelled')`);
    await q.query(`ALTER TABLE relay_transactions ADD CONSTRAINT relay_transactions_stage_status CHECK (
        (stage IN ('accepted', 'signed', 'broadcast') AND status = 'PENDING')
        OR (stage = 'executed' AND status = 'EXECUTED')
        OR (stage IN ('reverted', 'failed') AND status = 'FAILED'))`);
  }
}
