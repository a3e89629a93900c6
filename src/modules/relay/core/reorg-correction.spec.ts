import type { ReceiptJson, MinedReceipt } from './mined-receipt';
import { reorgCorrection, SettledRow } from './reorg-correction';

describe('reorg correction of a settled row', () => {
  const recorded: ReceiptJson = {
    transactionHash: '0xaa',
    blockNumber: 10,
    blockHash: '0xb10',
    status: 1,
    from: '0xrelayer',
    to: '0xtarget',
    gasUsed: '50000',
    effectiveGasPrice: '2000000000',
    l1Fee: '0',
    contractAddress: null,
    logs: 1,
  };
  const row: SettledRow = { stage: 'mined_executed', failureReason: null, executionTxHash: '0xaa', receipt: recorded, transactionType: 'flash', value: '7', fundingCostWei: '0' };
  const canonical = (over: Partial<MinedReceipt>): MinedReceipt => ({
    transactionHash: '0xaa',
    blockNumber: 11,
    blockHash: '0xb11',
    status: 1,
    from: '0xrelayer',
    to: '0xtarget',
    gasUsed: 50_000n,
    effectiveGasPrice: 3_000_000_000n,
    l1Fee: 0n,
    contractAddress: null,
    logs: 1,
    ...over,
  });

  it('leaves a row alone when the chain holds its recorded receipt (hash and block)', () => {
    expect(reorgCorrection(row, canonical({ blockNumber: 10, blockHash: '0xB10', effectiveGasPrice: 2_000_000_000n }), false)).toBeNull();
  });

  it('reprices a transaction re-included in another block, the value sent both times', () => {
    expect(reorgCorrection(row, canonical({}), false)).toEqual({ stage: 'mined_executed', failureReason: null, recordedWei: 50_000n * 2_000_000_000n + 7n, canonicalWei: 50_000n * 3_000_000_000n + 7n });
  });

  it('re-stages a transaction that reverts where it was re-included (no value sent, gas charged)', () => {
    expect(reorgCorrection(row, canonical({ status: 0, gasUsed: 30_000n }), false)).toEqual({
      stage: 'mined_reverted',
      failureReason: 'reverted',
      recordedWei: 50_000n * 2_000_000_000n + 7n,
      canonicalWei: 30_000n * 3_000_000_000n,
    });
  });

  it('fails a row whose cancellation the new chain mined instead of its call', () => {
    const c = reorgCorrection(row, canonical({ transactionHash: '0xcc', to: '0xrelayer', gasUsed: 21_000n }), true);
    expect(c).toEqual({ stage: 'mined_cancelled', failureReason: 'cancelled', recordedWei: 50_000n * 2_000_000_000n + 7n, canonicalWei: 21_000n * 3_000_000_000n });
  });

  it('turns a mined cancellation back into an execution when the call won the nonce after all', () => {
    const cancelled: SettledRow = { ...row, stage: 'mined_cancelled', failureReason: 'expired', executionTxHash: '0xcc', receipt: { ...recorded, transactionHash: '0xcc', gasUsed: '21000' } };
    expect(reorgCorrection(cancelled, canonical({}), false)).toEqual({ stage: 'mined_executed', failureReason: null, recordedWei: 21_000n * 2_000_000_000n, canonicalWei: 50_000n * 3_000_000_000n + 7n });
    // Still the cancellation, in another block: the reason it had stays.
    expect(reorgCorrection(cancelled, canonical({ transactionHash: '0xcc', gasUsed: 21_000n }), true)?.failureReason).toBe('expired');
  });

  it('leaves a row final at depth alone: a final stage never changes', () => {
    expect(reorgCorrection({ ...row, stage: 'executed' }, canonical({}), false)).toBeNull();
  });
});
