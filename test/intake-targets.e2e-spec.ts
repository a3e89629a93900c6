import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HDNodeWallet, Interface, Mnemonic, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { DEV_RELAYER_MNEMONIC, devRelayerAddresses, devTreasuryAddress } from '../scripts/local-stack/dev-keys';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';
import { WebhookReceiver } from './support/webhook-receiver';

const APPROVAL_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** View calls: each one succeeds when sent as a transaction, so only the target decides a refusal. */
const views = new Interface([
  'function feeRecipient() view returns (address)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function weth() view returns (address)',
  'function domainSeparator() view returns (bytes32)',
]);

describe('what team submissions may target (docs/security.md, "What team submissions may target")', () => {
  let t: TestApp;
  let db: DataSource;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const mintSelector = erc20.getFunction('mint')!.selector;

  beforeAll(async () => {
    t = await createTestApp({ env: { APPROVAL_TIMEOUT_MS: '3000' } });
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const limits = (address: string, body: object) => t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send(body);

  async function expectNothingReserved(userId: string, creditUsd: number): Promise<void> {
    const [{ n }] = await db.query('SELECT count(*)::int AS n FROM relay_transactions WHERE user_id = $1', [userId]);
    expect(n).toBe(0);
    const entries = await db.query('SELECT id FROM ledger_entries WHERE user_id = $1', [userId]);
    expect(entries).toHaveLength(1);
    const [account] = await db.query('SELECT available_micro::text AS available, pending_micro::text AS pending FROM accounts WHERE id = $1', [userId]);
    expect(account).toEqual({ available: String(creditUsd * 1_000_000), pending: '0' });
  }

  /** The same call through each of the four team-facing routes (submit-signed-tx: signed by a fresh user key). */
  async function throughEveryRoute(apiKey: string, tx: { to: string; callData: string }): Promise<Array<[string, { status: number; body: { error?: { code: string; message: string } } }]>> {
    const body = { chainId: 31337, ...tx };
    const user = Wallet.createRandom();
    const signedTx = await user.signTransaction({
      type: 2, chainId: 31337, nonce: 0, to: tx.to, data: tx.callData, value: 0n, gasLimit: 100_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000n,
    });
    return [
      ['quote', await t.http().post('/api/quote').set('api-key', apiKey).send(body)],
      ['submit-tx', await t.http().post('/api/submit-tx').set('api-key', apiKey).send(body)],
      ['submit-tx-sync', await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: body, timeoutMs: 5000 })],
      ['submit-signed-tx', await t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send({ chainId: 31337, signedTx })],
    ];
  }

  const privileged: Array<[string, () => { to: string; callData: string }]> = [
    ['the gasless settler', () => ({ to: chain.contracts.gaslessSettler, callData: views.encodeFunctionData('feeRecipient') })],
    ['Permit2', () => ({ to: chain.contracts.permit2, callData: views.encodeFunctionData('DOMAIN_SEPARATOR') })],
    ['the swap executor', () => ({ to: chain.contracts.swapExecutor, callData: views.encodeFunctionData('weth') })],
    ['the settlement delegate', () => ({ to: chain.contracts.settlementDelegate, callData: views.encodeFunctionData('domainSeparator') })],
    ['the treasury', () => ({ to: devTreasuryAddress(), callData: '0x' })],
    ['a relayer key', () => ({ to: devRelayerAddresses(1, 1)[0], callData: '0x' })],
  ];

  describe('the service\'s own contracts, Permit2, the treasury and relayer keys as `to` (403 TRANSACTION_007)', () => {
    it.each(privileged)('refuses %s on quote, submit-tx, submit-tx-sync and submit-signed-tx with nothing reserved', async (_name, call) => {
      const { apiKey, userId } = await createAccount(t, 10);
      const tx = call();
      expect(tx.to).toMatch(/^0x[0-9a-fA-F]{40}$/);
      for (const [route, res] of await throughEveryRoute(apiKey, tx)) {
        expect([route, res.status, res.body.error?.code]).toEqual([route, 403, 'TRANSACTION_007']);
        expect(res.body.error!.message).toMatch(/relay's own|treasury|relayer key/);
      }
      // Lower-case spelling is the same address.
      const lower = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, ...tx, to: tx.to.toLowerCase() });
      expect([lower.status, lower.body.error?.code]).toEqual([403, 'TRANSACTION_007']);
      await expectNothingReserved(userId, 10);
    });
  });

  describe('EIP-7702 authorizationList', () => {
    async function authorization(authority: Pick<Wallet, 'authorize'>, delegate: string, chainId = 31337n) {
      const auth = await authority.authorize({ address: delegate, nonce: 0n, chainId });
      return { chainId: Number(chainId), address: delegate, nonce: 0, yParity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s };
    }

    it.each([
      ['the gasless settler', () => chain.contracts.gaslessSettler],
      ['Permit2', () => chain.contracts.permit2],
      ['the settlement delegate', () => chain.contracts.settlementDelegate],
    ])('refuses %s as a delegate on quote, submit-tx and submit-tx-sync with nothing reserved', async (_name, delegate) => {
      const { apiKey, userId } = await createAccount(t, 10);
      const authority = Wallet.createRandom();
      const tx = { chainId: 31337, to: authority.address, callData: '0x', authorizationList: [await authorization(authority, randomAddress()), await authorization(authority, delegate())] };
      for (const [route, res] of [
        ['quote', await t.http().post('/api/quote').set('api-key', apiKey).send(tx)],
        ['submit-tx', await t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx)],
        ['submit-tx-sync', await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 5000 })],
      ] as const) {
        expect([route, res.status, res.body.error?.code]).toEqual([route, 403, 'TRANSACTION_007']);
        expect(res.body.error.message).toMatch(/authorizationList\[1\]/);
      }
      await expectNothingReserved(userId, 10);
      expect(await provider(chain).getCode(authority.address)).toBe('0x');
    });

    it('allowedTargets governs delegates: an unlisted one is refused (403 TRANSACTION_007), a listed one is relayed whatever its selectors', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      const authority = Wallet.createRandom();
      const listed = randomAddress();
      const elsewhere = randomAddress();
      // A mint-only policy on USDC, plus two delegates: one listed for this chain, one for another chain only.
      await limits(address, { allowedTargets: [{ chainId: 31337, address: usdc, selectors: [mintSelector] }, { chainId: 31337, address: listed, selectors: ['0x12345678'] }, { chainId: 84532, address: elsewhere }] }).expect(200);
      const mint = { chainId: 31337, to: usdc, callData: mintCall(randomAddress()) };
      for (const delegate of [randomAddress(), elsewhere]) {
        const tx = { ...mint, authorizationList: [await authorization(authority, delegate)] };
        for (const [route, res] of [
          ['quote', await t.http().post('/api/quote').set('api-key', apiKey).send(tx)],
          ['submit-tx', await t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx)],
          ['submit-tx-sync', await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 5000 })],
        ] as const) {
          expect([route, res.status, res.body.error?.code]).toEqual([route, 403, 'TRANSACTION_007']);
          expect(res.body.error.message).toMatch(/authorizationList\[0\].*allowedTargets/);
        }
      }
      await expectNothingReserved(userId, 10);

      const res = await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx: { ...mint, authorizationList: [await authorization(authority, listed)] }, timeoutMs: 15000 }).expect(200);
      expect(res.body.data.status).toBe('EXECUTED');
      expect((await provider(chain).getCode(authority.address)).toLowerCase()).toBe(`0xef0100${listed.slice(2).toLowerCase()}`);
    });

    it('refuses an authorization for chain 0 (any chain) or another chain with 400 VALIDATION_001 and nothing reserved', async () => {
      const { apiKey, userId } = await createAccount(t, 10);
      const authority = Wallet.createRandom();
      for (const chainId of [0n, 84532n]) {
        const tx = { chainId: 31337, to: authority.address, callData: '0x', authorizationList: [await authorization(authority, randomAddress(), chainId)] };
        for (const [route, res] of [
          ['quote', await t.http().post('/api/quote').set('api-key', apiKey).send(tx)],
          ['submit-tx', await t.http().post('/api/submit-tx').set('api-key', apiKey).send(tx)],
          ['submit-tx-sync', await t.http().post('/api/submit-tx-sync').set('api-key', apiKey).send({ tx, timeoutMs: 5000 })],
        ] as const) {
          expect([route, chainId, res.status, res.body.error?.code]).toEqual([route, chainId, 400, 'VALIDATION_001']);
          expect(res.body.error.message).toMatch(/authorizationList\[0\]\.chainId must be 31337/);
        }
      }
      await expectNothingReserved(userId, 10);
      expect(await provider(chain).getCode(authority.address)).toBe('0x');
    });
  });

  describe('the approval webhook sees everything that will run and what it may cost', () => {
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await WebhookReceiver.start();
      receiver.reply = () => ({ status: 200, body: { approve: true } });
    });
    afterAll(() => receiver.close());

    const rowOf = async (txId: string) => {
      const [row] = await db.query('SELECT gas_limit::text AS "gasLimit", max_fee_per_gas::text AS "maxFeePerGas", max_priority_fee_per_gas::text AS "maxPriorityFeePerGas", gas_price::text AS "gasPrice" FROM relay_transactions WHERE id = $1', [txId]);
      return row as Record<string, string | null>;
    };

    it('submit-tx: authorizationList, gasLimit, the fees the service will use (its own or the caller\'s) and value', async () => {
      const { address, apiKey, userId } = await createAccount(t, 10);
      await limits(address, { approvalWebhook: { url: receiver.url('/approve'), secret: APPROVAL_SECRET } }).expect(200);
      const authority = Wallet.createRandom();
      const delegate = randomAddress();
      const auth = await authority.authorize({ address: delegate, nonce: 0n, chainId: 31337n });
      const authorizationList = [{ chainId: 31337, address: delegate, nonce: 0, yParity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s }];

      // The service's fees.
      const auto = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: authority.address, callData: '0x', value: '7', authorizationList }).expect(201);
      const first = receiver.calls[receiver.calls.length - 1].body;
      const autoRow = await rowOf(auto.body.data.txId);
      expect(first).toEqual({
        event: 'sponsorship.request', userId, chainId: 31337, to: authority.address.toLowerCase(), callData: '0x', value: '7', label: '', derivationPath: null,
        estimatedCostUSD: auto.body.data.estimatedCostUSD,
        authorizationList: [{ chainId: 31337, address: delegate, nonce: 0, yParity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s }],
        gasLimit: autoRow.gasLimit,
        maxFeePerGas: autoRow.maxFeePerGas,
        maxPriorityFeePerGas: autoRow.maxPriorityFeePerGas,
        gasPrice: null,
      });
      expect(BigInt(first.gasLimit as string)).toBeGreaterThan(21_000n);
      expect(BigInt(first.maxFeePerGas as string)).toBeGreaterThan(0n);

      // The caller's fees and gas limit.
      await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()), gasLimit: '150000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '2000000' }).expect(201);
      expect(receiver.calls[receiver.calls.length - 1].body).toMatchObject({ authorizationList: null, gasLimit: '150000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '2000000', gasPrice: null, value: '0' });
    });

    it('submit-signed-tx: the signed gasLimit, fees and value', async () => {
      const { address, apiKey } = await createAccount(t, 10);
      await limits(address, { approvalWebhook: { url: receiver.url('/approve-signed'), secret: APPROVAL_SECRET } }).expect(200);
      const user = Wallet.createRandom();
      const signedTx = await user.signTransaction({
        type: 2, chainId: 31337, nonce: 0, to: usdc, data: mintCall(user.address), value: 0n, gasLimit: 120_000n, maxFeePerGas: 2_500_000_000n, maxPriorityFeePerGas: 1_500_000n,
      });
      await t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send({ chainId: 31337, signedTx }).expect(201);
      const call = receiver.calls[receiver.calls.length - 1];
      expect(call.path).toBe('/approve-signed');
      expect(call.body).toMatchObject({ to: usdc.toLowerCase(), value: '0', authorizationList: null, gasLimit: '120000', maxFeePerGas: '2500000000', maxPriorityFeePerGas: '1500000', gasPrice: null });
    });
  });

  describe('a key that holds a privilege never signs a team\'s calldata', () => {
    it('startup refuses a treasury that is one of the relayer pool keys (it would sign team calldata)', async () => {
      const root = join(__dirname, '..');
      // A pool path as treasury is refused by the config's key separation (startup-config spec); a pool key given as the treasury's own key is refused here.
      const poolKey = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_RELAYER_MNEMONIC), "m/44'/60'/0'/0/1").privateKey;
      const started = await promisify(execFile)(join(root, 'node_modules/.bin/ts-node'), ['--transpile-only', 'src/main.ts'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...testEnv(), PORT: '0', RELAYER_TREASURY_PATH: '', RELAYER_TREASURY_KEY: poolKey },
        // A cold ts-node start takes ~30 s on a loaded machine; a refusal comes right after the modules load.
        timeout: 90_000,
      }).then(() => ({ code: 0, stderr: '' }), (err: { code: number | null; stderr: string }) => ({ code: err.code, stderr: err.stderr }));
      expect(started.code).toBe(1);
      expect(started.stderr).toMatch(/RELAYER_TREASURY_KEY: the treasury 0x[0-9a-f]{40} is one of the relayer pool keys/);
    }, 120_000);
  });
});
