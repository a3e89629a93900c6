import { build } from '../../../../test/fakes/build';
import { TxSignalSubscriber } from '../../tx-events';
import { TxQueryService } from '../http/tx-query.service';
import type { RelayedTx } from '../store/relayed-tx';
import { SyncWaitService } from './sync-wait.service';

const pending = { id: 't1', status: 'PENDING', executionTxHash: null } as RelayedTx;

function waitFor(tx: RelayedTx, listen: () => Promise<() => void>) {
  const { unit, get } = build(SyncWaitService);
  get(TxSignalSubscriber).listen.mockImplementation(listen);
  get(TxQueryService).get.mockResolvedValue(tx);
  return unit;
}

describe('SyncWaitService', () => {
  it('ends at the timeout even when the signal subscription never comes up (Redis down)', async () => {
    const started = Date.now();
    const result = await waitFor(pending, () => new Promise(() => undefined)).wait('t1', 100, false);
    expect(result).toEqual({ tx: pending, timedOut: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('returns at once for a transaction that is already terminal', async () => {
    const executed = { ...pending, status: 'EXECUTED' } as RelayedTx;
    expect(await waitFor(executed, async () => () => undefined).wait('t1', 60_000, false)).toEqual({ tx: executed, timedOut: false });
  });
});
