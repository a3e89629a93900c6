import { Client } from 'pg';
import { ensureDatabase } from '../scripts/local-stack/database';
import { testEnv } from './support/test-env';

/**
 * `npm start`'s database step (scripts/local-stack/start.ts calls `ensureDatabase(DATABASE_URL,
 * { recreate: !chainsAlive })`): with fresh chains it recreates only a database it created itself.
 */
const base = new URL(testEnv().DATABASE_URL);
const admin = (): Client => {
  const url = new URL(base);
  url.pathname = '/postgres';
  return new Client({ connectionString: url.toString() });
};
const urlOf = (name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};
const suffix = base.pathname.slice(1);
const FOREIGN = `${suffix}_foreign`;
const OWN = `${suffix}_own`;

async function onServer<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = admin();
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function inDatabase<T>(name: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: urlOf(name) });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const tableCount = (name: string): Promise<number> =>
  inDatabase(name, async (c) => Number((await c.query(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'operator_data'`)).rows[0].n));

describe('npm start: the database step', () => {
  beforeEach(() =>
    onServer(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${FOREIGN}" WITH (FORCE)`);
      await c.query(`DROP DATABASE IF EXISTS "${OWN}" WITH (FORCE)`);
    }),
  );
  afterAll(() =>
    onServer(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS "${FOREIGN}" WITH (FORCE)`);
      await c.query(`DROP DATABASE IF EXISTS "${OWN}" WITH (FORCE)`);
    }),
  );

  it('refuses to recreate a database it did not create, naming DATABASE_URL, and leaves its tables in place', async () => {
    await onServer((c) => c.query(`CREATE DATABASE "${FOREIGN}"`));
    await inDatabase(FOREIGN, async (c) => {
      await c.query('CREATE TABLE operator_data (id int PRIMARY KEY, note text)');
      await c.query(`INSERT INTO operator_data VALUES (1, 'keep me')`);
    });

    await expect(ensureDatabase(urlOf(FOREIGN), { recreate: true })).rejects.toThrow(/DATABASE_URL/);

    const rows = await inDatabase(FOREIGN, async (c) => (await c.query('SELECT note FROM operator_data')).rows);
    expect(rows).toEqual([{ note: 'keep me' }]);
  });

  it('reuses a database it did not create when no fresh start is needed', async () => {
    await onServer((c) => c.query(`CREATE DATABASE "${FOREIGN}"`));
    await inDatabase(FOREIGN, (c) => c.query('CREATE TABLE operator_data (id int)'));

    await ensureDatabase(urlOf(FOREIGN), { recreate: false });

    expect(await tableCount(FOREIGN)).toBe(1);
  });

  it('recreates a database it created itself', async () => {
    await ensureDatabase(urlOf(OWN));
    await inDatabase(OWN, (c) => c.query('CREATE TABLE operator_data (id int)'));
    expect(await tableCount(OWN)).toBe(1);

    await ensureDatabase(urlOf(OWN), { recreate: true });
    expect(await tableCount(OWN)).toBe(0);

    // Still its own after the recreation: the next fresh start may drop it again.
    await inDatabase(OWN, (c) => c.query('CREATE TABLE operator_data (id int)'));
    await ensureDatabase(urlOf(OWN), { recreate: true });
    expect(await tableCount(OWN)).toBe(0);
  });
});
