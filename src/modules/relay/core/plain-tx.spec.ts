import { keccak256, Transaction, TransactionRequest, Wallet } from 'ethers';
import { LocalKeySigner, nativeSigning } from './local-key-signer';
import { plainTx } from './plain-tx';

describe('plainTx: the relay’s transactions serialized without ethers’ Transaction', () => {
  const wallet = new Wallet('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const signer = new LocalKeySigner(wallet.privateKey, wallet.address);
  const to = '0x90f79bf6eb2c4f870365e785982e1f101e93b906';

  // Lengths across every RLP boundary: single bytes under 0x80, 0x80, 55/56-byte strings and lists, long data.
  const nonces = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0xffff, 2 ** 40];
  const values = [0n, 1n, 0x7fn, 0x80n, 10n ** 18n, 2n ** 255n];
  const datas = ['0x', '0x00', '0x7f', '0x80', `0x${'ab'.repeat(55)}`, `0x${'cd'.repeat(56)}`, `0x${'ef'.repeat(300)}`, `0x${'12'.repeat(70_000)}`];
  const chains = [1, 31337, 84532, 2 ** 40];
  const fees: TransactionRequest[] = [
    { type: 0, gasPrice: 3_000_000_000n },
    { type: 0, gasPrice: 0n },
    { type: 2, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
    { type: 2, maxFeePerGas: 0n, maxPriorityFeePerGas: 0n },
  ];

  it('signs to the bytes and hash ethers Wallet makes, for every field length', async () => {
    expect(nativeSigning).toBe(true);
    let n = 0;
    for (const fee of fees)
      for (const chainId of chains)
        for (const nonce of nonces) {
          const request = { ...fee, chainId, nonce, to, data: datas[n % datas.length], value: values[n % values.length], gasLimit: BigInt(21_000 + n * 997) };
          n++;
          expect(plainTx(request)).not.toBeNull();
          const { raw, hash } = await signer.signTransactionHashed(request);
          const expected = await wallet.signTransaction(request);
          expect(raw).toBe(expected);
          expect(hash).toBe(keccak256(expected));
          expect(await signer.signTransaction(request)).toBe(expected);
          expect(Transaction.from(raw).from).toBe(wallet.address);
        }
  });

  it('leaves to ethers what it does not serialize itself: other types, access lists, a mixed-case address, numbers as strings', () => {
    const base = { type: 2, chainId: 1, nonce: 0, to, data: '0x', value: 0n, gasLimit: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n };
    expect(plainTx(base)).not.toBeNull();
    expect(plainTx({ ...base, type: 4, authorizationList: [] })).toBeNull();
    expect(plainTx({ ...base, type: 1 })).toBeNull();
    expect(plainTx({ ...base, accessList: [] })).toBeNull();
    expect(plainTx({ ...base, to: '0x90F79bf6EB2c4f870365E785982E1f101E93b906' })).toBeNull();
    expect(plainTx({ ...base, to: null })).toBeNull();
    expect(plainTx({ ...base, data: '0xabc' })).toBeNull();
    expect(plainTx({ ...base, value: '5' })).toBeNull();
    expect(plainTx({ ...base, chainId: 0 })).toBeNull();
    expect(plainTx({ ...base, gasPrice: 1n })).toBeNull();
  });

  it('a checksummed (mixed-case) address still signs the same bytes, through ethers', async () => {
    const request = { type: 2, chainId: 31337, nonce: 3, to: '0x90F79bf6EB2c4f870365E785982E1f101E93b906', data: '0x', value: 0n, gasLimit: 21_000n, maxFeePerGas: 5n, maxPriorityFeePerGas: 1n };
    expect(await signer.signTransactionHashed(request)).toEqual({ raw: await wallet.signTransaction(request), hash: keccak256(await wallet.signTransaction(request)) });
  });
});
