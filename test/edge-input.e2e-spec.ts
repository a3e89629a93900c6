import { Wallet } from 'ethers';
import { mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';

/** Regression tests of issue 17's causes: input that used to answer 5xx now gets a 4xx in the path's envelope. */
describe('API edge: bad input never gets a 5xx', () => {
  let t: TestApp;
  let apiKey: string;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const okTx = () => ({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) });

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createAccount(t, 50));
  });
  afterAll(() => t.close());

  const code = (res: { body: { error?: { code: string } } }) => res.body.error?.code;

  describe('deeply nested JSON', () => {
    const deepArray = '['.repeat(10_000) + ']'.repeat(10_000);
    const deepObject = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);

    it.each([
      ['/api/auth/message', false],
      ['/api/auth/verify', false],
      ['/api/submit-tx', true],
      ['/api/submit-tx-sync', true],
      ['/api/quote', true],
      ['/api/submit-signed-tx', true],
      ['/v1/quotes', true],
    ])('POST %s answers 400 VALIDATION_004', async (path, withKey) => {
      for (const body of [deepArray, deepObject]) {
        const req = t.http().post(path).set('content-type', 'application/json');
        if (withKey) req.set('api-key', apiKey);
        const res = await req.send(body).expect(400);
        expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_004', message: expect.stringMatching(/nest/) } });
      }
    });

    it('POST /build-path-by-id answers 400 in the code envelope', async () => {
      const res = await t.http().post('/build-path-by-id').set('api-key', apiKey).set('content-type', 'application/json').send(deepArray).expect(400);
      expect(res.body).toEqual({ code: 400, data: null, message: expect.stringMatching(/nest/) });
    });

    it('a body nested within the limit still parses', async () => {
      const res = await t.http().post('/api/quote').set('api-key', apiKey).send({ ...okTx(), authorizationList: [] }).expect(201);
      expect(res.body.data.costUSD).toEqual(expect.any(Number));
    });
  });

  describe('POST /api/submit-tx-sync without tx', () => {
    it.each([[{}], [{ timeoutMs: 5000 }], [{ tx: null }], [{ tx: 'x' }]])('%j is 400 VALIDATION_004', async (body) => {
      const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send(body).expect(400);
      expect(code(res)).toBe('VALIDATION_004');
      expect(res.body.error.message).toMatch(/tx/);
    });

    it('an empty body is 400 VALIDATION_004', async () => {
      const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).set('content-type', 'application/json').expect(400);
      expect(code(res)).toBe('VALIDATION_004');
    });
  });

  describe('values checked against their columns before PostgreSQL', () => {
    it('a NUL character in label is 400 VALIDATION_004 on submit-tx, quote and submit-signed-tx', async () => {
      for (const path of ['/api/submit-tx', '/api/quote']) {
        const res = await t.http().post(path).set('api-key', apiKey).send({ ...okTx(), label: 'a\u0000b' }).expect(400);
        expect(code(res)).toBe('VALIDATION_004');
      }
      const signed = await new Wallet(Wallet.createRandom().privateKey).signTransaction({ chainId: 31337, to: usdc, nonce: 0, gasLimit: 100000n, gasPrice: 1n });
      const res = await t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send({ chainId: 31337, signedTx: signed, label: '\u0000' }).expect(400);
      expect(code(res)).toBe('VALIDATION_004');
    });

    it.each([
      ['gasPrice above uint256', { gasPrice: (2n ** 256n).toString() }],
      ['maxFeePerGas above uint256', { maxFeePerGas: '9'.repeat(78), maxPriorityFeePerGas: '1' }],
      
      ['gasLimit with 78 digits', { gasLimit: '9'.repeat(78) }],
    ])('%s is 400 TRANSACTION_005', async (_, gas) => {
      for (const path of ['/api/submit-tx', '/api/quote']) {
        const res = await t.http().post(path).set('api-key', apiKey).send({ ...okTx(), ...gas }).expect(400);
        expect(code(res)).toBe('TRANSACTION_005');
      }
    });

    it('a gas price whose worst-case cost is beyond any amount an account can hold is 400 TRANSACTION_001', async () => {
      for (const path of ['/api/submit-tx', '/api/quote']) {
        const res = await t.http().post(path).set('api-key', apiKey).send({ ...okTx(), gasPrice: (10n ** 60n).toString() }).expect(400);
        expect(code(res)).toBe('TRANSACTION_001');
      }
    });

    it('value above uint256 is 400 VALIDATION_001', async () => {
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ ...okTx(), value: (2n ** 256n).toString() }).expect(400);
      expect(code(res)).toBe('VALIDATION_001');
    });
  });

  describe('USD amounts of the admin API printed in exponent notation (found by the fuzz test)', () => {
    it.each([
      ['PATCH', 'limits', { perTxLimit: 1e-7 }],
      ['PATCH', 'limits', { dailyLimit: -1e-323 }],
      ['POST', 'credit', { usd: 5e-7 }],
    ])('%s %s %j is 400 VALIDATION_004', async (method, action, body) => {
      const { address } = await createAccount(t, 1);
      const path = `/admin/accounts/${address}/${action}`;
      const res = await (method === 'PATCH' ? t.http().patch(path) : t.http().post(path)).set(adminAuth).send(body).expect(400);
      expect(code(res)).toBe('VALIDATION_004');
      expect(res.body.error.message).toMatch(/at most 6 decimal places/);
    });

    it('POST /admin/accounts with creditUsd 1e-7 is 400 VALIDATION_004', async () => {
      const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: randomAddress(), creditUsd: 1e-7 }).expect(400);
      expect(code(res)).toBe('VALIDATION_004');
    });
  });

  describe('maxUSD', () => {
    it.each([1e21, 1e300])('%d is a cap that never binds, not a 500', async (maxUSD) => {
      const quote = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ ...okTx(), maxUSD }).expect(201);
      expect(quote.body.data.txId).toEqual(expect.any(String));
    });
  });

  describe('re-submitting a signed transaction', () => {
    it('returns the first answer to the same account and charges once; another account is refused', async () => {
      const rpc = provider(chain);
      const { apiKey: key } = await createAccount(t, 50);
      const user = new Wallet(Wallet.createRandom().privateKey);
      const block = await rpc.getBlock('latest');
      const raw = await user.signTransaction({
        chainId: 31337,
        nonce: 0,
        to: usdc,
        data: mintCall(randomAddress(), 5n),
        gasLimit: 120_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        maxFeePerGas: block!.baseFeePerGas! * 2n + 1_000_000_000n,
        type: 2,
      });
      const first = await t.http().post('/api/submit-signed-tx').set('api-key', key).send({ chainId: 31337, signedTx: raw }).expect(201);
      const again = await t.http().post('/api/submit-signed-tx').set('api-key', key).send({ chainId: 31337, signedTx: raw }).expect(201);
      expect(again.body.data).toEqual(first.body.data);
      const record = await waitForTx(t, first.body.data.txId);
      expect(record.status).toBe('EXECUTED');
      const afterMined = await t.http().post('/api/submit-signed-tx').set('api-key', key).send({ chainId: 31337, signedTx: raw }).expect(201);
      expect(afterMined.body.data).toEqual(first.body.data);

      const other = await createAccount(t, 50);
      const refused = await t.http().post('/api/submit-signed-tx').set('api-key', other.apiKey).send({ chainId: 31337, signedTx: raw }).expect(400);
      expect(code(refused)).toBe('VALIDATION_001');
      expect(refused.body.error.message).toMatch(/already submitted/);
    });
  });

  describe('one address rule', () => {
    // Mixed case with a wrong checksum: the hex still names the address (interface.md: case is not significant).
    const badChecksum = (address: string) => {
      const lower = address.toLowerCase();
      const mixed = '0x' + lower.slice(2).replace(/[a-f]/, (c) => c.toUpperCase());
      return mixed === address ? '0x' + lower.slice(2).toUpperCase() : mixed;
    };

    it('GET /gasless/quote takes a mixed-case address with a wrong checksum like GET /quote does', async () => {
      const sender = new Wallet(Wallet.createRandom().privateKey).address;
      const query = { fromChain: 31337, toChain: 31337, fromToken: badChecksum(token(chain, 'DAI')), toToken: badChecksum(token(chain, 'WETH')), amount: '100000000000000000000', sender: badChecksum(sender) };
      const swap = await t.http().get('/quote').set('api-key', apiKey).query(query).expect(200);
      expect(swap.body.code).toBe(0);
      const gasless = await t.http().get('/gasless/quote').set('api-key', apiKey).query({ ...query, acquisitionMode: 2 }).expect(200);
      expect(gasless.body.code).toBe(0);
      expect(gasless.body.data[0].eip712.message.permitted.token.toLowerCase()).toBe(token(chain, 'DAI').toLowerCase());
    });
  });

  describe('content types', () => {
    it('an application/*+json body is parsed', async () => {
      const res = await t.http().post('/api/quote').set('api-key', apiKey).set('content-type', 'application/vnd.api+json').send(JSON.stringify(okTx())).expect(201);
      expect(res.body.data.costUSD).toEqual(expect.any(Number));
    });
  });
});
