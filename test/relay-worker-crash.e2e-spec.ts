import { ChildProcess } from 'node:child_process';
import { DataSource } from 'typeorm';
import { mintCall, provider, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import type { TestApp } from './support/test-app';
import { spawnWorker } from './support/chain-conditions/scenario';
import { testEnv } from './support/test-env';

/** A real worker process (APP_ROLE=worker) that the test can kill with SIGKILL; killed itself if it misses its start deadline. */
const startWorker = (): Promise<ChildProcess> => spawnWorker(testEnv());

describe('relay: a worker killed mid-flight', () => {
  let t: TestApp;
  let worker: ChildProcess | undefined;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');

  beforeAll(async () => {
    // An API-only instance: every send in this test happens in the worker processes.
    process.env.APP_ROLE = 'api';
    const { createTestApp } = await import('./support/test-app');
    t = await createTestApp();
  });
  afterAll(async () => {
    await provider(chain).send('evm_setAutomine', [true]);
    worker?.kill('SIGKILL');
    delete process.env.APP_ROLE;
    await t.close();
  });

  it('loses nothing and sends nothing twice after a restart', async () => {
    const { createAccount } = await import('./support/test-app');
    const { apiKey } = await createAccount(t, 200);
    // Nothing is mined until the worker was killed: the relay is fast enough to send and settle all
    // 20 between two looks at the broadcasts, which left the kill interrupting nothing.
    const rpc = provider(chain);
    await rpc.send('evm_setAutomine', [false]);
    const t0 = Date.now();
    worker = await startWorker();
    if (process.env.TEST_LOGS) console.log(`worker up in ${Date.now() - t0} ms`);
    const recipients = Array.from({ length: 20 }, () => randomAddress());
    const ids = await Promise.all(
      recipients.map((to) => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(to, 7n) }).expect(201)),
    ).then((rs) => rs.map((r) => r.body.data.txId as string));

    // Kill it as soon as it has started sending, with work still in flight.
    const dataSource = t.app.get(DataSource);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const [{ n }] = await dataSource.query('SELECT count(*)::int AS n FROM relay_broadcasts WHERE tx_id = ANY($1)', [ids]);
      if (n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    worker.kill('SIGKILL');
    if (process.env.TEST_LOGS) console.log(`killed at ${Date.now() - t0} ms`);
    const [{ pending }] = await dataSource.query(`SELECT count(*)::int AS pending FROM relay_transactions WHERE id = ANY($1) AND status = 'PENDING'`, [ids]);

    worker = await startWorker();
    // The chain mines again: what the killed worker broadcast, then whatever the new one sends.
    await rpc.send('evm_setAutomine', [true]);
    await rpc.send('evm_mine', []);
    const until = Date.now() + 60_000;
    let statuses: string[] = [];
    while (Date.now() < until) {
      statuses = (await dataSource.query('SELECT status FROM relay_transactions WHERE id = ANY($1)', [ids])).map((r: { status: string }) => r.status);
      if (statuses.every((s) => s !== 'PENDING')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(statuses).toEqual(Array(20).fill('EXECUTED'));
    // Each recipient was minted exactly once: nothing was executed twice.
    const balances = await Promise.all(recipients.map((r) => tokenContract(chain, 'USDC').balanceOf(r)));
    expect(balances).toEqual(Array(20).fill(7n));
    // Make sure the kill really interrupted work (otherwise this test proves little).
    expect(pending).toBeGreaterThan(0);
  }, 180_000);
});
