import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Queue } from 'bullmq';
import type { Request } from 'express';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { Caller, CurrentCaller } from '../src/common/http/authenticated-request';
import { Idempotent } from '../src/modules/idempotency';
import { RegionResolver, SubmissionService } from '../src/modules/relay';
import { SubmitTxDto } from '../src/modules/relay/http/dto/submit-tx.dto';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';

/** A port nothing listens on: a Redis that is down. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let deadQueue: Queue;

/**
 * submit-tx, as the relay's route does it, followed by a queue add on a Redis that is down: a
 * handler that fails after its transaction row was committed (the relay's own routes swallow
 * their post-commit Redis errors today; any post-commit failure must keep the key all the same).
 */
@Controller()
class SubmitThenQueueController {
  constructor(private readonly modules: ModuleRef) {}

  @Post('api/_probe/submit-then-queue')
  @HttpCode(201)
  @Idempotent()
  async submit(@CurrentCaller() caller: Caller, @Body() body: SubmitTxDto, @Req() req: Request) {
    const regions = this.modules.get(RegionResolver, { strict: false });
    const submitted = await this.modules.get(SubmissionService, { strict: false }).submit({ caller, tx: body, region: regions.hintsOf(req) });
    await deadQueue.add('after-commit', { txId: submitted.txId });
    return submitted;
  }
}

/** Idempotency-Key after a failure that follows the commit (docs/security.md, Fee raises: the claim kept). */
describe('Idempotency-Key after a post-commit failure', () => {
  let t: TestApp;
  let db: DataSource;
  const usdc = token(testChain(31337), 'USDC');

  beforeAll(async () => {
    const port = await deadPort();
    deadQueue = new Queue('after-commit', { connection: { host: '127.0.0.1', port, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null } });
    deadQueue.on('error', () => undefined);
    t = await createTestApp({ controllers: [SubmitThenQueueController] });
    db = t.app.get(DataSource);
  });
  afterAll(async () => {
    await deadQueue.close().catch(() => undefined);
    await t.close();
  });

  const rowsOf = async (userId: string) => (await db.query('SELECT id FROM relay_transactions WHERE user_id = $1 ORDER BY created_at', [userId])).map((r: { id: string }) => r.id) as string[];

  it('the queue add fails after the commit: the key is kept, a retry answers the committed transaction and creates none', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const body = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) };
    const post = () => t.http().post('/api/_probe/submit-then-queue').set('api-key', apiKey).set('Idempotency-Key', 'after-commit-1').send(body);
    const failed = await post();
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const [committed] = await rowsOf(userId);
    expect(committed).toBeDefined();
    // The retry: the committed transaction's answer, no second transaction, no second reservation.
    const retry = await post();
    expect(await rowsOf(userId)).toEqual([committed]);
    expect(retry.status).toBe(201);
    expect(retry.body.data.txId).toBe(committed);
    const reserves = await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE user_id = $1 AND kind = 'reserve'`, [userId]);
    expect(reserves[0].n).toBe(1);
    // The committed transaction is relayed once (its send job was enqueued by the submission itself).
    expect((await waitForTx(t, committed, { timeoutMs: 20_000 })).status).toBe('EXECUTED');
    await post().expect(201);
    expect(await rowsOf(userId)).toEqual([committed]);
  });

  it('a refusal before anything is committed still gives the key up', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const post = (to: string) => t.http().post('/api/_probe/submit-then-queue').set('api-key', apiKey).set('Idempotency-Key', 'refused-1').send({ chainId: 31337, to, callData: mintCall(randomAddress()), maxUSD: 0.000001 });
    expect((await post(usdc).expect(400)).body.error.code).toBe('TRANSACTION_001');
    expect(await rowsOf(userId)).toEqual([]);
    // Same key, same body: run again (not replayed), refused again the same way.
    expect((await post(usdc).expect(400)).body.error.code).toBe('TRANSACTION_001');
  });
});
