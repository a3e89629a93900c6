import type Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import type { TxNotification, TxSignal, TxSignalMessage } from './tx-notification';
import { TxSignalSubscriber } from './tx-signal.subscriber';
import type { TxStatusEventStore } from './tx-status-event.store';
import { TxStatusPublisher } from './tx-status.publisher';

const config = { REDIS_PREFIX: 'spec', REDIS_URL: 'redis://unused' } as AppConfig;
const note = (txId: string, status: TxNotification['status'] = 'EXECUTED') => ({ txId, status }) as TxNotification;

describe('TxStatusPublisher', () => {
  function publisher() {
    const publish = jest.fn(async (_channel: string, _message: string) => 1);
    return { unit: new TxStatusPublisher({ publish } as unknown as Redis, config, {} as TxStatusEventStore), publish };
  }

  it('signals published in the same turn go out as ONE Redis PUBLISH: the first as before, the others in its `more`, in order', async () => {
    const { unit, publish } = publisher();
    await Promise.all([unit.publish('hash', note('a', 'PENDING')), unit.publishMany('status', [{ notification: note('b') }, { notification: note('c'), origin: 'vault' }]), unit.publish('status', note('a'))]);
    expect(publish).toHaveBeenCalledTimes(1);
    const [channel, message] = publish.mock.calls[0];
    expect(channel).toBe('spec:tx-signals');
    const { more, ...first } = JSON.parse(message) as TxSignalMessage;
    // A subscriber of an earlier release reads the first signal as it always did.
    expect(first).toEqual({ kind: 'hash', notification: note('a', 'PENDING') });
    expect(more!.map((s) => [s.kind, s.notification.txId, s.origin ?? null])).toEqual([
      ['status', 'b', null],
      ['status', 'c', 'vault'],
      ['status', 'a', null],
    ]);
  });

  it('a signal on its own is sent as an object, as before; a later turn is a message of its own', async () => {
    const { unit, publish } = publisher();
    await unit.publish('status', note('a'), null);
    await unit.publishMany('status', []);
    await unit.publish('status', note('b'), null);
    expect(publish.mock.calls.map(([, message]) => JSON.parse(message) as TxSignal)).toEqual([
      { kind: 'status', notification: note('a'), origin: null },
      { kind: 'status', notification: note('b'), origin: null },
    ]);
  });

  it('a failed publish is logged, not thrown (the outbox keeps the truth)', async () => {
    const { unit, publish } = publisher();
    publish.mockRejectedValueOnce(new Error('connection lost'));
    await expect(unit.publish('status', note('a'))).resolves.toBeUndefined();
  });
});

describe('TxSignalSubscriber', () => {
  it('delivers each signal of a batched message to the listeners of its transaction and to those of all', async () => {
    const subscriber = new TxSignalSubscriber(config);
    // No Redis here: the subscription counts as up.
    (subscriber as unknown as { ready: Promise<void> }).ready = Promise.resolve();
    const ofA: string[] = [];
    const all: string[] = [];
    await subscriber.listen('a', (s) => ofA.push(`${s.kind}:${s.notification.status}`));
    await subscriber.listen(null, (s) => all.push(s.notification.txId));
    const dispatch = (message: string) => (subscriber as unknown as { dispatch(m: string): void }).dispatch(message);
    dispatch(JSON.stringify({ kind: 'hash', notification: note('a', 'PENDING'), more: [{ kind: 'status', notification: note('b') }, { kind: 'status', notification: note('a') }] }));
    dispatch(JSON.stringify({ kind: 'status', notification: note('c') }));
    dispatch('not json');
    expect(ofA).toEqual(['hash:PENDING', 'status:EXECUTED']);
    expect(all).toEqual(['a', 'b', 'a', 'c']);
  });
});
