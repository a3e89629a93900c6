import { Wallet } from 'ethers';
import { LedgerService } from '../src/modules/accounts/domain/ledger.service';
import { erc20, mintCall, provider, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import { createAccount, createTestApp, TestApp } from './support/test-app';
import { waitForTx } from './support/wait-for-tx';

describe('relay: funding-signed (POST /api/submit-signed-tx)', () => {
  let t: TestApp;
  const chain = testChain(31337);
  const usdc = token(chain, 'USDC');
  const rpc = provider(chain);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signedBy(wallet: Wallet, overrides: Record<string, unknown> = {}) {
    const block = await rpc.getBlock('latest');
    const tx = {
      chainId: 31337,
      nonce: 0,
      to: usdc,
      data: mintCall(randomAddress(), 11n),
      value: 0n,
      gasLimit: 120_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerGas: block!.baseFeePerGas! * 2n + 1_000_000_000n,
      type: 2,
      ...overrides,
    };
    return { tx, raw: await wallet.signTransaction(tx) };
  }

  it('tops a sender with no ETH up to minBalanceRequired, broadcasts its transaction and charges funding plus 8%', async () => {
    const { apiKey, userId } = await createAccount(t, 50);
    const user = Wallet.createRandom() as unknown as Wallet;
    const { tx, raw } = await signedBy(user);
    const quote = await t
      .http()
      .post('/api/quote')
      .set('api-key', apiKey)
      .send({ chainId: 31337, to: tx.to, callData: tx.data, gasLimit: tx.gasLimit.toString(), maxFeePerGas: tx.maxFeePerGas.toString(), maxPriorityFeePerGas: tx.maxPriorityFeePerGas.toString() })
      .expect(201);
    const res = await t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send({ chainId: 31337, signedTx: raw, label: 'signed' }).expect(201);
    expect(res.body.data).toEqual({ txId: expect.any(String), estimatedCostUSD: expect.any(Number), fundingTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const funding = await rpc.getTransaction(res.body.data.fundingTxHash);
    expect(funding?.value).toBe(BigInt(quote.body.data.minBalanceRequired));

    const record = await waitForTx(t, res.body.data.txId);
    expect(record).toMatchObject({ status: 'EXECUTED', transactionType: 'funding-signed', isAccountCharged: true, label: 'signed' });
    expect(record.executionTxHash).toBe((await rpc.getTransaction(record.executionTxHash as string))?.hash);
    expect((await rpc.getTransaction(record.executionTxHash as string))?.from).toBe(user.address);
    const [recipient] = erc20.decodeFunctionData('mint', tx.data);
    expect(await tokenContract(chain, 'USDC').balanceOf(recipient)).toBe(11n);
    // funding × 1.08 (+ the transfer's gas) in USD, never less.
    const minimum = (Number(quote.body.data.minBalanceRequired) / 1e18) * 1.08 * 2900;
    expect(record.costUSD as number).toBeGreaterThan(minimum);
    expect((await t.app.get(LedgerService).audit(userId)).reconciles).toBe(true);
  });

  it('rejects transactions it cannot fund', async () => {
    const { apiKey } = await createAccount(t, 50);
    const user = Wallet.createRandom() as unknown as Wallet;
    const send = (body: Record<string, unknown>) => t.http().post('/api/submit-signed-tx').set('api-key', apiKey).send(body);
    expect((await send({ chainId: 31337, signedTx: 'nope' }).expect(400)).body.error.code).toBe('VALIDATION_004');
    expect((await send({ chainId: 31337, signedTx: '0xdeadbeef' }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await send({ chainId: 31337, signedTx: (await signedBy(user, { chainId: 84532 })).raw }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await send({ chainId: 31337, signedTx: (await signedBy(user, { nonce: 5 })).raw }).expect(400)).body.error.code).toBe('VALIDATION_001');
    expect((await send({ chainId: 999, signedTx: (await signedBy(user)).raw }).expect(400)).body.error.code).toBe('CHAIN_001');
    const poor = await createAccount(t, 0.000001);
    const refused = await t.http().post('/api/submit-signed-tx').set('api-key', poor.apiKey).send({ chainId: 31337, signedTx: (await signedBy(user)).raw }).expect(400);
    expect(refused.body.error.code).toBe('TRANSACTION_002');
  });
});
