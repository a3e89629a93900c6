import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { erc20, mintCall, provider, randomAddress, testChain, token } from './support/chain-fixtures';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTxs } from './support/wait-for-tx';

describe('relay: concurrency, derived keys, EIP-7702, regions', () => {
  let t: TestApp;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const waitAll = (ids: string[]) => waitForTxs(t, ids, { timeoutMs: 60_000 });

  const sync = (apiKey: string, tx: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.http().post('/api/submit-tx-sync').set('api-key', apiKey).set(headers).send({ tx, timeoutMs: 20000 });

  it('50 concurrent submissions from one account all execute with distinct hashes and a ledger that reconciles to the cent', async () => {
    const { apiKey, userId, address } = await createAccount(t, 500);
    await t.http().patch(`/admin/accounts/${address}/limits`).set(adminAuth).send({ dailyLimit: 10000 }).expect(200);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    const rows = await waitAll(responses.map((r) => r.body.data.txId));
    expect(rows.map((r) => r.status)).toEqual(Array(50).fill('EXECUTED'));
    expect(new Set(rows.map((r) => r.executionTxHash)).size).toBe(50);

    const audit = await t.app.get(LedgerService).audit(userId);
    expect(audit.reconciles).toBe(true);
    expect(audit.pendingMicro).toBe(0n);
    const charged = rows.reduce((sum, r) => sum + Math.round((r.costUSD as number) * 1e6), 0);
    expect(BigInt(500_000_000 - charged)).toBe(audit.availableMicro);
    // Every receipt is on chain, from the relayer that the row names.
    const receipts = await Promise.all(rows.map((r) => provider(chain).getTransactionReceipt(r.executionTxHash as string)));
    expect(receipts.every((r) => r?.status === 1)).toBe(true);
  });

  it('authenticated transactions send from the key derived from derivationPath: same path, same sender', async () => {
    const { apiKey } = await createAccount(t, 50);
    const tx = (path: string) => ({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()), isAuthenticatedTx: true, derivationPath: path });
    const a1 = await sync(apiKey, tx("m/44'/60'/0'/0/7")).expect(200);
    const a2 = await sync(apiKey, tx("m/44'/60'/0'/0/7")).expect(200);
    const b = await sync(apiKey, tx("m/44'/60'/0'/0/8")).expect(200);
    expect([a1.body.data.status, a2.body.data.status, b.body.data.status]).toEqual(['EXECUTED', 'EXECUTED', 'EXECUTED']);
    expect(a1.body.data.transactionType).toBe('authenticated');
    const senderOf = async (hash: string) => (await provider(chain).getTransaction(hash))?.from;
    const [s1, s2, s3] = await Promise.all([a1, a2, b].map((r) => senderOf(r.body.data.executionTxHash)));
    expect(s1).toBe(s2);
    expect(s1).not.toBe(s3);
    // The derived sender was topped up just in time; the account paid for it.
    expect(a1.body.data.costUSD).toBeGreaterThan(0);
  });

  it('an invalid derivation path is VALIDATION_001', async () => {
    const { apiKey } = await createAccount(t, 50);
    const res = await t
      .http()
      .post('/api/submit-tx')
      .set('api-key', apiKey)
      .send({ chainId: 31337, to: usdc, callData: '0x', isAuthenticatedTx: true, derivationPath: 'not/a/path' })
      .expect(400);
    expect(res.body.error.code).toBe('VALIDATION_001');
  });

  it('relays an EIP-7702 authorization as a type-4 transaction and the delegation is visible on chain', async () => {
    const { apiKey } = await createAccount(t, 50);
    const authority = Wallet.createRandom();
    // Any address can be a delegate; one without code keeps the call itself trivially successful.
    const delegate = randomAddress();
    const auth = await authority.authorize({ address: delegate, nonce: 0n, chainId: 31337n });
    const res = await sync(apiKey, {
      chainId: 31337,
      to: authority.address,
      callData: '0x',
      authorizationList: [{ chainId: 31337, address: delegate, nonce: 0, yParity: auth.signature.yParity, r: auth.signature.r, s: auth.signature.s }],
    }).expect(200);
    expect(res.body.data.status).toBe('EXECUTED');
    const sent = await provider(chain).getTransaction(res.body.data.executionTxHash);
    expect(sent?.type).toBe(4);
    expect((await provider(chain).getCode(authority.address)).toLowerCase()).toBe(`0xef0100${delegate.slice(2).toLowerCase()}`);
  });

  it('the region comes from the header, then the body, then the country, then the default', async () => {
    const { apiKey } = await createAccount(t, 50);
    const tx = () => ({ chainId: 31337, to: usdc, callData: mintCall(randomAddress()) });
    const regionOf = async (body: Record<string, unknown>, headers: Record<string, string>) => {
      const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).set(headers).send(body).expect(201);
      const [row] = await waitAll([res.body.data.txId]);
      return row.submitRegion;
    };
    expect(await regionOf({ ...tx(), region: 'ap-south' }, { 'X-Relay-Region': 'eu-west' })).toBe('eu-west');
    expect(await regionOf({ ...tx(), region: 'ap-south' }, { 'X-Relay-Region': 'mars-1' })).toBe('ap-south');
    expect(await regionOf(tx(), { 'CF-IPCountry': 'DE' })).toBe('eu-west');
    expect(await regionOf(tx(), {})).toBe('us-east');
  });

  it('a transaction that reverts on chain is FAILED, charged, counted by the breaker, and explained by includeRevertInfo', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const path = `m/44'/60'/1'/0/${Math.floor(Math.random() * 1e6)}`;
    // Learn the derived sender, give it 100 USDC, then race two transfers of all of it: both simulate
    // fine, the second to be mined reverts on chain.
    const first = await sync(apiKey, { chainId: 31337, to: usdc, callData: mintCall(randomAddress()), isAuthenticatedTx: true, derivationPath: path }).expect(200);
    const sender = (await provider(chain).getTransaction(first.body.data.executionTxHash))!.from;
    const minter = new Wallet('0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6', provider(chain)); // anvil #8
    await (await minter.sendTransaction({ to: usdc, data: mintCall(sender, 100n) })).wait();
    const transfer = { chainId: 31337, to: usdc, callData: erc20.encodeFunctionData('transfer', [randomAddress(), 100n]), isAuthenticatedTx: true, derivationPath: path };
    const [a, b] = await Promise.all([1, 2].map(() => t.http().post('/api/submit-tx').set('api-key', apiKey).send(transfer).expect(201)));
    const rows = await waitAll([a.body.data.txId, b.body.data.txId]);
    expect(rows.map((r) => r.status).sort()).toEqual(['EXECUTED', 'FAILED']);
    const failed = rows.find((r) => r.status === 'FAILED')!;
    const detail = await t.http().get('/api/tx').query({ id: failed.id, includeRevertInfo: '1', includeReceipt: 'true' }).expect(200);
    expect(detail.body.data).toMatchObject({ isAccountCharged: true, receipt: { status: 0 } });
    expect(detail.body.data.revert.reason).toMatch(/ERC20InsufficientBalance\(sender=0x[0-9a-fA-F]{40}, balance=0, needed=100\)/);
    expect(detail.body.data.costUSD).toBeGreaterThan(0);
    // The breaker counts the failure and a later success resets it: which settled last decides the streak.
    const dataSource = t.app.get(DataSource);
    const [last] = await dataSource.query(
      `SELECT status FROM tx_status_events WHERE tx_id = ANY($1) AND status <> 'PENDING' ORDER BY id DESC LIMIT 1`,
      [[a.body.data.txId, b.body.data.txId]],
    );
    const streak = await dataSource.query('SELECT failure_streak FROM accounts WHERE id = $1', [userId]);
    expect(streak[0].failure_streak).toBe(last.status === 'FAILED' ? 1 : 0);
    expect((await t.app.get(LedgerService).audit(userId)).reconciles).toBe(true);
  });
});
