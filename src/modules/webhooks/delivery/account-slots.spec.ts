import { AccountSlots } from './account-slots';

describe('AccountSlots', () => {
  it('gives an account at most its slots, and other accounts theirs regardless', () => {
    const slots = new AccountSlots(2, 5_000, () => 0);
    expect(slots.tryAcquire('a', '1')).toBe(true);
    expect(slots.tryAcquire('a', '2')).toBe(true);
    expect(slots.tryAcquire('a', '3')).toBe(false);
    expect(slots.tryAcquire('b', '4')).toBe(true);
    expect(slots.inUse('a')).toBe(2);
    slots.release('a');
    expect(slots.tryAcquire('a', '3')).toBe(true);
    expect(slots.tryAcquire('a', '5')).toBe(false);
  });

  it('spaces out the retries of a big backlog, within the bound', () => {
    const slots = new AccountSlots(2, 1_000, () => 0);
    slots.tryAcquire('a', 'x');
    slots.tryAcquire('a', 'y');
    expect(slots.deferMs('a')).toBe(100);
    for (let i = 0; i < 9; i++) slots.tryAcquire('a', `w${i}`);
    expect(slots.deferMs('a')).toBe(500);
    for (let i = 9; i < 100; i++) slots.tryAcquire('a', `w${i}`);
    expect(slots.deferMs('a')).toBe(1_000);
    expect(slots.deferMs('b')).toBe(100);
  });
});
