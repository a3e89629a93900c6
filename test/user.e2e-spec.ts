import { createAccount, createTestApp, TestApp } from './support/test-app';

describe('GET /api/user', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('returns the account with every field of interface.md and the default limits', async () => {
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
        ipWhitelist: [],
        domainWhitelist: [],
        allowedTargets: [],
        lowBalanceThresholdUsd: null,
        approvalWebhook: null,
      },
    });
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
