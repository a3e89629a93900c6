import { mintCall, randomAddress, testChain, token } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';

/** /metrics after one relayed transaction: a count in every pipeline stage and the queue depths. */
describe('relay metrics: per-stage latency and queue depths', () => {
  let t: TestApp;
  const chain = testChain(31337);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const stageCount = (text: string, stage: string) => {
    const m = new RegExp(`relay_stage_duration_seconds_count\\{chain="31337",stage="${stage}"\\} (\\d+)`).exec(text);
    return m ? Number(m[1]) : 0;
  };

  it('counts queue dwell, sign, broadcast, inclusion and settlement for a relayed transaction', async () => {
    const { apiKey } = await createAccount(t, 50);
    const before = (await t.http().get('/metrics').expect(200)).text;
    const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { chainId: 31337, to: token(chain, 'USDC'), callData: mintCall(randomAddress()) }, timeoutMs: 15000 }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    const after = (await t.http().get('/metrics').expect(200)).text;
    for (const stage of ['queue_dwell', 'sign', 'broadcast', 'inclusion', 'settlement']) {
      expect({ stage, added: stageCount(after, stage) - stageCount(before, stage) }).toEqual({ stage, added: 1 });
    }
    expect(after).toContain('# TYPE relay_stage_duration_seconds histogram');
    for (const queue of ['relay-send', 'reconciler', 'webhooks']) {
      for (const state of ['waiting', 'active', 'delayed']) expect(after).toMatch(new RegExp(`bull_queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+`));
    }
  });
});
