import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { ChainRegistry } from '../src/modules/chains/domain/chain-registry.service';
import { RelayTransactionEntity } from '../src/modules/relay/store/relay-transaction.entity';
import { FirstSend } from '../src/modules/relay/pipeline/send/first-send.service';
import { NonceManager } from '../src/modules/relay/pipeline/keys/nonce-manager.service';
import { SignerNonceStore } from '../src/modules/relay/store/signer-nonce.store';
import { sql } from '../src/database/sql';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

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
    b = new NonceManager(new SignerNonceStore(db), t.app.get(ChainRegistry));
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
      ctes: [sql`probe AS (INSERT INTO nonce_claim_probe (address, nonce) SELECT ${address.toLowerCase()}::varchar, ${nonce}::bigint FROM claimed)`],
    });
    const claims = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).claim(31337, address, async (n) => n, (_signed, n) => record(n)));
    const nonces = (await Promise.all(claims)).map((c) => c.nonce).sort((x, y) => (x < y ? -1 : 1));
    const start = nonces[0];
    expect(nonces).toEqual(Array.from({ length: 40 }, (_, i) => start + BigInt(i)));
    const stored = (await db.query(`SELECT nonce::text AS n FROM nonce_claim_probe WHERE address = lower($1) ORDER BY nonce`, [address])).map((r: { n: string }) => BigInt(r.n));
    expect(stored).toEqual(nonces);
    expect(await counter(address)).toBe(start + 40n);
  });

  it('a first send job run again with the submitted copy of the row signs nothing (the gate of the claim)', async () => {
    const { apiKey } = await createAccount(t, 20);
    const usdc = token(testChain(31337), 'USDC');
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: usdc, callData: mintCall(randomAddress(), 1n) }, timeoutMs: 15000 }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    const txId = (res.body.data.id ?? res.body.data.txId) as string;
    expect(txId).toMatch(/^[0-9a-f-]{36}$/);
    // The copy a send job carried: as submitted, before any send.
    const stale = Object.assign(new RelayTransactionEntity(), await db.getRepository(RelayTransactionEntity).findOneByOrFail({ id: txId }), {
      status: 'PENDING',
      nonce: null,
      sender: null,
      executionTxHash: null,
    });
    const counters = async () => (await db.query(`SELECT coalesce(sum(next_nonce), 0)::text AS n FROM signer_nonces WHERE chain_id = 31337`))[0].n;
    const before = await counters();
    await t.app.get(FirstSend).send(txId, stale);
    expect(await counters()).toBe(before);
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM relay_broadcasts WHERE tx_id = $1', [txId]);
    expect(n).toBe(1);
  });
});
