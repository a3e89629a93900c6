import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { storesDatabase, storesDatabaseUrl } from '../../test/fakes/database';
import { dataSourceOptions } from './data-source-options';
import { PlanChoice } from './prepared-statements';
import { rawSql, sql, Sql } from './sql';
import { SqlStore } from './sql-store';

class ProbeStore extends SqlStore {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }
  run<T>(query: Sql, runner?: EntityManager, plan: PlanChoice = 'auto'): Promise<T[]> {
    return this.rows<T>(query, runner, plan);
  }
}

/** One connection, so a statement prepared by one call is the one the next call finds. */
describe('stores run their statements prepared', () => {
  let migrated: DataSource;
  let ds: DataSource;
  let store: ProbeStore;
  const table = `prepared_probe_${randomBytes(4).toString('hex')}`;
  const t = rawSql(table);

  beforeAll(async () => {
    migrated = await storesDatabase();
    ds = new DataSource({ ...dataSourceOptions(storesDatabaseUrl(), false), extra: { max: 1 } });
    await ds.initialize();
    store = new ProbeStore(ds);
    await ds.query(`CREATE TABLE ${table} (id int PRIMARY KEY, a int NOT NULL)`);
  });

  afterAll(async () => {
    await ds.query(`DROP TABLE IF EXISTS ${table}`);
    await ds.destroy();
    await migrated.destroy();
  });

  const prepared = async (text: string) =>
    Number((await ds.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [text]))[0].n);

  it('prepares a statement once on its connection and runs it again by name', async () => {
    await store.run(sql`INSERT INTO ${t} VALUES (${1}, ${10})`);
    for (let i = 0; i < 3; i++) expect(await store.run<{ a: number }>(sql`SELECT a FROM ${t} WHERE id = ${1}`)).toEqual([{ a: 10 }]);
    expect(await prepared(`SELECT a FROM ${table} WHERE id = $1`)).toBe(1);
  });

  it('runs prepared inside the caller transaction, and rolls back with it', async () => {
    await expect(
      store.transaction(async (em) => {
        await store.run(sql`UPDATE ${t} SET a = ${20} WHERE id = ${1}`, em);
        expect(await store.run<{ a: number }>(sql`SELECT a FROM ${t} WHERE id = ${1}`, em)).toEqual([{ a: 20 }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await store.run<{ a: number }>(sql`SELECT a FROM ${t} WHERE id = ${1}`)).toEqual([{ a: 10 }]);
  });

  it("keeps TypeORM's error with the driver's code inside", async () => {
    const failure = await store.run(sql`INSERT INTO ${t} VALUES (${1}, ${11})`).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23505');
  });

  it('plans again when a migration changed the columns under a prepared SELECT *', async () => {
    const all = () => store.run<Record<string, number>>(sql`SELECT * FROM ${t} WHERE id = ${1}`);
    expect(await all()).toEqual([{ id: 1, a: 10 }]);
    await ds.query(`ALTER TABLE ${table} ADD COLUMN b int NOT NULL DEFAULT 7`);
    expect(await all()).toEqual([{ id: 1, a: 10, b: 7 }]);
  });

  it('inside a transaction the changed plan fails that transaction; the retry runs the shape unnamed', async () => {
    const all = (em?: EntityManager) => store.run<Record<string, number>>(sql`SELECT * FROM ${t} WHERE id >= ${1}`, em);
    expect(await all()).toEqual([{ id: 1, a: 10, b: 7 }]);
    await ds.query(`ALTER TABLE ${table} ADD COLUMN c int NOT NULL DEFAULT 9`);
    const failure = await store.transaction((em) => all(em)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('0A000');
    // What a caller's retry of the whole transaction sees: the new columns, from the unnamed path.
    expect(await store.transaction((em) => all(em))).toEqual([{ id: 1, a: 10, b: 7, c: 9 }]);
    expect(await prepared(`SELECT * FROM ${table} WHERE id >= $1`)).toBe(1);
  });
});

/**
 * The hot statements ('generic') run on a pool beside the main one whose sessions keep one
 * generic plan per statement; the others keep PostgreSQL's choice. pg-pool hands back the
 * connection released last, so statements run one after another share a connection.
 */
describe("a statement marked 'generic' keeps one plan", () => {
  let migrated: DataSource;
  let ds: DataSource;
  let store: ProbeStore;
  const table = `generic_probe_${randomBytes(4).toString('hex')}`;
  const app = `generic-probe-${randomBytes(4).toString('hex')}`;
  const t = rawSql(table);

  beforeAll(async () => {
    migrated = await storesDatabase();
    ds = new DataSource({ ...dataSourceOptions(storesDatabaseUrl(), false), extra: { max: 1, application_name: app } });
    await ds.initialize();
    store = new ProbeStore(ds);
    await ds.query(`CREATE TABLE ${table} (id int PRIMARY KEY, a int NOT NULL)`);
    await ds.query(`INSERT INTO ${table} SELECT g, g * 10 FROM generate_series(1, 100) g`);
  });

  afterAll(async () => {
    await migrated.query(`DROP TABLE IF EXISTS ${table}`);
    await migrated.destroy();
  });

  const plans = (text: string, plan: PlanChoice) =>
    store.run<{ generic_plans: string; custom_plans: string; mode: string }>(
      sql`SELECT generic_plans::text, custom_plans::text, current_setting('plan_cache_mode') AS mode FROM pg_prepared_statements WHERE statement = ${text}`,
      undefined,
      plan,
    );

  it('plans a generic statement once and runs that plan; an auto one is planned per execution at first', async () => {
    for (let id = 1; id <= 8; id++) {
      expect(await store.run<{ a: number }>(sql`SELECT a FROM ${t} WHERE id = ${id}`, undefined, 'generic')).toEqual([{ a: id * 10 }]);
      expect(await store.run<{ a: number }>(sql`SELECT a + 0 AS a FROM ${t} WHERE id = ${id}`)).toEqual([{ a: id * 10 }]);
    }
    expect(await plans(`SELECT a FROM ${table} WHERE id = $1`, 'generic')).toEqual([{ generic_plans: '8', custom_plans: '0', mode: 'force_generic_plan' }]);
    const auto = await plans(`SELECT a + 0 AS a FROM ${table} WHERE id = $1`, 'auto');
    expect(auto).toHaveLength(1);
    expect(auto[0].mode).toBe('auto');
    expect(Number(auto[0].custom_plans)).toBeGreaterThanOrEqual(5);
  });

  it('inside a transaction a generic statement runs on the transaction (it sees its writes)', async () => {
    await store.transaction(async (em) => {
      await store.run(sql`UPDATE ${t} SET a = ${-1} WHERE id = ${1}`, em);
      expect(await store.run<{ a: number }>(sql`SELECT a FROM ${t} WHERE id = ${1}`, em, 'generic')).toEqual([{ a: -1 }]);
      await store.run(sql`UPDATE ${t} SET a = ${10} WHERE id = ${1}`, em);
    });
  });

  it('a generic plan made while a table was small still looks rows up by index once it has grown', async () => {
    const small = `${table}_grows`;
    const g = rawSql(small);
    // No autovacuum: nothing ANALYZEs the table behind the test's back (an ANALYZE would re-plan).
    await ds.query(`CREATE TABLE ${small} (id int PRIMARY KEY, a int NOT NULL) WITH (autovacuum_enabled = false)`);
    try {
      await ds.query(`INSERT INTO ${small} VALUES (1, 10), (2, 20)`);
      await ds.query(`ANALYZE ${small}`);
      const lookup = (ids: number[]) => store.run<{ a: number }>(sql`SELECT a FROM ${g} WHERE id = ANY(${ids}::int[])`, undefined, 'generic');
      expect(await lookup([1])).toEqual([{ a: 10 }]);
      await ds.query(`INSERT INTO ${small} SELECT n, n * 10 FROM generate_series(3, 50000) n`);
      expect(await lookup([40000])).toEqual([{ a: 400000 }]);
      const [{ name }] = await store.run<{ name: string }>(sql`SELECT name FROM pg_prepared_statements WHERE statement = ${`SELECT a FROM ${small} WHERE id = ANY($1::int[])`}`, undefined, 'generic');
      const plan = (await store.run<{ 'QUERY PLAN': string }>(sql`EXPLAIN EXECUTE ${rawSql(name)}('{40000}')`, undefined, 'generic')).map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan/);
      expect(plan).not.toMatch(/Seq Scan/);
    } finally {
      await ds.query(`DROP TABLE IF EXISTS ${small}`);
    }
  });

  it("ends with the main pool: no connection of the data source is left", async () => {
    const open = async () =>
      Number((await migrated.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [app]))[0].n);
    expect(await open()).toBe(2);
    await ds.destroy();
    const deadline = Date.now() + 5_000;
    while ((await open()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await open()).toBe(0);
  });
});
