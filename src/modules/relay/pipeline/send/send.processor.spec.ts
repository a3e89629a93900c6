import type { Abandonment } from '../settle/abandonment.service';
import { PermanentSendError } from './send-errors';
import type { FirstSend } from './first-send.service';
import { SendProcessor } from './send.processor';
import type { SettlementService } from '../settle/settlement.service';
import type { Job } from 'bullmq';
import type { SendJob } from './send-queue';

describe('SendProcessor giving up', () => {
  const job = { data: { txId: 'tx-1', mode: 'send' } } as unknown as Job<SendJob>;

  function processorWith(abandon: () => Promise<boolean>) {
    const failUnsent = jest.fn().mockResolvedValue(undefined);
    const firstSend = { send: jest.fn().mockRejectedValue(new PermanentSendError('refused')) } as unknown as FirstSend;
    const abandonment = { safeToFail: jest.fn(abandon) } as unknown as Abandonment;
    const settlement = { failUnsent } as unknown as SettlementService;
    const processor = new SendProcessor(firstSend, {} as never, abandonment, settlement, {} as never, {} as never, {} as never);
    return { processor, failUnsent };
  }

  it('fails the row when nothing of the transaction can still land', async () => {
    const { processor, failUnsent } = processorWith(async () => true);
    await processor.process(job);
    expect(failUnsent).toHaveBeenCalledWith('tx-1', 'refused');
  });

  it('keeps it PENDING while a broadcast waits in the pool, so the gas is charged when it is mined', async () => {
    const { processor, failUnsent } = processorWith(async () => false);
    await processor.process(job);
    expect(failUnsent).not.toHaveBeenCalled();
  });

  it('keeps it PENDING when the chain cannot tell', async () => {
    const { processor, failUnsent } = processorWith(async () => {
      throw new Error('rpc down');
    });
    await processor.process(job);
    expect(failUnsent).not.toHaveBeenCalled();
  });
});
