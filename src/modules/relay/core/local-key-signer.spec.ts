import { Transaction, Wallet } from 'ethers';
import { LocalKeySigner, nativeSigning } from './local-key-signer';

describe('LocalKeySigner', () => {
  const wallet = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const signer = new LocalKeySigner(wallet.privateKey, wallet.address);
  const to = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

  it('uses libsecp256k1 on this platform (prebuilt binary of the secp256k1 package)', () => {
    // linux-x64, darwin-arm64 and win32-x64 ship one; elsewhere signing falls back to ethers.
    if (['linux-x64', 'darwin-arm64', 'win32-x64'].includes(`${process.platform}-${process.arch}`)) expect(nativeSigning).toBe(true);
  });

  it.each([
    ['legacy', { type: 0, gasPrice: 3_000_000_000n }],
    ['EIP-1559', { type: 2, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n }],
  ])('signs a %s transaction to the same bytes as ethers Wallet', async (_name, fees) => {
    for (let nonce = 0; nonce < 20; nonce++) {
      const request = { ...fees, chainId: 31337, nonce, to, data: `0x${nonce.toString(16).padStart(8, '0')}`, value: BigInt(nonce), gasLimit: 50_000n };
      const raw = await signer.signTransaction(request);
      expect(raw).toBe(await wallet.signTransaction(request));
      expect(Transaction.from(raw).from).toBe(wallet.address);
    }
  });

  it('signs an EIP-7702 (type 4) transaction with its authorization list as ethers does', async () => {
    const authority = Wallet.createRandom();
    const auth = await authority.authorize({ address: to, nonce: 0n, chainId: 31337n });
    const request = { type: 4, chainId: 31337, nonce: 7, to: authority.address, data: '0x', value: 0n, gasLimit: 100_000n, maxFeePerGas: 2n * 10n ** 9n, maxPriorityFeePerGas: 10n ** 9n, authorizationList: [auth] };
    const raw = await signer.signTransaction(request);
    expect(raw).toBe(await wallet.signTransaction(request));
    expect(Transaction.from(raw).authorizationList?.[0].address).toBe(to);
  });
});
