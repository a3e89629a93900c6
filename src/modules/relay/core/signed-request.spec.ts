import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { feesOf, recordedFees, signedRequest } from './signed-request';

const row = (fields: Partial<RelayTransactionEntity>) =>
  Object.assign(new RelayTransactionEntity(), { chainId: 31337, to: '0x0000000000000000000000000000000000000001', callData: '0x', value: '5', gasLimit: '21000', gasPrice: null, maxFeePerGas: '30', maxPriorityFeePerGas: '2', authorizationList: null }, fields);

describe('signed requests', () => {
  it('signs with the fees the row was accepted with (legacy or EIP-1559)', () => {
    expect(feesOf(row({}))).toEqual({ type: 'eip1559', maxFeePerGas: 30n, maxPriorityFeePerGas: 2n });
    expect(feesOf(row({ gasPrice: '40', maxFeePerGas: null, maxPriorityFeePerGas: null }))).toEqual({ type: 'legacy', gasPrice: 40n });
  });

  it('reads back the fees a broadcast was signed with, for a replacement to bump', () => {
    expect(recordedFees({ maxFeePerGas: '50', maxPriorityFeePerGas: null })).toEqual({ type: 'legacy', gasPrice: 50n });
    expect(recordedFees({ maxFeePerGas: '50', maxPriorityFeePerGas: '3' })).toEqual({ type: 'eip1559', maxFeePerGas: 50n, maxPriorityFeePerGas: 3n });
  });

  it('builds type 2, or type 4 when the row carries 7702 authorizations, at the given nonce', () => {
    const plain = signedRequest(row({}), feesOf(row({})), 9n);
    expect(plain).toMatchObject({ type: 2, nonce: 9, value: 5n, gasLimit: 21000n, maxFeePerGas: 30n, maxPriorityFeePerGas: 2n });
    const auth = { chainId: '31337', address: '0x0000000000000000000000000000000000000002', nonce: '0', yParity: 1, r: '0x' + '1'.repeat(64), s: '0x' + '2'.repeat(64) };
    const withAuth = signedRequest(row({ authorizationList: [auth] }), feesOf(row({})), 9n);
    expect(withAuth.type).toBe(4);
    expect(withAuth.authorizationList).toEqual([{ chainId: 31337n, address: auth.address, nonce: 0n, signature: { r: auth.r, s: auth.s, yParity: 1 } }]);
  });
});
