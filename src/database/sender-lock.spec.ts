import type { DataSource } from 'typeorm';
import { storesDatabase } from '../../test/fakes/database';
import { SenderLocks } from './sender-lock';

/** SenderLocks on a real PostgreSQL: the lock is what keeps two readers of a pending nonce apart. */
describe('SenderLocks (real database)', () => {
  let ds: DataSource;
  let locks: SenderLocks;

  beforeAll(async () => {
    ds = await storesDatabase();
    locks = new SenderLocks(ds);
  });
  afterAll(() => ds?.destroy());

  const events: string[] = [];
  const send = (name: string, ms = 150) => async () => {
    events.push(`${name} in`);
    await new Promise((r) => setTimeout(r, ms));
    events.push(`${name} out`);
    return name;
  };

  it('one sender at a time per chain and address (any case), another address or chain at once', async () => {
    events.length = 0;
    const address = '0x00000000000000000000000000000000000000Aa';
    const done = await Promise.all([locks.hold(1, address, send('a')), locks.hold(1, address.toLowerCase(), send('b')), locks.hold(2, address, send('c'))]);
    expect(done).toEqual(['a', 'b', 'c']);
    const at = (e: string) => events.indexOf(e);
    // a and b never overlap, whichever got the lock first.
    expect(at('a out') < at('b in') || at('b out') < at('a in')).toBe(true);
    // c (another chain) ran beside the first of them.
    expect(at('c in')).toBeLessThan(Math.min(at('a out'), at('b out')));
  });

  it('a sender that fails gives the lock back', async () => {
    events.length = 0;
    const address = '0x00000000000000000000000000000000000000bB';
    const failing = locks.hold(1, address, async () => {
      await send('x', 50)();
      throw new Error('node refused');
    });
    // The next sender asks once the failing one holds the lock.
    while (!events.includes('x in')) await new Promise((r) => setTimeout(r, 5));
    const next = locks.hold(1, address, send('y', 10));
    await expect(failing).rejects.toThrow('node refused');
    await expect(next).resolves.toBe('y');
    expect(events).toEqual(['x in', 'x out', 'y in', 'y out']);
  });
});
