import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

/** RFC 4180 parsing, as a spreadsheet reads the file: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      endCell();
    } else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else {
      cell += c;
    }
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

/**
 * Proof of charge for the account itself: GET /api/audit recomputes each of its settled
 * transactions from the chain (and finds a planted mismatch, never showing another account's
 * rows), GET /api/ledger.csv gives its ledger as a spreadsheet-safe CSV.
 */
describe('account statement: GET /api/audit and GET /api/ledger.csv', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(31337);
  let a: { userId: string; apiKey: string };
  let b: { userId: string; apiKey: string };
  const txIds: string[] = [];
  let bTx: string;

  const send = async (apiKey: string) => {
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()) }, timeoutMs: 15000 }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    return res.body.data.id as string;
  };
  const audit = (apiKey: string, query: Record<string, string> = {}) => t.http().get('/api/audit').query(query).set('api-key', apiKey);

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = await createAccount(t, 50);
    b = await createAccount(t, 50);
    for (let i = 0; i < 3; i++) txIds.push(await send(a.apiKey));
    bTx = await send(b.apiKey);
  }, 120_000);
  afterAll(() => t.close());

  it("recomputes each settled transaction of the caller's own from the chain", async () => {
    const res = (await audit(a.apiKey).expect(200)).body.data;
    expect(res.ok).toBe(true);
    expect(res.truncated).toBe(false);
    expect(res.items.map((i: { txId: string }) => i.txId)).toEqual(txIds);
    for (const item of res.items) {
      const [row] = await db.query('SELECT execution_tx_hash AS hash, cost_micro::text AS cost, native_price_usd::text AS price FROM relay_transactions WHERE id = $1', [item.txId]);
      const receipt = (await (await import('./support/chain-fixtures')).provider(chain).send('eth_getTransactionReceipt', [row.hash])) as { gasUsed: string; effectiveGasPrice: string };
      expect(item).toEqual({
        txId: item.txId,
        chainId: 31337,
        executionTxHash: row.hash,
        gasUsed: BigInt(receipt.gasUsed).toString(),
        effectiveGasPrice: BigInt(receipt.effectiveGasPrice).toString(),
        l1Fee: '0',
        valueWei: '0',
        nativePriceUsd: Number(row.price),
        costUSD: Number(row.cost) / 1e6,
        chargedUsd: Number(row.cost) / 1e6,
        onChain: 'match',
      });
    }
    const own = (await audit(b.apiKey).expect(200)).body.data.items.map((i: { txId: string }) => i.txId);
    expect(own).toEqual([bTx]);
  });

  it('finds a planted mismatch in the account\'s own rows, and only there', async () => {
    // The recorded receipt says less gas than the chain; another row's charge differs from the ledger.
    await db.query(`UPDATE relay_transactions SET receipt = jsonb_set(receipt, '{gasUsed}', '"1"') WHERE id = $1`, [txIds[0]]);
    await db.query('UPDATE relay_transactions SET cost_micro = cost_micro + 1 WHERE id = $1', [txIds[1]]);
    const res = (await audit(a.apiKey).expect(200)).body.data;
    expect(res.ok).toBe(false);
    const byId = new Map(res.items.map((i: { txId: string }) => [i.txId, i]));
    expect(byId.get(txIds[0])).toMatchObject({ onChain: 'mismatch', detail: expect.stringContaining('cost_wei_mismatch') });
    expect(byId.get(txIds[1])).toMatchObject({ onChain: 'mismatch', detail: expect.stringContaining('charge_mismatch') });
    expect(byId.get(txIds[2])).toMatchObject({ onChain: 'match' });
    expect(byId.get(txIds[2])).not.toHaveProperty('detail');
    // A wrong hash is "missing" from the chain.
    await db.query(`UPDATE relay_transactions SET execution_tx_hash = $2 WHERE id = $1`, [txIds[2], '0x' + 'ee'.repeat(32)]);
    expect((await audit(a.apiKey).expect(200)).body.data.items[2]).toMatchObject({ txId: txIds[2], onChain: 'missing' });
    // The other account's audit is untouched by any of it.
    const other = (await audit(b.apiKey).expect(200)).body.data;
    expect(other.items.map((i: { txId: string }) => i.txId)).toEqual([bTx]);
    expect(other.ok).toBe(true);
  });

  it('gives the ledger as CSV with the stated header, balances that add up, and no executable cell', async () => {
    // A reference a spreadsheet would run as a formula, planted in the ledger.
    await db.query(`INSERT INTO ledger_entries (user_id, kind, available_delta, pending_delta, reference) VALUES ($1, 'debit', -1, 0, '=HYPERLINK("http://evil","x")')`, [a.userId]);
    await db.query('UPDATE accounts SET available_micro = available_micro - 1 WHERE id = $1', [a.userId]);
    const res = await t.http().get('/api/ledger.csv').set('api-key', a.apiKey).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual(['time', 'kind', 'reference', 'amountUsd', 'balanceAfterUsd']);
    const body = rows.slice(1);
    expect(body.length).toBeGreaterThanOrEqual(1 + 3 * 2);
    for (const r of body) {
      expect(r).toHaveLength(5);
      expect(r[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(r[3]).toMatch(/^-?\d+\.\d{6}$/);
      // Nothing a spreadsheet would evaluate: no cell starts with = + @, and - only as a number.
      for (const cell of r) expect(/^[=+@\t\r]/.test(cell) || (/^-/.test(cell) && !/^-\d+\.\d{6}$/.test(cell))).toBe(false);
    }
    let running = 0n;
    for (const r of body) {
      running += BigInt(r[3].replace('.', ''));
      expect(BigInt(r[4].replace('.', ''))).toBe(running);
    }
    const [{ available }] = await db.query('SELECT available_micro::text AS available FROM accounts WHERE id = $1', [a.userId]);
    expect(running).toBe(BigInt(available));
    expect(body.map((r) => r[2])).toEqual(expect.arrayContaining(txIds.map((id) => `tx:${id}`)));
    expect(body.map((r) => r[2])).toContain(`'=HYPERLINK("http://evil","x")`);
    expect(body.map((r) => r[2])).not.toContain(`tx:${bTx}`);
    // A range that holds none of it: the header alone.
    const future = new Date(Date.now() + 86_400_000);
    const empty = await t.http().get('/api/ledger.csv').query({ from: future.toISOString(), to: new Date(future.getTime() + 1000).toISOString() }).set('api-key', a.apiKey).expect(200);
    expect(empty.text).toBe('time,kind,reference,amountUsd,balanceAfterUsd\r\n');
  });

  it('refuses without credentials, with a bad from/to and with a range over 31 days (4xx, catalog code)', async () => {
    for (const path of ['/api/audit', '/api/ledger.csv']) {
      expect((await t.http().get(path).expect(401)).body.error.code).toBe('AUTH_001');
      expect((await t.http().get(path).set('api-key', 'rk_not_a_key').expect(401)).body.error.code).toBe('AUTH_002');
      for (const query of [
        { from: 'yesterday' },
        { to: '2026-13-40T00:00:00Z' },
        { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' },
        { from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:01Z' },
      ]) {
        const res = await t.http().get(path).query(query).set('api-key', a.apiKey).expect(400).expect('content-type', /application\/json/);
        expect({ path, query, code: res.body.error.code }).toEqual({ path, query, code: 'VALIDATION_001' });
      }
    }
  });
});
