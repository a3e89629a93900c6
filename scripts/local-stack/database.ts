import { Client } from 'pg';

/**
 * The mark the local stack leaves on a database it created (`COMMENT ON DATABASE`, kept by the
 * server outside the database's own schema, not copied by `CREATE DATABASE … TEMPLATE`).
 * Only a database carrying it is ever dropped by `npm start`.
 */
export const LOCAL_STACK_MARK = 'gas-relay local stack: created by npm start, recreated with fresh chains';

/** `npm start` needed a fresh database but the one named is not its own. */
export class DatabaseNotOwnedError extends Error {}

interface Target {
  name: string;
  admin: Client;
  where: string;
}

function target(url: string): Target {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`refusing unusual database name ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  return { name, admin: new Client({ connectionString: admin.toString() }), where: `${parsed.hostname}:${parsed.port || 5432}` };
}

async function withAdmin<T>(url: string, run: (client: Client, name: string, where: string) => Promise<T>): Promise<T> {
  const { name, admin, where } = target(url);
  await admin.connect();
  try {
    return await run(admin, name, where);
  } finally {
    await admin.end();
  }
}

async function createMarked(client: Client, name: string): Promise<void> {
  await client.query(`CREATE DATABASE "${name}"`);
  await client.query(`COMMENT ON DATABASE "${name}" IS '${LOCAL_STACK_MARK}'`);
}

/**
 * The local stack's database step. Creates the database named in `url` if it does not exist
 * (marked as the local stack's own). With `recreate` (fresh chains make the old rows
 * meaningless) it drops and recreates it, but only if it carries the mark; a database created
 * any other way is left untouched and the call fails with a message naming `variable`.
 */
export async function ensureDatabase(url: string, { recreate = false, variable = 'DATABASE_URL' } = {}): Promise<void> {
  await withAdmin(url, async (client, name, where) => {
    const found = await client.query<{ mark: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS mark FROM pg_database WHERE datname = $1`,
      [name],
    );
    if (found.rowCount === 0) return createMarked(client, name);
    if (!recreate) return;
    if (found.rows[0].mark !== LOCAL_STACK_MARK) {
      throw new DatabaseNotOwnedError(
        `${variable} names the database "${name}" on ${where}, which npm start did not create, so it will not drop it. ` +
          `The chains start fresh, so the relay needs a fresh database: set ${variable} to a database name that does not exist yet ` +
          `(npm start creates it and may recreate it later), or drop "${name}" yourself if its contents are disposable.`,
      );
    }
    await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await createMarked(client, name);
  });
}

/**
 * Drops and recreates the database named in `url`, whatever it holds. Only for databases a tool
 * names through its own variable (TEST_DATABASE_URL, BENCH_DATABASE_URL), never DATABASE_URL.
 */
export async function recreateDatabase(url: string): Promise<void> {
  await withAdmin(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
}
