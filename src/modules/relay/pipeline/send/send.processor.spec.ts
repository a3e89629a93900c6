import type { Job } from 'bullmq';
import { build } from '../../../../../test/fakes/build';
import { Abandonment } from '../settle/abandonment.service';
import { SettlementService } from '../settle/settlement.service';
import { FirstSend } from './first-send.service';
import { PermanentSendError } from './send-errors';
import type { SendJob } from './send-queue';
import { SendProcessor } from './send.processor';

describe('SendProcessor giving up', () => {
  const job = { data: { txId: 'tx-1', mode: 'send' } } as unknown as Job<SendJob>;

  function processorWith(abandon: () => Promise<boolean>) {
    const { unit: processor, get } = build(SendProcessor);
    get(FirstSend).send.mockRejectedValue(new PermanentSendError('refused'));
    get(Abandonment).safeToFail.mockImplementation(abandon);
    const failUnsent = get(SettlementService).failUnsent.mockResolvedValue(true);
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
