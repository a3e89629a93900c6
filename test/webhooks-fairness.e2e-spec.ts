import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';
import { WebhookReceiver } from './support/webhook-receiver';

/** A webhook endpoint that takes requests and, unless told to answer, never does: the relay's timeout ends them. */
class HangingEndpoint {
  open = 0;
  maxOpen = 0;
  readonly arrivals: Array<{ at: number; path: string }> = [];
  /** Set to answer from now on (a recovered endpoint). */
  answer: number | null = null;
  private server!: Server;

  static async start(): Promise<HangingEndpoint> {
    const endpoint = new HangingEndpoint();
    endpoint.server = createServer((req: IncomingMessage, res: ServerResponse) => endpoint.take(req, res));
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    return endpoint;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  private take(req: IncomingMessage, res: ServerResponse): void {
    this.arrivals.push({ at: Date.now(), path: req.url ?? '' });
    req.resume();
    if (this.answer !== null) {
      res.writeHead(this.answer).end();
      return;
    }
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    res.on('close', () => this.open--);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function until(done: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('webhook delivery fair across accounts', () => {
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const submitMint = async (t: TestApp, apiKey: string) =>
    (await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) }).expect(201)).body.data.txId as string;
  const register = (t: TestApp, apiKey: string, urls: string[]) =>
    t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send(urls.map((url) => ({ url, authType: 'none' }))).expect(200);

  describe('bounded attempts per account', () => {
    let t: TestApp;
    let hanging: HangingEndpoint;
    let fast: WebhookReceiver;

    beforeAll(async () => {
      // The circuit stays shut here: this is about slots, not about giving up on an endpoint.
      t = await createTestApp({ env: { WEBHOOK_TIMEOUT_MS: '6000', WEBHOOK_CIRCUIT_FAILURES: '1000' } });
      hanging = await HangingEndpoint.start();
      fast = await WebhookReceiver.start();
    });
    afterAll(async () => {
      await t.close();
      await hanging.close();
      await fast.close();
    });

    it("one account's hanging endpoints hold at most its share of the slots: another account's delivery arrives while they hang", async () => {
      const a = await createAccount(t);
      await register(t, a.apiKey, Array.from({ length: 20 }, (_, i) => hanging.url(`/a${i}`)));
      // 2 transactions × 20 webhooks: 40 attempts due at once, each hanging until the 6 s timeout.
      await submitMint(t, a.apiKey);
      await submitMint(t, a.apiKey);
      await until(() => hanging.open >= 4, 20_000, "account A's attempts in flight");
      await new Promise((r) => setTimeout(r, 500)); // every slot A could take is taken by now

      const b = await createAccount(t);
      await register(t, b.apiKey, [fast.url('/b')]);
      const sentAt = Date.now();
      await submitMint(t, b.apiKey);
      await fast.waitFor((calls) => calls.length >= 1, 30_000);
      const latency = Date.now() - sentAt;
      const aInFlightWhenBArrived = hanging.open;

      // B's delivery does not wait for A's timeouts (6 s): it had a slot of its own.
      expect(latency).toBeLessThan(3_000);
      expect(aInFlightWhenBArrived).toBeGreaterThan(0);
      expect(fast.calls[0].body).toMatchObject({ status: 'PENDING', userId: b.userId });
      // WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT (4) of the worker's 20 slots, never more.
      expect(hanging.maxOpen).toBe(4);
    });
  });

  describe('circuit per webhook', () => {
    let t: TestApp;
    let db: DataSource;
    let recovering: HangingEndpoint;
    let dead: HangingEndpoint;
    const COOLDOWN = 1500;

    beforeAll(async () => {
      t = await createTestApp({
        env: { WEBHOOK_TIMEOUT_MS: '400', WEBHOOK_CIRCUIT_FAILURES: '3', WEBHOOK_CIRCUIT_COOLDOWN_MS: String(COOLDOWN), WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100,100,100,100' },
      });
      db = t.app.get(DataSource);
      recovering = await HangingEndpoint.start();
      dead = await HangingEndpoint.start();
    });
    afterAll(async () => {
      await t.close();
      await recovering.close();
      await dead.close();
    });

    it('after 3 timeouts in a row no request goes out for the cool-down, then one trial; a good trial closes the circuit and the rest flows', async () => {
      const { apiKey, userId } = await createAccount(t);
      await register(t, apiKey, [recovering.url('/hook')]);
      const [{ id: webhookId }] = await db.query('SELECT id FROM webhooks WHERE user_id = $1', [userId]);
      const txId = await submitMint(t, apiKey);
      await waitForTx(t, txId);

      await until(() => recovering.arrivals.length >= 3, 15_000, 'three timed-out attempts');
      // The endpoint recovers; the circuit does not know yet and short-circuits until its trial.
      recovering.answer = 200;
      await until(() => recovering.arrivals.length >= 4, 15_000, 'the trial');
      const gap = recovering.arrivals[3].at - recovering.arrivals[2].at;
      expect(gap).toBeGreaterThanOrEqual(COOLDOWN - 100);

      // The trial delivered PENDING; EXECUTED follows without waiting for another cool-down.
      await until(() => recovering.arrivals.length >= 5, 5_000, 'the EXECUTED delivery');
      expect(recovering.arrivals[4].at - recovering.arrivals[3].at).toBeLessThan(COOLDOWN);
      let rows: Array<{ status: string; attempts: number }> = [];
      await until(async () => {
        rows = await db.query(`SELECT status, attempts FROM webhook_deliveries WHERE tx_id = $1 ORDER BY event_id`, [txId]);
        return rows.every((r) => r.status === 'delivered');
      }, 5_000, 'both deliveries recorded as delivered');
      expect(rows.map((r) => r.status)).toEqual(['delivered', 'delivered']);
      // 3 timeouts, at least one short-circuited attempt (counted, no request), then the trial.
      expect(rows[0].attempts).toBeGreaterThanOrEqual(5);
      const [circuit] = await db.query(`SELECT consecutive_failures, circuit_open_until FROM webhooks WHERE id = $1`, [webhookId]);
      expect(circuit).toEqual({ consecutive_failures: 0, circuit_open_until: null });
    });

    it('an endpoint that never recovers still ends in dead letters after its attempts, with far fewer requests sent', async () => {
      const { apiKey } = await createAccount(t);
      await register(t, apiKey, [dead.url('/hook')]);
      const txId = await submitMint(t, apiKey);
      await waitForTx(t, txId);
      let rows: Array<{ status: string; attempts: number; last_error: string }> = [];
      await until(async () => {
        rows = await db.query(`SELECT status, attempts, last_error FROM webhook_deliveries WHERE tx_id = $1 ORDER BY event_id`, [txId]);
        return rows.length === 2 && rows.every((r) => r.status === 'dead');
      }, 45_000, 'both deliveries dead-lettered');
      // 1 + 6 retries each, as the schedule says; most of them never reached the endpoint.
      expect(rows.map((r) => r.attempts)).toEqual([7, 7]);
      expect(dead.arrivals.length).toBeLessThan(14);
      expect(rows.some((r) => /circuit open after \d+ failed attempts in a row \(last: timed out after 400 ms\)/.test(r.last_error))).toBe(true);
    });
  });
});
