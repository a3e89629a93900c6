import type { DataSource } from 'typeorm';
import { storesDatabase } from '../../../../test/fakes/database';
import { compileSql, Sql, sql } from '../../../database/sql';
import { markAcceptedUpdate, markMinedCte, ownedNoncesQuery, unmarkedTxIds } from './relay-broadcast.store';

/**
 * The hot statements on relay_broadcasts must be able to use an index: each runs per batch of
 * marks or per settled transaction, and a scan of every partition grows with the month's volume.
 * With sequential scans disabled the planner still picks one when no index serves the predicate,
 * so the plan shows it whatever the table's size.
 */
describe('relay_broadcasts hot statements', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await storesDatabase();
  });

  afterAll(async () => {
    await ds.destroy();
  });

  async function planOf(statement: Sql): Promise<string> {
    const { text, values } = compileSql(statement);
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('SET LOCAL enable_seqscan = off');
      const rows = (await runner.query(`EXPLAIN ${text}`, values)) as Array<{ 'QUERY PLAN': string }>;
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  const hashes = ['0x' + 'ab'.repeat(32), '0x' + 'cd'.repeat(32)];
  const cases: Array<[string, Sql]> = [
    ['marks by hash', markAcceptedUpdate(hashes)],
    ['the unmarked rows of a batch of hashes', unmarkedTxIds(hashes)],
    ["settlement's mark of the mined broadcast", sql`WITH ${markMinedCte(hashes[0])} SELECT 1`],
    ["the nonce filler's owned nonces", ownedNoncesQuery(31337, '0x' + '11'.repeat(20), 5n, true)],
  ];

  it.each(cases)('%s reads relay_broadcasts through an index', async (_name, statement) => {
    const plan = await planOf(statement);
    expect(plan).toMatch(/relay_broadcasts/);
    expect(plan).not.toMatch(/Seq Scan on relay_broadcasts/);
  });
});
