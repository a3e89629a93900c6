import type { AddressInfo } from 'node:net';
import { createPublicClient, createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mintCall, testChain, token } from '../../../test/support/chain-fixtures';
import { adminAuth, createTestApp, TestApp } from '../../../test/support/test-app';
import { RelayApiError, RelayClient, type DepositQuote } from '../src';

/**
 * A vault deposit and withdrawal on anvil (prague) signed only with viem: the first plan with a
 * local account (EIP-7702 authorization + Execute), the withdrawal with a WalletClient that sees
 * the delegation through its transport and signs the Execute message alone.
 */
describe('SDK vault flow signed with viem, on chain', () => {
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const publicClient = createPublicClient({ transport: http(chain.rpcUrl) });
  let t: TestApp;
  let client: RelayClient;

  beforeAll(async () => {
    t = await createTestApp({ env: { SETTLEMENT_DELEGATE_31337: chain.contracts.settlementDelegate, VAULT_SAMPLE_INTERVAL_MS: '300', VAULT_APY_MIN_SPAN_SECONDS: '3' } });
    await t.app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const res = await t.http().post('/admin/accounts').set(adminAuth).send({ address: privateKeyToAccount(generatePrivateKey()).address, creditUsd: 100 }).expect(201);
    client = new RelayClient({ baseUrl, apiKey: res.body.data.apiKey });
  });
  afterAll(() => t.close());

  it('first deposit by a viem local account (with authorization), withdrawal by a viem WalletClient (Execute only)', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await client.relay.submitSync({ tx: { chainId: 31337, to: usdc, callData: mintCall(account.address, 5_000_000n) }, timeoutMs: 30_000 });

    // APYs come from share prices sampled at distinct blocks: mine until the venues can be quoted.
    let quote: DepositQuote | undefined;
    for (const deadline = Date.now() + 40_000; !quote; ) {
      await publicClient.request({ method: 'evm_mine' as never, params: [] as never });
      quote = await client.vault.quoteDeposit({ userAddress: account.address, chain: 31337, asset: usdc, amount: '5000000' }).catch((err: unknown) => {
        if (!(err instanceof RelayApiError && err.code === 'RESOURCE_001') || Date.now() > deadline) throw err;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 500));
      });
    }

    const plan = await client.vault.sign(quote, account, { publicClient });
    expect(plan.authorization).toMatchObject({ chainId: 31337, address: quote.txPayload.authorization.address, nonce: 0 });
    const deposit = await client.vault.waitForOrder((await client.vault.execute(plan)).orderId, { timeoutMs: 30_000, pollIntervalMs: 200 });
    expect(deposit).toMatchObject({ status: 'confirmed', kind: 'deposit' });
    const code = await publicClient.getCode({ address: account.address });
    expect(code?.toLowerCase()).toBe(`0xef0100${quote.txPayload.authorization.address.slice(2).toLowerCase()}`);

    const [position] = await client.vault.positions(account.address, 31337);
    expect(BigInt(position.shares)).toBeGreaterThan(0n);
    const wallet = createWalletClient({ account, transport: http(chain.rpcUrl) });
    const withdrawal = await client.vault.quoteWithdrawal({ userAddress: account.address, chain: 31337, vault: position.vault });
    const signed = await client.vault.sign(withdrawal, wallet);
    expect(signed.authorization).toBeUndefined();
    const done = await client.vault.waitForOrder((await client.vault.execute(signed)).orderId, { timeoutMs: 30_000, pollIntervalMs: 200 });
    expect(done).toMatchObject({ status: 'confirmed', kind: 'withdraw' });
    expect(await client.vault.positions(account.address, 31337)).toEqual([]);
  }, 120_000);
});
