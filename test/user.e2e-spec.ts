import { JwtService } from '@nestjs/jwt';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { TEST_JWT_SECRET } from './support/test-env';

/** userConfig fields that are the account's own business (extensions.md, "Account policy"). */
const POLICY_FIELDS = ['ipWhitelist', 'domainWhitelist', 'allowedTargets', 'lowBalanceThresholdUsd', 'approvalWebhook'];

describe('GET /api/user', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns the account with the fields of interface.md and the default limits, without the policy fields, to anyone', async () => {
    const { userId, address } = await createAccount(t, 42.5);
    const res = await t.http().get('/api/user').query({ address: address.toUpperCase().replace('0X', '0x') }).expect(200);
    expect(res.body.data).toEqual({
      userId,
      address: address.toLowerCase(),
      availableBalance: 42.5,
      pendingBalance: 0,
      disabled: false,
      defaultRelayAccount: null,
      userConfig: {
        perTxLimit: 50,
        dailyLimit: 500,
        dailyAmountConsumed: 0,
        dailyAmountUpdatedAt: expect.stringMatching(/Z$/),
        disabledChainIds: [],
        maxRetries: 3,
        circuitBreakerEnabled: true,
        failureCountStreakLimit: 10,
        failureCountStreak: 0,
      },
    });
    for (const field of POLICY_FIELDS) expect(res.body.data.userConfig).not.toHaveProperty(field);
  });

  it("shows the policy fields only to the account's own api-key or JWT; other credentials, bad ones included, get the public view", async () => {
    const owner = await createAccount(t, 10);
    const other = await createAccount(t, 10);
    await t.http().patch(`/admin/accounts/${owner.address}/limits`).set(adminAuth).send({
      ipWhitelist: ['10.0.0.0/8', '127.0.0.1', '::1'],
      domainWhitelist: ['app.example.com'],
      allowedTargets: [{ chainId: 31337, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', selectors: ['0xa9059cbb'] }],
      lowBalanceThresholdUsd: 2.5,
      approvalWebhook: { url: 'https://approver.internal.example.com/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
    }).expect(200);
    const policy = {
      ipWhitelist: ['10.0.0.0/8', '127.0.0.1', '::1'],
      domainWhitelist: ['app.example.com'],
      allowedTargets: [{ chainId: 31337, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', selectors: ['0xa9059cbb'] }],
      lowBalanceThresholdUsd: 2.5,
      approvalWebhook: { url: 'https://approver.internal.example.com/hook', enabled: true },
    };
    const now = Math.floor(Date.now() / 1000);
    const jwtOf = (account: { userId: string; address: string }) =>
      new JwtService().sign({ sub: account.userId, address: account.address.toLowerCase(), aud: 'gas-relay', iat: now, exp: now + 600 }, { secret: TEST_JWT_SECRET, algorithm: 'HS256' });
    const get = (headers: Record<string, string> = {}) => t.http().get('/api/user').query({ address: owner.address }).set(headers).expect(200);

    const anonymous: Array<Record<string, string>> = [
      {},
      { 'api-key': other.apiKey },
      { authorization: `Bearer ${jwtOf(other)}` },
      { 'api-key': 'rk_not-a-key' },
      { authorization: 'Bearer not.a.jwt' },
      // The owner's key from an Origin its domainWhitelist refuses is not the owner here.
      { 'api-key': owner.apiKey, origin: 'https://phish.example' },
    ];
    for (const headers of anonymous) {
      const res = await get(headers);
      expect(res.body.data).toMatchObject({ userId: owner.userId, availableBalance: 10 });
      for (const field of POLICY_FIELDS) expect(res.body.data.userConfig).not.toHaveProperty(field);
      expect(res.text).not.toMatch(/approver\.internal|10\.0\.0\.0|app\.example\.com|a9059cbb/);
    }
    const own: Array<Record<string, string>> = [{ 'api-key': owner.apiKey }, { authorization: `Bearer ${jwtOf(owner)}` }, { 'api-key': owner.apiKey, origin: 'https://app.example.com' }];
    for (const headers of own) {
      expect((await get(headers)).body.data.userConfig).toMatchObject({ ...policy, perTxLimit: 50 });
    }
    expect((await get({ 'api-key': owner.apiKey })).text).not.toContain('whsec_');
  });

  it.each([
    ['missing', {}, 'VALIDATION_004'],
    ['empty', { address: '' }, 'VALIDATION_004'],
    ['repeated', { address: ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002'] }, 'VALIDATION_004'],
    ['not an address', { address: '0x1234' }, 'USER_003'],
  ])('address %s: 400 %s', async (_, query, code) => {
    const res = await t.http().get('/api/user').query(query).expect(400);
    expect(res.body.error.code).toBe(code);
  });

  it('an address without an account: 404 USER_001', async () => {
    const res = await t.http().get('/api/user').query({ address: '0x00000000000000000000000000000000000000aa' }).expect(404);
    expect(res.body.error).toMatchObject({ code: 'USER_001', category: 'USER' });
  });
});
