#!/usr/bin/env node
import 'reflect-metadata';
import { migrateDatabase } from '../database/migrate';

/**
 * `node dist/cli/migrate.js`: applies the pending migrations under the advisory lock and exits
 * (0 done or nothing to do, 1 failed). The Kubernetes migration Job and compose's `migrate`
 * service run it; it reads only DATABASE_URL, so it needs none of the API's other secrets.
 */
async function main(): Promise<number> {
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\/.+/.test(url)) {
    console.error('DATABASE_URL must be a postgres:// URL');
    return 1;
  }
  const started = Date.now();
  await migrateDatabase(url, (line) => console.log(`migrate: ${line}`));
  console.log(`migrate: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`migrate: failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
