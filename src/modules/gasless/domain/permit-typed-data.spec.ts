import { SignatureTransfer } from '@uniswap/permit2-sdk';
import { Wallet, verifyTypedData } from 'ethers';
import { permitTypedData, signingTypes, typedDataDigest, WITNESS_TYPE_STRING } from './permit-typed-data';

const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SPENDER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
// The SDK adds the witness to the permit object it is given, so every call gets a fresh copy.
const permit = () => ({ permitted: { token: TOKEN, amount: '1000000' }, spender: SPENDER, nonce: '123456789012345678901234567890', deadline: '1900000000' });
const input = { chainId: 31337, permit2: PERMIT2, spender: SPENDER, token: TOKEN, amount: '1000000', nonce: permit().nonce, deadline: permit().deadline };
const witness = { tokenOut: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0', minAmountOut: '987654321', receiver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', feeAmount: '4321' };

describe('Permit2 typed data', () => {
  it('mode 2 hashes exactly as @uniswap/permit2-sdk SignatureTransfer.hash', () => {
    expect(typedDataDigest(permitTypedData(input))).toBe(SignatureTransfer.hash(permit(), PERMIT2, 31337));
  });

  it('mode 3 (SwapWitness) hashes exactly as the SDK with the same witness', () => {
    const sdkWitness = {
      witness,
      witnessTypeName: 'SwapWitness',
      witnessType: { SwapWitness: signingTypes(permitTypedData({ ...input, witness })).SwapWitness },
    };
    expect(typedDataDigest(permitTypedData({ ...input, witness }))).toBe(SignatureTransfer.hash(permit(), PERMIT2, 31337, sdkWitness));
  });

  it('changing any witness field changes the digest', () => {
    const base = typedDataDigest(permitTypedData({ ...input, witness }));
    for (const field of Object.keys(witness) as (keyof typeof witness)[]) {
      const altered = { ...witness, [field]: field === 'receiver' || field === 'tokenOut' ? SPENDER : '1' };
      expect(typedDataDigest(permitTypedData({ ...input, witness: altered }))).not.toBe(base);
    }
  });

  it('mode 2 payload has the interface.md shape and a wallet signature over it recovers', async () => {
    const payload = permitTypedData(input);
    expect(payload.primaryType).toBe('PermitTransferFrom');
    expect(Object.keys(payload.types).sort()).toEqual(['EIP712Domain', 'PermitTransferFrom', 'TokenPermissions']);
    expect(payload.domain).toEqual({ name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2 });
    expect(payload.message).toEqual(permit());
    const wallet = Wallet.createRandom();
    const signature = await wallet.signTypedData(payload.domain, signingTypes(payload), payload.message);
    expect(verifyTypedData(payload.domain, signingTypes(payload), payload.message, signature)).toBe(wallet.address);
  });

  it('the witness type string is the suffix Permit2 expects', () => {
    expect(WITNESS_TYPE_STRING.startsWith('SwapWitness witness)')).toBe(true);
    // Referenced struct types follow alphabetically, as EIP-712 encodeType requires.
    expect(WITNESS_TYPE_STRING.indexOf('SwapWitness(')).toBeLessThan(WITNESS_TYPE_STRING.indexOf('TokenPermissions('));
  });
});
