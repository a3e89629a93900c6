import { build } from '../../../../../test/fakes/build';
import { AppConfig } from '../../../../config/app-config';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import type { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { NonceGaps } from '../keys/nonce-gaps.service';
import { SendQueue } from '../send/send-queue';
import { SettledFinality } from '../settle/settled-finality.service';
import { MinedCheck } from '../track/mined-check';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { Expiry } from './expiry.service';
import { InFlightPass } from './in-flight-pass';
import { ReconcilerService } from './reconciler.service';

describe('ReconcilerService: quiet rows already settled while the pass ran', () => {
  const old = new Date(Date.now() - 3_000);
  const rows = ['a', 'b', 'c'].map((id) => ({ id, chainId: 1, status: 'PENDING', createdAt: old }) as unknown as RelayTransactionEntity);
  const broadcasts = rows.map((r) => ({ txId: r.id, hash: `0x${r.id}`, createdAt: old }));

  function reconciler(stillSent: string[]) {
    const { unit: service, get } = build(ReconcilerService, {
      provide: [[AppConfig, { RELAY_RECEIPT_POLL_MS: 250, RELAY_REPLACE_AFTER_MS: 30_000 }]],
      real: [InFlightPass],
    });
    get(Expiry).expire.mockResolvedValue(0);
    get(NonceGaps).fill.mockResolvedValue(0);
    get(SettledFinality).check.mockResolvedValue({ finalized: 0, corrected: 0, missing: 0 });
    get(RelayTransactionStore).inFlightBefore.mockResolvedValue(rows);
    get(RelayTransactionStore).stillSent.mockResolvedValue(new Set(stillSent));
    get(RelayBroadcastStore).forTxs.mockResolvedValue(broadcasts as never);
    get(SendQueue).liveTxIds.mockResolvedValue(new Set<string>());
    get(SendQueue).enqueue.mockResolvedValue(true);
    get(ReceiptTracker).isTracking.mockReturnValue(false);
    const settleIfMined = get(MinedCheck).settleIfMined.mockResolvedValue(true);
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
