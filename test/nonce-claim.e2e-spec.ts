import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '../src/modules/chains/domain/chain-registry.service';
import { NonceManager } from '../src/modules/relay/signers/nonce-manager.service';
import { createTestApp, TestApp } from './support/test-app';

/** Two NonceManagers on one database stand for two worker processes signing with the same key. */
describe('relay: nonce claims', () => {
  let t: TestApp;
  let a: NonceManager;
  let b: NonceManager;
  let db: DataSource;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    a = t.app.get(NonceManager);
    b = new NonceManager(db, t.app.get(ChainRegistry));
  });
  afterAll(() => t.close());

  const counter = async (address: string) =>
    BigInt((await db.query(`SELECT next_nonce::text AS n FROM signer_nonces WHERE chain_id = 31337 AND address = lower($1)`, [address]))[0].n);

  it('a claim whose nonce another process took meanwhile signs again with the next one', async () => {
    const address = Wallet.createRandom().address;
    const first = await a.claim(31337, address, async (n) => n);
    // b moves the counter behind a's back; a's cached counter is now stale.
    const taken = await b.claim(31337, address, async (n) => n);
    expect(taken.nonce).toBe(first.nonce + 1n);
    const signed: bigint[] = [];
    const next = await a.claim(31337, address, async (n) => {
      signed.push(n);
      return n;
    });
    expect(signed).toEqual([first.nonce + 1n, first.nonce + 2n]);
    expect(next.nonce).toBe(first.nonce + 2n);
    expect(await counter(address)).toBe(first.nonce + 3n);
  });

  it('concurrent claims from two processes use every nonce once, and store each with its record', async () => {
    const address = Wallet.createRandom().address;
    await db.query(`CREATE TABLE IF NOT EXISTS nonce_claim_probe (address varchar(42), nonce bigint)`);
    const record = (nonce: bigint) => ({
      ctes: `probe AS (INSERT INTO nonce_claim_probe (address, nonce) SELECT $4::varchar, $5::bigint FROM claimed)`,
      params: [address.toLowerCase(), nonce.toString()],
    });
    const claims = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).claim(31337, address, async (n) => n, (_signed, n) => record(n)));
    const nonces = (await Promise.all(claims)).map((c) => c.nonce).sort((x, y) => (x < y ? -1 : 1));
    const start = nonces[0];
    expect(nonces).toEqual(Array.from({ length: 40 }, (_, i) => start + BigInt(i)));
    const stored = (await db.query(`SELECT nonce::text AS n FROM nonce_claim_probe WHERE address = lower($1) ORDER BY nonce`, [address])).map((r: { n: string }) => BigInt(r.n));
    expect(stored).toEqual(nonces);
    expect(await counter(address)).toBe(start + 40n);
  });
});
