import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { toAppError } from '../../../../common/errors/to-app-error';
import { AdminActionStart, AdminAuditRow, AdminAuditStore } from './admin-audit.store';
import { bodySummary, storable } from './body-summary';

/** Names the admin token without revealing it: enough to tell a rotated token's actions apart. */
export function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 12);
}

/** The operator running the CLI, as the OS knows them. */
export function cliActor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/** The status and catalog code an error answers with (the same mapping as the exception filter), for the record. */
export function outcomeOf(err: unknown): { status: number; errorCode: string } {
  const { error } = toAppError(err);
  return { status: error.status, errorCode: error.code };
}

/**
 * The admin audit log: every mutating admin action (REST through AdminAuditInterceptor, the CLI
 * through `record`) is written before it runs and completed with its outcome. Writing first
 * means an action the log cannot hold is not done at all (it fails with the database error).
 */
@Injectable()
export class AdminAuditLog {
  constructor(private readonly store: AdminAuditStore) {}

  start(entry: Omit<AdminActionStart, 'summary'> & { body?: unknown }): Promise<string> {
    const { body, ...rest } = entry;
    // The target comes from the path, which may hold what no column takes (a %00): recorded, not refused.
    const target = rest.target === null ? null : storable(rest.target).slice(0, 200);
    return this.store.start({ ...rest, action: storable(rest.action).slice(0, 200), target, summary: body === undefined ? null : bodySummary(body) });
  }

  finish(id: string, status: number, errorCode: string | null = null): Promise<void> {
    return this.store.finish(id, status, errorCode);
  }

  /** Runs `action` between its start and its outcome in the log (the CLI's commands). */
  async record<T>(
    entry: Omit<AdminActionStart, 'summary'> & { body?: unknown },
    action: () => Promise<T>,
    classify: (err: unknown) => { status: number; errorCode: string } = outcomeOf,
  ): Promise<T> {
    const id = await this.start(entry);
    try {
      const result = await action();
      await this.finish(id, 200);
      return result;
    } catch (err) {
      const { status, errorCode } = classify(err);
      await this.finish(id, status, errorCode);
      throw err;
    }
  }

  async page(limit: number, cursor: string | null): Promise<{ entries: AdminAuditRow[]; nextCursor: string | null }> {
    const entries = await this.store.page(limit, cursor);
    return { entries, nextCursor: entries.length === limit ? entries[entries.length - 1].id : null };
  }
}
