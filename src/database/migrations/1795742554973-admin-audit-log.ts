import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every mutating admin action (REST and CLI): who, what, on which target, from where, when and
 * with which outcome. The row is written before the action runs and completed after it, so an
 * action whose process died midway still shows (status null).
 */
export class AdminAuditLog1795742554973 implements MigrationInterface {
  name = 'AdminAuditLog1795742554973';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_audit_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor varchar(80) NOT NULL,
        source varchar(8) NOT NULL CHECK (source IN ('rest', 'cli')),
        action varchar(200) NOT NULL,
        target varchar(200),
        summary jsonb,
        ip varchar(64),
        status integer,
        error_code varchar(32),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX admin_audit_log_target_idx ON admin_audit_log (target, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_audit_log`);
  }
}
