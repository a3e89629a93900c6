import { currentTraceId, runWithTrace } from '../../../../common/trace/trace-context';
import type { RelayTransactionStore } from '../../store/relay-transaction.store';
import type { ReceiptTracker } from '../track/receipt-tracker.service';
import { BroadcastMarks } from './broadcast-marks';

describe('BroadcastMarks', () => {
  function marksWith(tracking: Set<string>) {
    const markBroadcast = jest.fn(async (_hashes: string[]) => undefined);
    const marks = new BroadcastMarks({ markBroadcast } as unknown as RelayTransactionStore, { isTracking: (txId: string) => tracking.has(txId) } as unknown as ReceiptTracker);
    return { marks, markBroadcast };
  }

  it('marks the broadcasts accepted meanwhile in one statement', async () => {
    const { marks, markBroadcast } = marksWith(new Set(['t1', 't2']));
    marks.accepted('0x1', 't1');
    marks.accepted('0x2', 't2');
    marks.accepted('0x3');
    await marks.flush();
    expect(markBroadcast).toHaveBeenCalledTimes(1);
    expect(markBroadcast).toHaveBeenCalledWith(['0x1', '0x2', '0x3']);
  });

  it('leaves out a first broadcast already settled (settlement marked it), and makes no statement when nothing is left', async () => {
    const { marks, markBroadcast } = marksWith(new Set(['t2']));
    marks.accepted('0x1', 't1');
    marks.accepted('0x2', 't2');
    await marks.flush();
    expect(markBroadcast).toHaveBeenCalledWith(['0x2']);
    marks.accepted('0x3', 't3');
    await marks.flush();
    expect(markBroadcast).toHaveBeenCalledTimes(1);
  });

  it("the timed flush writes many sends' marks, so it runs in none of their traces", async () => {
    const { marks, markBroadcast } = marksWith(new Set(['t1', 't2']));
    let traceId: string | undefined = 'unset';
    markBroadcast.mockImplementation(async () => void (traceId = currentTraceId()));
    runWithTrace('tx-t1', () => marks.accepted('0x1', 't1'));
    runWithTrace('tx-t2', () => marks.accepted('0x2', 't2'));
    for (let i = 0; i < 100 && markBroadcast.mock.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(markBroadcast).toHaveBeenCalledWith(['0x1', '0x2']);
    expect(traceId).toBe('broadcast-marks');
  });
});
