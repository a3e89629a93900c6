#!/usr/bin/env node
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { buildAdminProgram, CommanderError, UsageError } from './admin-program';

function describeError(err: unknown): string {
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** relay-admin: the operator CLI of decisions.md. Exit 0 on success, 1 on failure, 2 on bad usage. */
async function main(argv: string[]): Promise<number> {
  let app: INestApplicationContext | undefined;
  const program = buildAdminProgram(
    async () => {
      // Loaded only when a command runs: help and usage errors answer at once and touch no database.
      const [{ NestFactory }, { AdminCliModule, AdminAuditCliModule }, { AccountsService }, { LedgerService }, { WebhookDeadLetters }, { AdminAuditLog }, { RelayerKeyStore }] = await Promise.all([
        import('@nestjs/core'),
        import('./admin-cli.module'),
        import('../modules/accounts/domain/accounts.service'),
        import('../modules/accounts/domain/ledger.service'),
        import('../modules/webhooks/admin/dead-letters.service'),
        import('../modules/accounts/admin/audit/admin-audit-log.service'),
        import('../modules/relay/store/relayer-key.store'),
      ]);
      // Only the audit commands connect to the chains (ChainsModule probes every chain at start).
      const audits = argv.includes('audit');
      const context = await NestFactory.createApplicationContext(audits ? AdminAuditCliModule : AdminCliModule, { logger: ['error'] });
      app = context;
      const chainAudit = async () => {
        if (!audits) throw new Error('chain audit is not loaded for this command');
        const { ChainAuditService } = await import('../modules/relay/audit/chain-audit.service');
        return context.get(ChainAuditService);
      };
      return { accounts: context.get(AccountsService), ledger: context.get(LedgerService), deadLetters: context.get(WebhookDeadLetters), audit: context.get(AdminAuditLog), relayerKeys: context.get(RelayerKeyStore), chainAudit };
    },
    (result, json) => console.log(json ? JSON.stringify(result) : JSON.stringify(result, null, 2)),
  );
  try {
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      return 2;
    }
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version are "errors" to exitOverride; commander has printed what it had to.
      return err.exitCode === 0 ? 0 : 2;
    }
    console.error(describeError(err));
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await app?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(describeError(err));
    process.exit(1);
  },
);
