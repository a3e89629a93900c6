import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { ProbeController } from './support/probe.controller';

describe('api-key authentication', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
  });
  afterAll(() => t.close());

  it('missing key: 401 AUTH_001 (success envelope) and a "missing api-key header" message (code envelope)', async () => {
    const success = await t.http().get('/api/_probe').expect(401);
    expect(success.body.error).toMatchObject({ code: 'AUTH_001', category: 'AUTH', message: 'missing api-key header' });
    const code = await t.http().get('/gasless/_probe').expect(401);
    expect(code.body).toEqual({ code: 401, data: null, message: 'missing api-key header' });
  });

  it('invalid key: 401 AUTH_002', async () => {
    const res = await t.http().get('/api/_probe').set('api-key', 'rk_not-a-real-key').expect(401);
    expect(res.body.error.code).toBe('AUTH_002');
    const code = await t.http().get('/gasless/_probe').set('api-key', 'rk_not-a-real-key').expect(401);
    expect(code.body).toEqual({ code: 401, data: null, message: 'invalid API key' });
  });

  it('a valid key authenticates as its account; a revoked key is AUTH_002; other keys keep working', async () => {
    const { apiKey, userId, address } = await createAccount(t);
    const ok = await t.http().get('/api/_probe').set('api-key', apiKey).expect(200);
    expect(ok.body.data.userId).toBe(userId);

    const second = await t.http().post(`/admin/accounts/${address}/keys`).set(adminAuth).expect(201);
    await t.http().post('/admin/keys/revoke').set(adminAuth).send({ key: apiKey }).expect(200);
    const revoked = await t.http().get('/api/_probe').set('api-key', apiKey).expect(401);
    expect(revoked.body.error.code).toBe('AUTH_002');
    await t.http().get('/api/_probe').set('api-key', second.body.data.apiKey).expect(200);
  });

  it('a second instance with the key cached stops accepting it at once when it is revoked or its account disabled elsewhere', async () => {
    const other = await createTestApp({ controllers: [ProbeController], env: { API_KEY_CACHE_MS: '60000' } });
    try {
      const first = await createAccount(t);
      const second = await createAccount(t);
      // Cached on the other instance (for a minute, were it not for the change signal).
      await other.http().get('/api/_probe').set('api-key', first.apiKey).expect(200);
      await other.http().get('/api/_probe').set('api-key', second.apiKey).expect(200);
      await t.http().post('/admin/keys/revoke').set(adminAuth).send({ key: first.apiKey }).expect(200);
      await t.http().patch(`/admin/accounts/${second.address}/limits`).set(adminAuth).send({ disabled: true }).expect(200);
      // The signal crosses Redis: give it a moment, bounded.
      const deadline = Date.now() + 2_000;
      let statuses: number[] = [];
      while (Date.now() < deadline) {
        statuses = await Promise.all([first.apiKey, second.apiKey].map(async (key) => (await other.http().get('/api/_probe').set('api-key', key)).status));
        if (statuses.every((s) => s === 401)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(statuses).toEqual([401, 401]);
    } finally {
      await other.close();
    }
  });

  it('a disabled account cannot authenticate', async () => {
    const { apiKey, address } = await createAccount(t);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ disabled: true }).expect(200);
    const res = await t.http().get('/api/_probe').set('api-key', apiKey).expect(401);
    expect(res.body.error.code).toBe('AUTH_002');
  });

  it('keys are stored only as hashes', async () => {
    const { apiKey, userId } = await createAccount(t);
    const { DataSource } = await import('typeorm');
    const rows: Array<{ key_hash: string; key_prefix: string }> = await t.app.get(DataSource).query('SELECT key_hash, key_prefix FROM api_keys WHERE user_id = $1', [userId]);
    expect(rows).toHaveLength(1);
    expect(rows[0].key_hash).not.toContain(apiKey);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKey.startsWith(rows[0].key_prefix)).toBe(true);
  });

  it('public endpoints need no key', async () => {
    await t.http().get('/api/supported-chains').expect(200);
    await t.http().get('/api/user').query({ address: '0x0000000000000000000000000000000000000002' }).expect(404);
  });
});
