import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sql } from '../../../../database/sql';
import { SqlStore } from '../../../../database/sql-store';

export interface AdminActionStart {
  /** `admin:<token fingerprint>` for REST, `cli:<os user>` for the CLI. */
  actor: string;
  source: 'rest' | 'cli';
  /** `PATCH /admin/accounts/:address/limits`, or the CLI command (`accounts limits`). */
  action: string;
  /** What the action is about: an address, a key id, a delivery id. */
  target: string | null;
  /** The request without its secrets (body-summary.ts). */
  summary: unknown;
  ip: string | null;
}

export interface AdminAuditRow extends AdminActionStart {
  id: string;
  at: Date;
  /** HTTP status of the outcome (the CLI maps its errors the same way); null while running, or when the process died midway. */
  status: number | null;
  errorCode: string | null;
  finishedAt: Date | null;
}

/** Every statement on `admin_audit_log`: append a started action, complete it, page through newest first. */
@Injectable()
export class AdminAuditStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  async start(entry: AdminActionStart): Promise<string> {
    const row = await this.first<{ id: string }>(
      sql`INSERT INTO admin_audit_log (actor, source, action, target, summary, ip)
          VALUES (${entry.actor}, ${entry.source}, ${entry.action}, ${entry.target}, ${entry.summary === undefined ? null : JSON.stringify(entry.summary)}::jsonb, ${entry.ip})
          RETURNING id::text AS id`,
    );
    return row!.id;
  }

  async finish(id: string, status: number, errorCode: string | null): Promise<void> {
    await this.rows(sql`UPDATE admin_audit_log SET status = ${status}, error_code = ${errorCode}, finished_at = now() WHERE id = ${id}::bigint AND finished_at IS NULL`);
  }

  /** Newest first; `before` is the id of the last row of the previous page. */
  page(limit: number, before: string | null): Promise<AdminAuditRow[]> {
    // Ordered by the table's bigint id, not the text `id` the SELECT names (ORDER BY would take that).
    return this.rows<AdminAuditRow>(
      sql`SELECT id::text AS id, at, actor, source, action, target, summary, ip, status, error_code AS "errorCode", finished_at AS "finishedAt"
            FROM admin_audit_log
           WHERE (${before}::bigint IS NULL OR id < ${before}::bigint)
           ORDER BY admin_audit_log.id DESC LIMIT ${limit}`,
    );
  }
}
