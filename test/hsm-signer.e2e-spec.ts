import { hashAuthorization, JsonRpcProvider, parseEther, recoverAddress, Signature, Transaction, TypedDataEncoder } from 'ethers';
import { Pkcs11KeySource } from '../src/modules/relay/core/signers/key-sources';
import { validateConfig } from '../src/config/app-config';
import { mintCall, randomAddress, testChain, token, tokenContract } from './support/chain-fixtures';
import { SoftHsm, softHsm, tokenTreasury } from './support/softhsm';
import { adminAuth, createAccount, createTestApp, TestApp } from './support/test-app';
import { testEnv } from './support/test-env';
import { waitForTx } from './support/wait-for-tx';

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
const REGION = 'hsmflow';

/**
 * RELAYER_SIGNER=pkcs11 on a SoftHSM2 token: keys generated inside the token, signing through
 * CKM_ECDSA, the relay flow end to end with token keys, and the keys' protection attributes.
 */
describe('relayer keys in a PKCS#11 token (SoftHSM2)', () => {
  const chain = testChain(31337);
  const rpc = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, cacheTimeout: -1 });
  let hsm: SoftHsm;
  let keys: Array<{ label: string; address: string }>;
  let treasury: string;
  let t: TestApp | undefined;

  beforeAll(async () => {
    hsm = softHsm();
    keys = [hsm.generate(`relayer-${REGION}-0`), hsm.generate(`relayer-${REGION}-1`)];
    treasury = tokenTreasury(hsm);
    for (const address of [...keys.map((k) => k.address), treasury]) await rpc.send('anvil_setBalance', [address, '0x' + parseEther('10').toString(16)]);
  });
  afterAll(async () => {
    await t?.close();
    rpc.destroy();
  });

  it('the private keys are sensitive, never extractable, on the token; the token refuses their value', () => {
    for (const label of [...keys.map((k) => k.label), 'relayer-treasury']) {
      expect(hsm.privateAttributes(label)).toEqual({ sensitive: true, extractable: false, alwaysSensitive: true, neverExtractable: true, token: true });
      expect(hsm.readPrivateValue(label)).toMatch(/CKR_ATTRIBUTE_SENSITIVE/);
    }
  });

  it('signs legacy, EIP-1559 and EIP-7702 transactions, EIP-712 data and authorizations: low-s, recovering to the token key', async () => {
    const config = validateConfig({ ...process.env, ...testEnv(), ...hsm.env, RELAY_REGIONS: REGION, RELAY_DEFAULT_REGION: REGION });
    const source = new Pkcs11KeySource(config, [REGION]);
    try {
      const found = source.keys();
      expect(found.map((k) => [k.region, k.index, k.signer.address])).toEqual(keys.map((k, i) => [REGION, i, k.address]));
      expect(source.treasury()?.address).toBe(treasury);
      const signer = found[0].signer;
      const base = { chainId: 31337, nonce: 3, to: randomAddress(), value: 5n, gasLimit: 21_000n, data: '0x' };
      const raws = [
        await signer.signTransaction({ ...base, type: 0, gasPrice: 10n ** 9n }),
        await signer.signTransaction({ ...base, type: 2, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n }),
        await signer.signTransaction({
          ...base,
          type: 4,
          maxFeePerGas: 2n * 10n ** 9n,
          maxPriorityFeePerGas: 10n ** 9n,
          authorizationList: [await signer.authorize({ address: randomAddress(), chainId: 31337n, nonce: 0n })],
        }),
      ];
      for (const raw of raws) {
        const tx = Transaction.from(raw);
        expect(tx.from).toBe(signer.address);
        expect(BigInt(tx.signature!.s)).toBeLessThanOrEqual(HALF_N);
      }
      const auth = Transaction.from(raws[2]).authorizationList![0];
      expect(recoverAddress(hashAuthorization(auth), auth.signature)).toBe(signer.address);
      // Many digests: both recovery ids occur and every s is low (the token's own s is high about half the time).
      const parities = new Set<number>();
      for (let i = 0; i < 16; i++) {
        const domain = { name: 'Test', version: '1', chainId: 31337, verifyingContract: randomAddress() };
        const types = { Mail: [{ name: 'n', type: 'uint256' }] };
        const sig = Signature.from(await signer.signTypedData(domain, types, { n: i }));
        parities.add(sig.yParity);
        expect(BigInt(sig.s)).toBeLessThanOrEqual(HALF_N);
        expect(recoverAddress(TypedDataEncoder.hash(domain, types, { n: i }), sig)).toBe(signer.address);
      }
      expect(parities).toEqual(new Set([0, 1]));
    } finally {
      source.close();
    }
  });

  it('relays a call signed by a token key end to end; GET /admin/relayers shows signer pkcs11, state active', async () => {
    t = await createTestApp({ env: { ...hsm.env, RELAY_REGIONS: REGION, RELAY_DEFAULT_REGION: REGION } });
    const { apiKey } = await createAccount(t, 20);
    const recipient = randomAddress();
    const usdc = token(chain, 'USDC');
    const res = await t.http().post('/api/submit-tx').set('api-key', apiKey).send({ chainId: 31337, to: usdc, callData: mintCall(recipient, 7_000_000n) }).expect(201);
    const tx = await waitForTx(t, res.body.data.txId);
    expect(tx).toMatchObject({ status: 'EXECUTED', isAccountCharged: true, submitRegion: REGION });
    const mined = await rpc.getTransaction(tx.executionTxHash as string);
    expect(keys.map((k) => k.address)).toContain(mined!.from);
    expect(await tokenContract(chain, 'USDC').balanceOf(recipient)).toBe(7_000_000n);

    const rows = (await t.http().get('/admin/relayers').set(adminAuth).expect(200)).body.data as Array<{ address: string; signer: string; state: string; region: string }>;
    const ours = rows.filter((r) => r.region === REGION);
    expect(new Set(ours.map((r) => r.address))).toEqual(new Set(keys.map((k) => k.address)));
    for (const r of ours) expect(r).toMatchObject({ signer: 'pkcs11', state: 'active' });
  });
});
