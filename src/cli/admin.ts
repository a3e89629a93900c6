#!/usr/bin/env node
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AccountsService } from '../modules/accounts/domain/accounts.service';
import { LedgerService } from '../modules/accounts/domain/ledger.service';
import { WebhookDeadLetters } from '../modules/webhooks/admin/dead-letters.service';
import { AdminCliModule } from './admin-cli.module';
import { describeError, runAdminCommand, UsageError, USAGE } from './admin-commands';
import { parseArgs } from './parse-args';

/** relay-admin: the operator CLI of decisions.md. Exit 0 on success, 1 on failure, 2 on bad usage. */
async function main(): Promise<number> {
  const { words, flags } = parseArgs(process.argv.slice(2));
  if (words.length === 0 || flags.has('help')) {
    console.log(USAGE);
    return words.length === 0 && !flags.has('help') ? 2 : 0;
  }
  const app = await NestFactory.createApplicationContext(AdminCliModule, { logger: ['error'] });
  try {
    const result = await runAdminCommand(words, flags, app.get(AccountsService), app.get(LedgerService), app.get(WebhookDeadLetters));
    console.log(flags.has('json') ? JSON.stringify(result) : JSON.stringify(result, null, 2));
    return 0;
  } catch (err) {
    console.error(describeError(err));
    if (err instanceof UsageError) console.error(`\n${USAGE}`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(describeError(err));
    process.exit(1);
  },
);
