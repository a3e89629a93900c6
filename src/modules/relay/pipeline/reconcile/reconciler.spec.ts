import type { AppConfig } from '../../../../config/app-config';
import type { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import type { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import type { RelayTransactionStore } from '../../store/relay-transaction.store';
import type { NonceGaps } from '../keys/nonce-gaps.service';
import type { MinedCheck } from '../track/mined-check';
import type { ReceiptTracker } from '../track/receipt-tracker.service';
import type { SendQueue } from '../send/send-queue';
import type { SettledFinality } from '../settle/settled-finality.service';
import type { Expiry } from './expiry.service';
import { InFlightPass } from './in-flight-pass';
import { ReconcilerService } from './reconciler.service';

describe('ReconcilerService: quiet rows already settled while the pass ran', () => {
  const old = new Date(Date.now() - 3_000);
  const rows = ['a', 'b', 'c'].map((id) => ({ id, chainId: 1, status: 'PENDING', createdAt: old }) as unknown as RelayTransactionEntity);
  const broadcasts = rows.map((r) => ({ txId: r.id, hash: `0x${r.id}`, createdAt: old }));

  function reconciler(stillSent: string[]) {
    const settleIfMined = jest.fn(async () => true);
    const inFlight = new InFlightPass(
      { inFlightBefore: async () => rows, stillSent: async () => new Set(stillSent) } as unknown as RelayTransactionStore,
      { forTxs: async () => broadcasts } as unknown as RelayBroadcastStore,
      { liveTxIds: async () => new Set<string>(), enqueue: jest.fn(async () => true) } as unknown as SendQueue,
      { isTracking: () => false } as unknown as ReceiptTracker,
      { RELAY_RECEIPT_POLL_MS: 250, RELAY_REPLACE_AFTER_MS: 30_000 } as AppConfig,
      { settleIfMined } as unknown as MinedCheck,
    );
    const service = new ReconcilerService(
      { expire: async () => 0 } as unknown as Expiry,
      { fill: async () => 0 } as unknown as NonceGaps,
      { check: async () => ({ finalized: 0, corrected: 0, missing: 0 }) } as unknown as SettledFinality,
      inFlight,
    );
    return { service, settleIfMined };
  }

  it('asks the chain only about rows still signed or broadcast when it gets to them', async () => {
    const { service, settleIfMined } = reconciler(['b']);
    const report = await service.reconcile();
    expect(settleIfMined).toHaveBeenCalledTimes(1);
    expect((settleIfMined.mock.calls[0] as unknown[])[0]).toMatchObject({ id: 'b' });
    expect(report).toMatchObject({ examined: 3, settled: 1 });
  });
});
