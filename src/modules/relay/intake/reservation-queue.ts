import type { ReservationRequest } from '../../accounts';
import type { TxNotification } from '../../tx-events';
import { RelayTransactionEntity } from '../store/relay-transaction.entity';
import { RelayTransactionStore, StageStamps } from '../store/relay-transaction.store';

type Stamps = StageStamps & { updated_at: Date };

interface Waiting {
  tx: RelayTransactionEntity;
  reservation: ReservationRequest;
  notification: TxNotification;
  resolve: (stamps: Stamps | undefined) => void;
  reject: (err: unknown) => void;
}

/** The most submissions one statement accepts: its arrays stay small, and a burst is a few statements. */
export const RESERVATION_BATCH_MAX = 64;

/**
 * The submissions of one account in this process, one statement in flight at a time. Every
 * reservation locks its account's row until its commit, so concurrent submissions of one
 * account queue on that row anyway; queued in the database, each waiter wakes in turn and
 * re-reads the row (a convoy that, on a busy host, took longer than the statements themselves).
 * Queued here instead, a submission that arrives while its account's statement runs waits for
 * it, and all those that waited go together in ONE statement (`insertReservedMany`): one lock,
 * one commit, whatever their number. A lone submission keeps its own statement
 * (`insertReserved`), and so does one the batch refused: alone, it is decided exactly as if
 * none had been batched (a smaller one after a refused one may fit where the batch stopped).
 */
export class ReservationQueue {
  private readonly accounts = new Map<string, Waiting[]>();

  constructor(private readonly txs: RelayTransactionStore) {}

  /** The row's timestamps once accepted; undefined when a limit refused it. */
  reserve(tx: RelayTransactionEntity, reservation: ReservationRequest, notification: TxNotification): Promise<Stamps | undefined> {
    return new Promise((resolve, reject) => {
      const key = batchKey(tx, reservation);
      const waiting = this.accounts.get(key);
      const item = { tx, reservation, notification, resolve, reject };
      if (waiting) {
        waiting.push(item);
        return;
      }
      this.accounts.set(key, []);
      void this.run(key, [item]);
    });
  }

  /** Runs `items`, then whatever queued meanwhile, until the account's queue is empty. */
  private async run(key: string, items: Waiting[]): Promise<void> {
    for (let batch = items; batch.length > 0; batch = this.take(key)) {
      if (batch.length === 1) await this.alone(batch[0]);
      else await this.together(batch);
    }
    this.accounts.delete(key);
  }

  private take(key: string): Waiting[] {
    const waiting = this.accounts.get(key) ?? [];
    const batch = waiting.splice(0, RESERVATION_BATCH_MAX);
    return batch;
  }

  private async alone(item: Waiting): Promise<void> {
    try {
      item.resolve(await this.txs.insertReserved(item.tx, item.reservation, item.notification));
    } catch (err) {
      item.reject(err);
    }
  }

  private async together(batch: Waiting[]): Promise<void> {
    const [{ reservation }] = batch;
    let accepted: Map<string, Stamps>;
    try {
      accepted = await this.txs.insertReservedMany(
        { userId: reservation.userId, now: reservation.now, dayStart: reservation.dayStart, unlessSponsored: reservation.unlessSponsored },
        batch.map((i) => ({ tx: i.tx, amountMicro: i.reservation.amountMicro, reference: i.reservation.reference, chainId: i.reservation.chainId, notification: i.notification })),
      );
    } catch {
      // Whatever failed the batch (one row's constraint, say) fails only that one: each alone.
      accepted = new Map();
    }
    for (const item of batch) {
      const stamps = accepted.get(item.tx.id);
      if (stamps) item.resolve(stamps);
      else await this.alone(item);
    }
  }
}

/**
 * Submissions batch together when one statement can take them all: the same account, day
 * window and policy check, and the same fields set on their rows (the statement's columns).
 */
function batchKey(tx: RelayTransactionEntity, r: ReservationRequest): string {
  const fields = Object.keys(tx).filter((k) => tx[k as keyof RelayTransactionEntity] !== undefined);
  return `${r.userId}|${r.dayStart.getTime()}|${r.unlessSponsored ? 1 : 0}|${fields.join(',')}`;
}
