import { createAccount, createTestApp, TestApp } from './support/test-app';

describe('webhooks: non-public targets refused (WEBHOOK_ALLOW_PRIVATE off)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(() => t.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://10.0.0.8/hook',
    'http://172.20.1.1/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://224.0.0.1/hook',
    'http://2130706433/hook',
    'http://no-such-host.invalid/hook',
  ])('400 VALIDATION_001 for %s', async (url) => {
    const { apiKey, userId } = await createAccount(t);
    const res = await t.http().post('/api/user/register-webhooks').set('api-key', apiKey).send([{ url, authType: 'none' }]).expect(400);
    // Only the verdict: what the host resolves to would make the endpoint an internal-DNS oracle.
    expect(res.body.error).toEqual(expect.objectContaining({ code: 'VALIDATION_001', message: '[0].url refused: address not allowed' }));
    // Nothing was stored.
    const ds = t.app.get((await import('typeorm')).DataSource);
    expect(await ds.query(`SELECT 1 FROM webhooks WHERE user_id = $1`, [userId])).toEqual([]);
  });
});
