import { progressOf } from './gasless-status';

const hash = `0x${'ab'.repeat(32)}`;

describe('gasless progress from the relayed settlement', () => {
  it('is submitted while the relay has it pending, without a hash that may still be replaced', () => {
    expect(progressOf({ status: 'PENDING', executionTxHash: hash, revertReason: null, error: null })).toEqual({ status: 'submitted', executionTxHash: null, failureReason: null });
  });
  it('is executed with the mined hash', () => {
    expect(progressOf({ status: 'EXECUTED', executionTxHash: hash, revertReason: null, error: null })).toEqual({ status: 'executed', executionTxHash: hash, failureReason: null });
  });
  it('is failed with the revert reason when there is one', () => {
    expect(progressOf({ status: 'FAILED', executionTxHash: hash, revertReason: 'InsufficientOutput', error: 'reverted' }).failureReason).toBe('InsufficientOutput');
    expect(progressOf({ status: 'FAILED', executionTxHash: null, revertReason: null, error: null })).toMatchObject({ status: 'failed', failureReason: 'settlement failed' });
  });
});
