import { ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { recreateDatabase } from '../scripts/local-stack/database';
import { migrateDatabase } from '../src/database/migrate';
import { MIGRATIONS } from '../src/database/migrations';
import { testEnv } from './support/test-env';

const ROOT = join(__dirname, '..');
const TS_NODE = join(ROOT, 'node_modules/.bin/ts-node');
const run = promisify(execFile);
const base = new URL(testEnv().DATABASE_URL);
const urlOf = (suffix: string): string => {
  const url = new URL(base);
  url.pathname = `${base.pathname}_${suffix}`;
  return url.toString();
};
/** Every migration's name as TypeORM records it (class name). */
const ALL = MIGRATIONS.map((m) => m.name).sort();

async function recorded(url: string): Promise<string[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

/** Starts `src/main.ts` as its own process; resolves with its output once it listens, rejects if it exits first. */
function startApi(env: Record<string, string>): { child: ChildProcess; ready: Promise<string> } {
  const child = spawn(TS_NODE, ['--transpile-only', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('API listening')) resolve(output);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`the API exited with code ${code} before listening:\n${output}`)));
  });
  return { child, ready };
}

describe('migrations under the advisory lock', () => {
  it('concurrent runs through the function the app uses apply each migration once and all succeed', async () => {
    const url = urlOf('migrate_fn');
    await recreateDatabase(url);

    const runs = await Promise.allSettled([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);

    expect(runs.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    const applied = runs.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    expect([...applied].sort()).toEqual(ALL);
    expect(await recorded(url)).toEqual(ALL);
  });

  it('two API processes started at once on a fresh database both start and migrate once', async () => {
    const url = urlOf('migrate_api');
    await recreateDatabase(url);
    const env = { ...testEnv(), DATABASE_URL: url, DB_RUN_MIGRATIONS: 'true', APP_ROLE: 'api', PORT: '0', REDIS_PREFIX: 'relay-test-migrate' };

    const apis = [startApi(env), startApi(env)];
    try {
      const logs = await Promise.all(apis.map((a) => a.ready));

      // No failed migration and no retried connection (TypeORM's unlocked migrationsRun: a duplicate-key error, then Nest retries).
      for (const log of logs) expect(log).not.toMatch(/Migration .* failed|Unable to connect to the database/);
      expect(await recorded(url)).toEqual(ALL);
      // One of them applied all the migrations, the other found none pending.
      const appliedBy = logs.filter((log) => log.includes(`applied ${ALL.length} migration(s)`));
      const upToDate = logs.filter((log) => log.includes('schema up to date'));
      expect([appliedBy.length, upToDate.length]).toEqual([1, 1]);
    } finally {
      for (const api of apis) api.child.kill('SIGTERM');
    }
  }, 180_000);

  it('the migrate command applies the pending migrations, then finds none, and needs only DATABASE_URL', async () => {
    const url = urlOf('migrate_cli');
    await recreateDatabase(url);
    const cli = (env: Record<string, string>) =>
      run(TS_NODE, ['--transpile-only', 'src/cli/migrate.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 90_000 });

    const [first, second] = await Promise.all([cli({ DATABASE_URL: url }), cli({ DATABASE_URL: url })]);

    const outputs = [first.stdout, second.stdout];
    expect(outputs.filter((o) => o.includes(`migrate: applied ${ALL.length} migration(s)`))).toHaveLength(1);
    expect(outputs.filter((o) => o.includes('migrate: schema up to date'))).toHaveLength(1);
    expect(await recorded(url)).toEqual(ALL);

    await expect(cli({})).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('DATABASE_URL') });
  }, 120_000);

  afterAll(async () => {
    const admin = new URL(base);
    admin.pathname = '/postgres';
    const client = new Client({ connectionString: admin.toString() });
    await client.connect();
    for (const suffix of ['migrate_fn', 'migrate_api', 'migrate_cli']) {
      await client.query(`DROP DATABASE IF EXISTS "${decodeURIComponent(new URL(urlOf(suffix)).pathname.slice(1))}" WITH (FORCE)`);
    }
    await client.end();
  });
});
