import { TxSignalSubscriber } from '../../tx-events';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { SyncWaitService } from './sync-wait.service';
import { TxQueryService } from '../http/tx-query.service';

const pending = { id: 't1', status: 'PENDING', executionTxHash: null } as unknown as RelayTransactionEntity;

describe('SyncWaitService', () => {
  it('ends at the timeout even when the signal subscription never comes up (Redis down)', async () => {
    const signals = { listen: () => new Promise(() => undefined) } as unknown as TxSignalSubscriber;
    const txs = { get: async () => pending } as unknown as TxQueryService;
    const started = Date.now();
    const result = await new SyncWaitService(signals, txs).wait('t1', 100, false);
    expect(result).toEqual({ tx: pending, timedOut: true });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('returns at once for a transaction that is already terminal', async () => {
    const executed = { ...pending, status: 'EXECUTED' } as RelayTransactionEntity;
    const signals = { listen: async () => () => undefined } as unknown as TxSignalSubscriber;
    const txs = { get: async () => executed } as unknown as TxQueryService;
    expect(await new SyncWaitService(signals, txs).wait('t1', 60_000, false)).toEqual({ tx: executed, timedOut: false });
  });
});
